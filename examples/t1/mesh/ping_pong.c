/* examples/t1/mesh/ping_pong.c: node 0 and the last node play ping-pong: 100 LP pings, each answered
 * by an HP pong that echoes its sequence number (a request goes low, its reply high: note 002 §3.9).
 * Node 0 prints the round trips' processor cycles (Count is the global time base, A.2.3). The other
 * nodes exit at once. Exits 0 when every pong came back in order with its number. */
#include "sys.h"
#include "t1.h"

#define ROUNDS 100

static volatile unsigned pongs;    /* node 0: pongs received */
static volatile unsigned in_order; /* node 0: pongs whose number was the one expected */
static volatile unsigned pings;    /* the last node: pings served */

void on_pong(unsigned seq, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  in_order += seq == pongs;
  pongs++;
}
T1_C_HANDLER(pong_handler, on_pong, 256);

/* An LP handler may spin on an HP send (§3.9). */
void on_ping(unsigned seq, unsigned from, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  while (!t1_send1h(from, (unsigned)pong_handler, seq)) {
  }
  pings++;
}
T1_C_HANDLER(ping_handler, on_ping, 256);

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  const unsigned last = nodes - 1;
  t1_set_masks(T1_LPMM | T1_HPMM);
  if (me == last) {
    while (pings < ROUNDS) {
    }
    return 0;
  }
  if (me != 0) return 0;
  const unsigned start = t1_count();
  for (unsigned i = 0; i < ROUNDS; ++i) {
    while (!t1_send2(last, (unsigned)ping_handler, i, me)) {
    }
    while (pongs == i) {
    }
  }
  const unsigned cycles = t1_count() - start;
  print_string("ping-pong with node ");
  print_unsigned(last);
  print_string(": ");
  print_unsigned(ROUNDS);
  print_string(" round trips in ");
  print_unsigned(cycles);
  print_string(" cycles\n");
  return pongs == ROUNDS && in_order == ROUNDS ? 0 : 1;
}
