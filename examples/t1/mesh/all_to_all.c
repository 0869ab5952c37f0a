/* examples/t1/mesh/all_to_all.c: every node sends one LP message to every other node, in a staggered
 * order (node v first to v + 1), carrying its id and the value from * nodes + to. Handlers add them
 * up; the primary code spins on its sends, which is allowed, as arriving messages are taken meanwhile
 * (§3.9). Exits 0 when the node got nodes - 1 messages whose sum is the expected one. */
#include "sys.h"
#include "t1.h"

static volatile unsigned received;
static volatile unsigned sum;
static volatile unsigned senders; /* the sum of the senders' ids */

void on_value(unsigned from, unsigned value, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  sum += value;
  senders += from;
  received++;
}
T1_C_HANDLER(value_handler, on_value, 256);

int main(unsigned nodes, unsigned side) {
  (void)side;
  const unsigned me = t1_niid();
  t1_set_masks(T1_LPMM);
  for (unsigned k = 1; k < nodes; ++k) {
    unsigned to = me + k;
    if (to >= nodes) to -= nodes;
    while (!t1_send2(to, (unsigned)value_handler, me, me * nodes + to)) {
    }
  }
  while (received < nodes - 1) {
  }
  /* sum over from != me of (from * nodes + me), and of from. */
  const unsigned all = nodes * (nodes - 1) / 2;
  const unsigned want_senders = all - me;
  const unsigned want_sum = want_senders * nodes + (nodes - 1) * me;
  if (me == 0) {
    print_string("all-to-all: ");
    print_unsigned(nodes * (nodes - 1));
    print_string(" messages\n");
  }
  return sum == want_sum && senders == want_senders ? 0 : 1;
}
