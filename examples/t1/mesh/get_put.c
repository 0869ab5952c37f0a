/* examples/t1/mesh/get_put.c: Split-C style global accesses (note 002 §2.3, §5.7; lib/splitc.h). Each
 * node puts 8 words into the next node's `window`, waits on the sync counter until every put is
 * acknowledged, meets the others at a barrier, then gets the 8 words back from the next node and syncs
 * again. Exits 0 when its window holds what the previous node put and the gets returned what it put
 * itself; a second barrier keeps every node serving gets until all are done. */
#include "barrier.h"
#include "splitc.h"
#include "sys.h"
#include "t1.h"

#define WORDS 8

static volatile unsigned window[WORDS]; /* written by the previous node's puts */
static volatile unsigned fetched[WORDS];

static unsigned value_of(unsigned node, unsigned i) { return node * 1000u + i; }

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  const unsigned next = me + 1 == nodes ? 0 : me + 1;
  const unsigned previous = me == 0 ? nodes - 1 : me - 1;
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned i = 0; i < WORDS; ++i) t1_put(next, &window[i], value_of(me, i));
  t1_sync();
  t1_barrier(me, nodes);
  for (unsigned i = 0; i < WORDS; ++i) t1_get(next, &window[i], &fetched[i]);
  t1_sync();
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
