/* examples/t1/mesh/multicast.c: node 0 broadcasts a word to the whole cylinder in two phases (note 002
 * §3.13, Fig. 9). Phase 1: one LP MCST along its row (dimension 0, open) to its far end leaves a copy at
 * every other node of the row. Phase 2: node 0 and each row node's handler cover their column, a ring,
 * with two HP MCSTs, one each way round (a multicast covers the shorter arc only, B23): to k/2 rows up
 * (a tie goes up) and to k/2 + 1 rows up, which goes down. Every other node gets exactly one copy, with
 * nistat.mcst set. The row phase's LP handler may spin on its HP sends (§3.9). Node ids are x + k y
 * (x along the row). */
#include "sys.h"
#include "t1.h"

#define MAGIC 0x7100CAFEu

static volatile unsigned copies;
static volatile unsigned good;  /* copies with the word and nistat.mcst */
static unsigned side_k;

static void note_copy(unsigned word) {
  good += word == MAGIC && (t1_nistat() & T1_MCST) != 0;
  copies++;
}

void on_column_copy(unsigned word, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  note_copy(word);
}
T1_C_HANDLER(column_handler, on_column_copy, 256);

/* Both ways round the column of node `me`: up to k/2 rows above, and k/2 + 1 rows above (down). */
static void cover_column(unsigned me, unsigned word) {
  const unsigned k = side_k, x = me % k, y = me / k;
  const unsigned up = x + k * ((y + k / 2) % k);
  const unsigned down = x + k * ((y + k / 2 + 1) % k);
  while (!t1_mcst1h(up, (unsigned)column_handler, word)) {
  }
  if (down != me)
    while (!t1_mcst1h(down, (unsigned)column_handler, word)) {
    }
}

void on_row_copy(unsigned word, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  note_copy(word);
  cover_column(t1_niid(), word);
}
T1_C_HANDLER(row_handler, on_row_copy, 256);

int main(unsigned nodes, unsigned side) {
  side_k = side;
  const unsigned me = t1_niid();
  t1_set_masks(T1_LPMM | T1_HPMM);
  if (me == 0) {
    while (!t1_mcst1(side - 1, (unsigned)row_handler, MAGIC)) {
    }
    cover_column(0, MAGIC);
    print_string("multicast: ");
    print_unsigned(nodes - 1);
    print_string(" nodes covered by a row and two column multicasts each\n");
    return 0;
  }
  while (copies == 0) {
  }
  /* A second copy would come soon after the first, from the same or the other direction: wait a little. */
  for (volatile unsigned spin = 0; spin < 2000; ++spin) {
  }
  return copies == 1 && good == 1 ? 0 : 1;
}
