/* examples/t1/mesh/lp_forward.c: the negative control of note 002 B25. Every node sends one token
 * round a logical ring (node v to v + 1) to be forwarded HOPS times; each LP handler sends the token it
 * got on twice, one hop fewer each, with LP sends on which it spins until they succeed: what §3.9
 * forbids ("an LP event handler must not loop waiting to send an LP message"). The copies double at
 * every hop; once every node sits in such a handler, waiting for room at the next node, whose own
 * handler waits likewise, nothing moves: the machine deadlocks and the run ends at its time limit. If
 * it does not, every node gets the 2^HOPS copies that end at it (all of origin v's end at v + HOPS + 1)
 * and exits 0. */
#include "barrier.h"
#include "sys.h"
#include "t1.h"

#define HOPS 6

static volatile unsigned ended;
static unsigned next;
extern const char token_handler[];

void on_token(unsigned hops_left, unsigned origin, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  if (hops_left == 0) {
    ended++;
    return;
  }
  for (int copy = 0; copy < 2; ++copy)
    while (!t1_send2(next, (unsigned)token_handler, hops_left - 1, origin)) { /* forbidden: LP spin */
    }
}
T1_C_HANDLER(token_handler, on_token, 256);

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  next = me + 1 == nodes ? 0 : me + 1;
  t1_set_masks(T1_LPMM);
  while (!t1_send2(next, (unsigned)token_handler, HOPS, me)) {
  }
  while (ended < (1u << HOPS)) {
  }
  t1_barrier(me, nodes);
  return 0;
}
