/* examples/t1/lib/t1.h: the T1 network interface's instructions (note 002 §3, docs/t1.md) for handlers
 * and programs written in C or assembly. GNU as knows CFC2, CTC2, BC2F and BC2T; SEND, MCST and HRET are
 * new COP2 operations, emitted here as .word encodings (A7: funct bit 0 = vector, bit 1 = high priority,
 * bit 2 = multicast). The same header serves assembly (.S) files: only the #defines are visible there. */
#ifndef T1_H
#define T1_H

/* NI control registers, as CFC2/CTC2 name them (Table 1). */
#define T1_TIMEH 6
#define T1_TIMEC 7
#define T1_COUNT 9
#define T1_ENABLE 18
#define T1_NISTAT 19
#define T1_LPEPC 20
#define T1_HPEPC 21
#define T1_NIID 22
#define T1_DMH 23
#define T1_OUTH 24
#define T1_INH 25

/* nistat bits (the note's layout A2; lpa at bit 17 is the document's, the rest a choice). */
#define T1_PEND 0x80000000u
#define T1_NICOND 0x40000000u
#define T1_ONICOND 0x20000000u
#define T1_HPMP 0x10000000u
#define T1_LPMP 0x08000000u
#define T1_TP 0x04000000u
#define T1_OP 0x02000000u
#define T1_HPMM 0x01000000u
#define T1_LPMM 0x00800000u
#define T1_TM 0x00400000u
#define T1_OM 0x00200000u
#define T1_EE 0x00100000u
#define T1_LPEE 0x00080000u
#define T1_AME 0x00040000u
#define T1_LPA 0x00020000u
#define T1_HPA 0x00010000u
#define T1_PRI 0x00008000u
#define T1_MCST 0x00004000u
#define T1_SLEN(nistat) (((nistat) >> 8) & 7u)
#define T1_VLEN(nistat) ((nistat)&0x3Fu)
#define T1_EVENT_MASKS (T1_HPMM | T1_LPMM | T1_TM | T1_OM)

/* funct of the eight forms. */
#define T1_FUNCT_SEND 0x20
#define T1_FUNCT_SEND_V 0x21
#define T1_FUNCT_SEND_H 0x22
#define T1_FUNCT_SEND_HV 0x23
#define T1_FUNCT_MCST 0x24
#define T1_FUNCT_MCST_V 0x25
#define T1_FUNCT_MCST_H 0x26
#define T1_FUNCT_MCST_HV 0x27

/* SENDn/MCSTn: n scalar words from $4,$5,$6,$7,$29 (n <= 5), handler in GPR rt, destination in GPR rd,
 * vector register vd for the .V forms. In assembly: T1_SEND_WORD(T1_FUNCT_SEND, 2, 25, 24, 0) after
 * `.word`. A SEND sets nicond; test it with BC2F/BC2T at least one instruction later (A.5). */
#define T1_SEND_WORD(funct, n, rd, rt, vd) \
  (0x4A000000u | ((n) << 21) | ((rt) << 16) | ((rd) << 11) | ((vd) << 6) | (funct))
#define T1_HRET_WORD 0x4A00001Cu

#ifndef __ASSEMBLER__

/* Reading and writing NI registers. A CFC2's result is usable from the 2nd instruction after it, and a
 * CTC2 takes effect at the 3rd (A.10): the NOPs keep to that on an unbypassed T1. */
#define T1__STR(x) #x
#define T1__XSTR(x) T1__STR(x)
#define t1_read(reg)                                                                               \
  __extension__({                                                                                  \
    unsigned t1__v;                                                                                \
    __asm__ volatile(".set push\n\t.set noreorder\n\tcfc2 %0, $" T1__XSTR(reg) "\n\tnop\n\t.set pop" \
                     : "=r"(t1__v)                                                                 \
                     :                                                                             \
                     : "memory");                                                                  \
    t1__v;                                                                                         \
  })
#define t1_write(reg, value)                                                                             \
  __asm__ volatile(".set push\n\t.set noreorder\n\tctc2 %0, $" T1__XSTR(reg) "\n\tnop\n\tnop\n\t.set pop" \
                   :                                                                                     \
                   : "r"((unsigned)(value))                                                              \
                   : "memory")

static inline unsigned t1_nistat(void) { return t1_read(T1_NISTAT); }
static inline unsigned t1_niid(void) { return t1_read(T1_NIID) & 0x7FFu; }
static inline unsigned t1_count(void) { return t1_read(T1_COUNT); }
static inline unsigned t1_inh(void) { return t1_read(T1_INH); }

