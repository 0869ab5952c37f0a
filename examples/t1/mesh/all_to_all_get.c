/* examples/t1/mesh/all_to_all_get.c: every node reads one word from every other node (note 002 B24):
 * an LP request, answered from the LP handler with an HP reply on which the handler may spin (§3.9),
 * while the primary code leaves events enabled as it spins on its own sends. The rules make it
 * complete on any buffer sizes the mesh itself does not deadlock on. Exits 0 when every word read is
 * the owner's. A barrier keeps every node serving gets until all are done. */
#include "barrier.h"
#include "sys.h"
#include "t1.h"

#define MAX_NODES 64

static volatile unsigned table[MAX_NODES]; /* table[i] = the word node i reads here */
static volatile unsigned got[MAX_NODES];
static volatile unsigned replies;

static unsigned word(unsigned owner, unsigned reader) { return owner * 1000u + reader; }

void on_reply(unsigned value, unsigned address, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  *(volatile unsigned*)address = value;
  replies++;
}
T1_C_HANDLER(reply_handler, on_reply, 256);

void on_get(unsigned address, unsigned reply_address, unsigned from, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  while (!t1_send2h(from, (unsigned)reply_handler, *(volatile unsigned*)address, reply_address)) {
  }
}
T1_C_HANDLER(get_handler, on_get, 256);

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  if (nodes > MAX_NODES) return 2;
  for (unsigned i = 0; i < nodes; ++i) table[i] = word(me, i);
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned k = 1; k < nodes; ++k) {
    unsigned to = me + k;
    if (to >= nodes) to -= nodes;
    while (!t1_send3(to, (unsigned)get_handler, (unsigned)&table[me], (unsigned)&got[to], me)) {
    }
  }
  while (replies < nodes - 1) {
  }
  unsigned good = 0;
  for (unsigned v = 0; v < nodes; ++v) good += v == me || got[v] == word(v, me);
  t1_barrier(me, nodes);
  return good == nodes ? 0 : 1;
}
