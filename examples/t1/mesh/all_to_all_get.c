/* examples/t1/mesh/all_to_all_get.c: every node reads one word from every other node (note 002 B24)
 * with Split-C gets (lib/splitc.h): an LP request, answered from the LP handler with an HP reply on
 * which the handler may spin (§3.9), while the primary code leaves events enabled as it spins on its
 * own sends. The rules make it complete on any buffer sizes the mesh itself does not deadlock on.
 * Exits 0 when every word read is the owner's. A barrier keeps every node serving gets until all are
 * done. */
#include "barrier.h"
#include "splitc.h"
#include "sys.h"
#include "t1.h"

#define MAX_NODES 64

static volatile unsigned table[MAX_NODES]; /* table[i] = the word node i reads here */
static volatile unsigned got[MAX_NODES];

static unsigned word(unsigned owner, unsigned reader) { return owner * 1000u + reader; }

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  if (nodes > MAX_NODES) return 2;
  for (unsigned i = 0; i < nodes; ++i) table[i] = word(me, i);
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned k = 1; k < nodes; ++k) {
    unsigned to = me + k;
    if (to >= nodes) to -= nodes;
    t1_get(to, &table[me], &got[to]);
  }
  t1_sync();
  unsigned good = 0;
  for (unsigned v = 0; v < nodes; ++v) good += v == me || got[v] == word(v, me);
  t1_barrier(me, nodes);
  return good == nodes ? 0 : 1;
}