/* Event masks in nistat (EM). Sets or clears the given mask bits, keeping the rest. */
static inline void t1_set_masks(unsigned masks) { t1_write(T1_NISTAT, t1_nistat() | masks); }
static inline void t1_clear_masks(unsigned masks) { t1_write(T1_NISTAT, t1_nistat() & ~masks); }

/* Critical sections from C. The document's ENTER_CRIT writes 0 to enable, but with EE = 0 the HP bank of
 * $4-$9 and $29 becomes the visible one (A.10, note A5), and compiled code uses those registers freely
 * ($29 is its stack pointer). So C code masks the events in nistat instead (note §5.5), which keeps the
 * normal bank: t1_critical_begin returns the masks to give back to t1_critical_end. */
static inline unsigned t1_critical_begin(void) {
  unsigned s = t1_nistat();
  t1_write(T1_NISTAT, s & ~T1_EVENT_MASKS);
  return s & T1_EVENT_MASKS;
}
static inline void t1_critical_end(unsigned masks) { t1_set_masks(masks); }

/* SEND and MCST from C, 0 to 4 scalar words (the 5th data register, $29, is C's stack pointer: a
 * 5-word message needs assembly). Each returns nicond: 1 if the network took the message, 0 if it was
 * full (nothing sent, no trap; §3.9). The handler goes in $24 and the destination in $25, which are not
 * banked. The hazard slot between SEND and BC2T sets the result. */
#define T1__SEND_ASM                                                                                 \
  ".set push\n\t.set noreorder\n\t.word %1\n\tli %0, 1\n\tbc2t 1f\n\tnop\n\tli %0, 0\n1:\n\t.set pop"
#define T1__SEND_PROLOGUE(dest, handler)             \
  register unsigned t1__rt __asm__("$24") = handler; \
  register unsigned t1__rd __asm__("$25") = dest;    \
  int t1__ok
#define T1__DEFINE_SENDS(prefix, suffix, funct)                                                                       \
  static inline int prefix##0##suffix(unsigned dest, unsigned handler) {                                              \
    T1__SEND_PROLOGUE(dest, handler);                                                                       \
    __asm__ volatile(T1__SEND_ASM : "=&r"(t1__ok) : "i"(T1_SEND_WORD(funct, 0, 25, 24, 0)), "r"(t1__rt), \
                     "r"(t1__rd) : "memory");                                                               \
    return t1__ok;                                                                                          \
  }                                                                                                         \
  static inline int prefix##1##suffix(unsigned dest, unsigned handler, unsigned w0) {                                 \
    T1__SEND_PROLOGUE(dest, handler);                                                                       \
    register unsigned t1__4 __asm__("$4") = w0;                                                             \
    __asm__ volatile(T1__SEND_ASM : "=&r"(t1__ok) : "i"(T1_SEND_WORD(funct, 1, 25, 24, 0)), "r"(t1__rt), \
                     "r"(t1__rd), "r"(t1__4) : "memory");                                                   \
    return t1__ok;                                                                                          \
  }                                                                                                         \
  static inline int prefix##2##suffix(unsigned dest, unsigned handler, unsigned w0, unsigned w1) {                    \
    T1__SEND_PROLOGUE(dest, handler);                                                                       \
    register unsigned t1__4 __asm__("$4") = w0;                                                             \
    register unsigned t1__5 __asm__("$5") = w1;                                                             \
    __asm__ volatile(T1__SEND_ASM : "=&r"(t1__ok) : "i"(T1_SEND_WORD(funct, 2, 25, 24, 0)), "r"(t1__rt), \
                     "r"(t1__rd), "r"(t1__4), "r"(t1__5) : "memory");                                       \
    return t1__ok;                                                                                          \
  }                                                                                                         \
  static inline int prefix##3##suffix(unsigned dest, unsigned handler, unsigned w0, unsigned w1, unsigned w2) {       \
    T1__SEND_PROLOGUE(dest, handler);                                                                       \
    register unsigned t1__4 __asm__("$4") = w0;                                                             \
    register unsigned t1__5 __asm__("$5") = w1;                                                             \
    register unsigned t1__6 __asm__("$6") = w2;                                                             \
    __asm__ volatile(T1__SEND_ASM : "=&r"(t1__ok) : "i"(T1_SEND_WORD(funct, 3, 25, 24, 0)), "r"(t1__rt), \
                     "r"(t1__rd), "r"(t1__4), "r"(t1__5), "r"(t1__6) : "memory");                           \
    return t1__ok;                                                                                          \
  }                                                                                                         \
  static inline int prefix##4##suffix(unsigned dest, unsigned handler, unsigned w0, unsigned w1, unsigned w2,         \
                            unsigned w3) {                                                                  \
    T1__SEND_PROLOGUE(dest, handler);                                                                       \
    register unsigned t1__4 __asm__("$4") = w0;                                                             \
    register unsigned t1__5 __asm__("$5") = w1;                                                             \
    register unsigned t1__6 __asm__("$6") = w2;                                                             \
    register unsigned t1__7 __asm__("$7") = w3;                                                             \
    __asm__ volatile(T1__SEND_ASM : "=&r"(t1__ok) : "i"(T1_SEND_WORD(funct, 4, 25, 24, 0)), "r"(t1__rt), \
                     "r"(t1__rd), "r"(t1__4), "r"(t1__5), "r"(t1__6), "r"(t1__7) : "memory");               \
    return t1__ok;                                                                                          \
  }

