/* examples/t1/mesh/fetch_add.c: every node adds 1 to a counter on node 0, OPS times, by fetch-and-add
 * (note 002 §2.3, Figs. 3-4, B27): an LP request whose handler reads the counter, adds, and replies the
 * old value HP. The update is atomic because handlers run to completion, so the old values are 0 ..
 * nodes * OPS - 1, each once. Each node then reports its old values to node 0, which marks them. Node 0
 * prints the final counter and the distinct old values; it exits 0 when both are nodes * OPS. Node 0
 * adds to its own counter through its NI too (a message to itself, A29). */
#include "barrier.h"
#include "sys.h"
#include "t1.h"

#define OPS 8
#define MAX_NODES 64

static volatile unsigned counter; /* node 0 */
static volatile unsigned old_values[OPS];
static volatile unsigned replies;
static volatile unsigned char seen[MAX_NODES * OPS]; /* node 0 */
static volatile unsigned reports;                     /* node 0 */
static volatile unsigned duplicates;                  /* node 0 */

void on_reply(unsigned old, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  old_values[replies++] = old;
}
T1_C_HANDLER(reply_handler, on_reply, 256);

void on_fetch_add(unsigned from, unsigned add, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  const unsigned old = counter;
  counter = old + add;
  while (!t1_send1h(from, (unsigned)reply_handler, old)) {
  }
}
T1_C_HANDLER(fetch_add_handler, on_fetch_add, 256);

void on_report(unsigned old, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  if (old < MAX_NODES * OPS && !seen[old])
    seen[old] = 1;
  else
    duplicates++;
  reports++;
}
T1_C_HANDLER(report_handler, on_report, 256);

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  if (nodes > MAX_NODES) return 2;
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned i = 0; i < OPS; ++i)
    while (!t1_send2(0, (unsigned)fetch_add_handler, me, 1)) {
    }
  while (replies < OPS) {
  }
  for (unsigned i = 0; i < OPS; ++i)
    while (!t1_send1(0, (unsigned)report_handler, old_values[i])) {
    }
  if (me == 0) {
    while (reports < nodes * OPS) {
    }
    unsigned distinct = 0;
    for (unsigned v = 0; v < nodes * OPS; ++v) distinct += seen[v];
    print_string("counter ");
    print_unsigned(counter);
    print_string(" distinct ");
    print_unsigned(distinct);
    print_char('\n');
    t1_barrier(me, nodes);
    return counter == nodes * OPS && distinct == nodes * OPS && duplicates == 0 ? 0 : 1;
  }
  t1_barrier(me, nodes);
  return 0;
}
