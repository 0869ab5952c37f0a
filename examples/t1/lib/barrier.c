/* examples/t1/lib/barrier.c: node 0 counts arrivals and, once all nodes of this generation are in,
 * releases them. Primary code may spin on LP sends (§3.9): arriving messages are taken meanwhile. */
#include "barrier.h"

#include "t1.h"

static volatile unsigned arrived;  /* node 0: arrivals at barriers so far */
static volatile unsigned released; /* barriers released so far */
static unsigned generation;        /* barriers this node has entered */

void t1__on_release(unsigned w0, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4;
  released++;
}
T1_C_HANDLER(t1__release_handler, t1__on_release, 256);

void t1__on_arrive(unsigned w0, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4;
  arrived++;
}
T1_C_HANDLER(t1__arrive_handler, t1__on_arrive, 256);

void t1_barrier(unsigned me, unsigned nodes) {
  ++generation;
  t1_set_masks(T1_LPMM);
  if (me != 0) {
    while (!t1_send0(0, (unsigned)t1__arrive_handler)) {
    }
    while (released < generation) {
    }
    return;
  }
  while (arrived < generation * (nodes - 1)) {
  }
  for (unsigned v = 1; v < nodes; ++v)
    while (!t1_send0(v, (unsigned)t1__release_handler)) {
    }
}
