/* examples/t1/mesh/costs.c: the document's instruction sequences timed on the mesh with Count, the
 * processor-cycle counter that is the global time base (A.2.3; Count advances once a cycle here).
 * Each sequence sits between two CFC2 reads of Count in one asm block, and the block's cost without a
 * sequence (two CFC2s back to back) is subtracted. Node 0 times C1-C5 (Fig. 8's critical section and
 * poll, Fig. 18's availability poll, a SEND and its check) and the sender's part of C8 (SEND5 and its
 * check); it sends the 5-word message to node 1, whose handler is a bare HRET. Node 1 waits until the
 * message is in its NI, then times a straight run of NOPs twice, with message events masked and with
 * them enabled at the start of the run: the difference is the event's dispatch and the handler's HRET
 * (C6). Every other node exits at once. Output, one "name cycles" line each: c1..c5 and c8_send from
 * node 0, c6 from node 1 (note 002 §6.1). */
#include "sys.h"
#include "t1.h"

/* A handler that only returns: what C6 and C8 leave out of the handler body. */
__asm__(".text\n\t.globl empty_handler\n\t.align 2\nempty_handler:\n\t.word 0x4A00001C\n");
extern const char empty_handler[];

/* Runs `before`, then "cfc2 $16, Count", `body`, "cfc2 $17, Count", then `after`, in one asm block, and
 * gives the difference of the two reads. One block, because with EE = 0 the HP bank of $4-$9 and $29 is
 * the visible one (A.10): compiled code, which keeps its stack pointer in $29, must not run in between.
 * The reads go to $16 and $17, which are not banked. Inputs start at %2. */
#define T1_TIMED(before, body, after, ...)                                                             \
  __extension__({                                                                                     \
    register unsigned t1__a __asm__("$16");                                                           \
    register unsigned t1__b __asm__("$17");                                                           \
    __asm__ volatile(".set push\n\t.set noreorder\n\t.set noat\n\t" before "\n\tcfc2 $16, $9\n\t" body  \
                     "\n\tcfc2 $17, $9\n\t" after "\n\t.set pop"                                       \
                     : "=&r"(t1__a), "=&r"(t1__b)__VA_ARGS__);                                         \
    t1__b - t1__a;                                                                                    \
  })
#define T1_EXIT_CRIT "ori $1, $0, 1\n\tctc2 $1, $18\n\tnop\n\tnop"

static void report(const char* name, unsigned cycles) {
  print_string(name);
  print_char(' ');
  print_unsigned(cycles);
  print_char('\n');
}

static unsigned sender(void) {
  const unsigned base = T1_TIMED("", "", "", : : "memory");
  /* C1: ENTER_CRIT (Fig. 8). C2: EXIT_CRIT, with $1 rather than $t1 (A5). C3: NI_POLL, enable then
   * disable (3 instructions, L295). Each leaves events enabled after its timing. */
  const unsigned c1 = T1_TIMED("", "ctc2 $0, $18", T1_EXIT_CRIT, : : "$1", "memory") - base;
  const unsigned c2 = T1_TIMED("ctc2 $0, $18\n\tnop\n\tnop", "ori $1, $0, 1\n\tctc2 $1, $18", "nop\n\tnop",
                               : : "$1", "memory") -
                      base;
  const unsigned c3 =
      T1_TIMED("", "ori $1, $0, 1\n\tctc2 $1, $18\n\tctc2 $0, $18", T1_EXIT_CRIT, : : "$1", "memory") - base;
  /* C4: Fig. 18's poll: CFC2 nistat, NOP, SLL 14 (lpa to the sign), BLTZ; the closing CFC2 is its delay
   * slot, so it is timed once whether or not the branch is taken. */
  const unsigned c4 =
      T1_TIMED("", "cfc2 $1, $19\n\tnop\n\tsll $1, $1, 14\n\tbltz $1, 1f", "1:", : : "$1", "memory") - base;
  /* C5: one setup instruction, SEND1 to node 2, the hazard slot, BC2F (taken on failure), its slot. */
  register unsigned rt __asm__("$24") = (unsigned)empty_handler;
  register unsigned rd __asm__("$25") = 2;
  const unsigned c5 = T1_TIMED("", "addiu $4, $0, 9\n2:\n\t.word %2\n\tnop\n\tbc2f 2b\n\tnop", "",
                               : "i"(T1_SEND_WORD(T1_FUNCT_SEND, 1, 25, 24, 0)), "r"(rt), "r"(rd)
                               : "$4", "memory") -
                      base;
  /* C8, the sender's part: SEND5 ($4-$7 and $29, the stack pointer's value as the 5th word) to node 1 and
   * its check, no setup. */
  register unsigned rd1 __asm__("$25") = 1;
  const unsigned c8 = T1_TIMED("", "3:\n\t.word %2\n\tnop\n\tbc2f 3b\n\tnop", "",
                               : "i"(T1_SEND_WORD(T1_FUNCT_SEND, 5, 25, 24, 0)), "r"(rt), "r"(rd1)
                               : "memory") -
                      base;
  report("c1", c1);
  report("c2", c2);
  report("c3", c3);
  report("c4", c4);
  report("c5", c5);
  report("c8_send", c8);
  return 0;
}

#define NOPS_64 "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t" \
                "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t" \
                "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t" \
                "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop"

static unsigned receiver(void) {
  while ((t1_nistat() & T1_LPMP) == 0) { /* the message is in the NI, its event masked */
  }
  register unsigned masked __asm__("$2") = t1_nistat() & ~T1_EVENT_MASKS;
  register unsigned enabled __asm__("$3") = masked | T1_LPMM;
  const unsigned quiet = T1_TIMED("", "ctc2 $2, $19\n\t" NOPS_64, "", : "r"(masked), "r"(enabled) : "memory");
  const unsigned taken = T1_TIMED("", "ctc2 $3, $19\n\t" NOPS_64, "", : "r"(masked), "r"(enabled) : "memory");
  report("c6", taken - quiet);
  return 0;
}

int main(unsigned nodes, unsigned side) {
  (void)nodes, (void)side;
  const unsigned me = t1_niid();
  if (me == 0) return sender();
  if (me == 1) return receiver();
  return 0;
}
