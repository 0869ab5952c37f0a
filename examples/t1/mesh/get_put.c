/* examples/t1/mesh/get_put.c: Split-C style global accesses (note 002 §2.3, §5.7). Each node puts 8
 * words into the next node's `window` (an LP request; the owner stores the word and acknowledges with
 * an HP reply that counts `acks`), waits on the sync counter until every put is acknowledged, meets
 * the others at a barrier on node 0, then gets the 8 words back from the next node (an LP request, an
 * HP reply that stores the value where the requester asked). Exits 0 when its window holds what the
 * previous node put and the gets returned what it put itself; a second barrier keeps every node
 * serving gets until all are done. */
#include "barrier.h"
#include "sys.h"
#include "t1.h"

#define WORDS 8

static volatile unsigned window[WORDS]; /* written by the previous node's puts */
static volatile unsigned fetched[WORDS];
static volatile unsigned acks;
static volatile unsigned replies;

void on_ack(unsigned w0, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4;
  acks++;
}
T1_C_HANDLER(ack_handler, on_ack, 256);

/* put request: store value at address, then acknowledge (an LP handler may spin on an HP send). */
void on_put(unsigned address, unsigned value, unsigned from, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  *(volatile unsigned*)address = value;
  while (!t1_send0h(from, (unsigned)ack_handler)) {
  }
}
T1_C_HANDLER(put_handler, on_put, 256);

void on_get_reply(unsigned value, unsigned address, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  *(volatile unsigned*)address = value;
  replies++;
}
T1_C_HANDLER(get_reply_handler, on_get_reply, 256);

void on_get(unsigned address, unsigned reply_address, unsigned from, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  while (!t1_send2h(from, (unsigned)get_reply_handler, *(volatile unsigned*)address, reply_address)) {
  }
}
T1_C_HANDLER(get_handler, on_get, 256);

static unsigned value_of(unsigned node, unsigned i) { return node * 1000u + i; }

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  const unsigned next = me + 1 == nodes ? 0 : me + 1;
  const unsigned previous = me == 0 ? nodes - 1 : me - 1;
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned i = 0; i < WORDS; ++i)
    while (!t1_send3(next, (unsigned)put_handler, (unsigned)&window[i], value_of(me, i), me)) {
    }
  while (acks < WORDS) { /* sync */
  }
  t1_barrier(me, nodes);
  for (unsigned i = 0; i < WORDS; ++i)
    while (!t1_send3(next, (unsigned)get_handler, (unsigned)&window[i], (unsigned)&fetched[i], me)) {
    }
  while (replies < WORDS) {
  }
  t1_barrier(me, nodes); /* nobody leaves while another may still get from it */
  unsigned good = 0;
  for (unsigned i = 0; i < WORDS; ++i) good += window[i] == value_of(previous, i) && fetched[i] == value_of(me, i);
  if (me == 0) {
    print_string("get/put: ");
    print_unsigned(nodes * WORDS);
    print_string(" puts acknowledged, as many gets returned\n");
  }
  return good == WORDS ? 0 : 1;
}