/* t1_send0..4 (LP request), t1_send0h..4h (HP reply), t1_mcst0..4, t1_mcst0h..4h. */
T1__DEFINE_SENDS(t1_send, , T1_FUNCT_SEND)
T1__DEFINE_SENDS(t1_send, h, T1_FUNCT_SEND_H)
T1__DEFINE_SENDS(t1_mcst, , T1_FUNCT_MCST)
T1__DEFINE_SENDS(t1_mcst, h, T1_FUNCT_MCST_H)

/* A handler written in C: `T1_C_HANDLER(name, fn, words);` (at file scope, after fn's declaration)
 * defines and declares the handler address `name`, which calls
 *     void fn(unsigned w0, unsigned w1, unsigned w2, unsigned w3, unsigned w4)
 * with the message's scalar words ($4-$7, $29) and returns with HRET. $29 is banked, so in a handler it
 * is the message's 5th word, not a stack pointer: the stub runs fn on a stack of its own (`words` words;
 * each handler has one, as an LP handler may be preempted by an HP one). It saves the shared registers
 * fn may change ($1-$3, $10-$15, $24, $25, $31, HI, LO); $16-$23, $30 are kept by fn (o32 ABI), $28
 * ($gp) is shared and constant, and $8, $9 are this level's scratch, which compiled code clobbers. */
#define T1_C_HANDLER(name, fn, words)                                                                  \
  unsigned name##_stack[words] __attribute__((aligned(8)));                                            \
  extern const char name[];                                                                            \
  __asm__(".text\n\t.globl " #name "\n\t.align 2\n\t.set push\n\t.set noreorder\n\t.set noat\n" #name \
          ":\n\t"                                                                                      \
          "move $8, $29\n\t"                                                                           \
          "lui $29, %hi(" #name "_stack+4*" #words "-80)\n\t"                                          \
          "addiu $29, $29, %lo(" #name "_stack+4*" #words "-80)\n\t"                                   \
          "sw $8, 16($29)\n\t"                                                                         \
          "sw $1, 20($29)\n\tsw $2, 24($29)\n\tsw $3, 28($29)\n\t"                                     \
          "sw $10, 32($29)\n\tsw $11, 36($29)\n\tsw $12, 40($29)\n\tsw $13, 44($29)\n\t"               \
          "sw $14, 48($29)\n\tsw $15, 52($29)\n\tsw $24, 56($29)\n\tsw $25, 60($29)\n\t"               \
          "sw $31, 64($29)\n\tmfhi $8\n\tsw $8, 68($29)\n\tmflo $8\n\tsw $8, 72($29)\n\t"              \
          "jal " #fn "\n\tnop\n\t"                                                                     \
          "lw $8, 68($29)\n\tmthi $8\n\tlw $8, 72($29)\n\tmtlo $8\n\t"                                 \
          "lw $1, 20($29)\n\tlw $2, 24($29)\n\tlw $3, 28($29)\n\t"                                     \
          "lw $10, 32($29)\n\tlw $11, 36($29)\n\tlw $12, 40($29)\n\tlw $13, 44($29)\n\t"               \
          "lw $14, 48($29)\n\tlw $15, 52($29)\n\tlw $24, 56($29)\n\tlw $25, 60($29)\n\t"               \
          "lw $31, 64($29)\n\t"                                                                        \
          ".word 0x4A00001C\n\t" /* HRET */                                                            \
          ".set pop")

#endif /* __ASSEMBLER__ */
#endif /* T1_H */
