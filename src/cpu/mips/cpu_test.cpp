// cpu/mips/cpu_test.cpp: instruction semantics on hand-encoded instructions, with values worked out by
// hand from the MIPS-II definitions.
#include "cpu/mips/cpu.hpp"

#include <gtest/gtest.h>

#include "cpu/mips/encode_testing.hpp"

namespace mppnet::cpu::mips {
namespace {

using namespace testing;

TEST(MipsCpu, AdduWrapsWhereAddRaisesOverflowAndChangesNothing) {
  // $t0 = 0x7fffffff; ADDU gives 0x80000000; ADD and ADDI overflow (positive + positive = negative).
  Machine m({lui(t0, 0x7fff), ori(t0, t0, 0xffff), addiu(t1, zero, 1), addu(t2, t0, t1), add(t3, t0, t1),
             i_type(0x08, t0, t3, 1)});
  m.steps(4);
  EXPECT_EQ(m.cpu.gpr(t2), 0x80000000u);
  EXPECT_EQ(m.cpu.step(), Exception::Overflow);
  EXPECT_EQ(m.cpu.fault().pc, Machine::kCode + 16);
  EXPECT_EQ(m.cpu.gpr(t3), 0u);                  // destination untouched
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 16);    // stays at the faulting instruction
  EXPECT_EQ(m.cpu.step(), Exception::Overflow);  // and again, as nothing changed
  EXPECT_EQ(m.cpu.instructions(), 4u);
}

TEST(MipsCpu, SubOverflowsOnMostNegativeMinusOneButSubuWraps) {
  Machine m({lui(t0, 0x8000), addiu(t1, zero, 1), r_type(0x23, t0, t1, t2), r_type(0x22, t0, t1, t3)});
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t2), 0x7fffffffu);
  EXPECT_EQ(m.cpu.step(), Exception::Overflow);
  // ADDI: -2^31 + (-1) overflows; -2^31 + 1 does not.
  Machine n({lui(t0, 0x8000), i_type(0x08, t0, t1, -1)});
  n.steps(1);
  EXPECT_EQ(n.cpu.step(), Exception::Overflow);
  Machine p({lui(t0, 0x8000), i_type(0x08, t0, t1, 1)});
  p.steps(2);
  EXPECT_EQ(p.cpu.gpr(t1), 0x80000001u);
}

TEST(MipsCpu, RegisterZeroStaysZero) {
  Machine m({addiu(zero, zero, 5), addu(t0, zero, zero)});
  m.steps(2);
  EXPECT_EQ(m.cpu.gpr(zero), 0u);
  EXPECT_EQ(m.cpu.gpr(t0), 0u);
}

TEST(MipsCpu, TakenBranchRunsItsDelaySlotThenTheTarget) {
  // 0x1000 beq $0,$0,+2 -> target 0x1004 + 8 = 0x100c; 0x1004 delay slot; 0x1008 skipped; 0x100c target.
  Machine m({i_type(0x04, zero, zero, 2), addiu(t0, zero, 1), addiu(t1, zero, 1), addiu(t2, zero, 1)});
  m.steps(1);
  EXPECT_TRUE(m.cpu.in_delay_slot());
  EXPECT_EQ(m.cpu.branch_pc(), Machine::kCode);
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 4);
  EXPECT_EQ(m.cpu.next_pc(), Machine::kCode + 12);
  m.steps(2);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(m.cpu.gpr(t1), 0u);
  EXPECT_EQ(m.cpu.gpr(t2), 1u);
  EXPECT_EQ(m.cpu.instructions(), 3u);
}

TEST(MipsCpu, UntakenBranchStillRunsItsDelaySlot) {
  Machine m({i_type(0x05, zero, zero, 2), addiu(t0, zero, 1), addiu(t1, zero, 1)});  // bne $0,$0: never
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(m.cpu.gpr(t1), 1u);
}

TEST(MipsCpu, UntakenBranchLikelyAnnulsItsDelaySlot) {
  // beql $0,$t0 (0 != 7: not taken): the delay slot at 0x100c is skipped, execution goes on at 0x1010.
  Machine m({addiu(t0, zero, 7), kNop, i_type(0x14, zero, t0, 5), addiu(t1, zero, 1), addiu(t2, zero, 1)});
  m.steps(3);
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 16);
  EXPECT_FALSE(m.cpu.in_delay_slot());
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t1), 0u);
  EXPECT_EQ(m.cpu.gpr(t2), 1u);
}

TEST(MipsCpu, TakenBranchLikelyRunsItsDelaySlot) {
  Machine m({i_type(0x14, zero, zero, 2), addiu(t0, zero, 1), addiu(t1, zero, 1), addiu(t2, zero, 1)});
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(m.cpu.gpr(t1), 0u);
  EXPECT_EQ(m.cpu.gpr(t2), 1u);
}

TEST(MipsCpu, JalLinksPastItsDelaySlotAndJrReturns) {
  // 0x1000 jal 0x1010; 0x1004 delay; 0x1008 addiu t1 (after return); 0x100c break; 0x1010 jr $ra; 0x1014 nop
  Machine m({j_type(0x03, 0x1010), addiu(t0, zero, 1), addiu(t1, zero, 2), 0x0000000D, r_type(0x08, ra, 0, 0),
             kNop});
  m.steps(2);
  EXPECT_EQ(m.cpu.gpr(ra), 0x1008u);
  EXPECT_EQ(m.cpu.pc(), 0x1010u);
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t1), 2u);
  EXPECT_EQ(m.cpu.step(), Exception::Breakpoint);
}

TEST(MipsCpu, JalrWritesRdAndJumpKeepsTheTopAddressBits) {
  // jalr $t2, $t0 at 0x1004 with $t0 = 0x1010: $t2 = 0x1004 + 8 = 0x100c.
  Machine m({addiu(t0, zero, 0x1010), r_type(0x09, t0, 0, t2), kNop, kNop, j_type(0x02, 0x1000)});
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t2), 0x100cu);
  EXPECT_EQ(m.cpu.pc(), 0x1010u);
  m.steps(1);  // j 0x1000 (its target's top 4 bits come from the delay slot's)
  EXPECT_EQ(m.cpu.next_pc(), 0x1000u);
}

TEST(MipsCpu, BranchAndLinkWritesRaEvenWhenNotTaken) {
  // bltzal $t0 with $t0 = 1: not taken; $ra = 0x1004 + 8 = 0x100c anyway.
  Machine m({addiu(t0, zero, 1), regimm(0x10, t0, 4), kNop});
  m.steps(2);
  EXPECT_EQ(m.cpu.gpr(ra), 0x100cu);
  EXPECT_EQ(m.cpu.next_pc(), 0x100cu);
}

TEST(MipsCpu, SignedAndUnsignedCompares) {
  // $t0 = -1: slt(-1 < 1) = 1, sltu(0xffffffff < 1) = 0; sltiu $t0 < sext(0xffff) = 0xffffffff: 0;
  // sltiu 5 < 0xffffffff: 1; slti -1 < -1: 0.
  Machine m({addiu(t0, zero, -1), addiu(t1, zero, 1), r_type(0x2A, t0, t1, t2), r_type(0x2B, t0, t1, t3),
             i_type(0x0B, t0, s0, -1), addiu(a0, zero, 5), i_type(0x0B, a0, a1, -1),
             i_type(0x0A, t0, v0, -1)});
  m.steps(8);
  EXPECT_EQ(m.cpu.gpr(t2), 1u);
  EXPECT_EQ(m.cpu.gpr(t3), 0u);
  EXPECT_EQ(m.cpu.gpr(s0), 0u);
  EXPECT_EQ(m.cpu.gpr(a1), 1u);
  EXPECT_EQ(m.cpu.gpr(v0), 0u);
}

TEST(MipsCpu, LogicalImmediatesZeroExtend) {
  Machine m(
      {ori(t0, zero, 0xffff), i_type(0x0C, t0, t1, 0x8001), i_type(0x0E, t0, t2, 0xff00), lui(t3, 0xabcd)});
  m.steps(4);
  EXPECT_EQ(m.cpu.gpr(t0), 0x0000ffffu);
  EXPECT_EQ(m.cpu.gpr(t1), 0x00008001u);
  EXPECT_EQ(m.cpu.gpr(t2), 0x000000ffu);
  EXPECT_EQ(m.cpu.gpr(t3), 0xabcd0000u);
}

TEST(MipsCpu, Shifts) {
  // sra 0x80000010 by 4 = 0xf8000001; srl = 0x08000001; sll by 31 = 0; srlv by 33 shifts by 1.
  Machine m({lui(t0, 0x8000), ori(t0, t0, 0x10), r_type(0x03, 0, t0, t1, 4), r_type(0x02, 0, t0, t2, 4),
             r_type(0x00, 0, t0, t3, 31), addiu(a0, zero, 33), r_type(0x06, a0, t0, a1),
             r_type(0x07, a0, t0, v0)});
  m.steps(8);
  EXPECT_EQ(m.cpu.gpr(t1), 0xf8000001u);
  EXPECT_EQ(m.cpu.gpr(t2), 0x08000001u);
  EXPECT_EQ(m.cpu.gpr(t3), 0u);
  EXPECT_EQ(m.cpu.gpr(a1), 0x40000008u);
  EXPECT_EQ(m.cpu.gpr(v0), 0xc0000008u);
}

TEST(MipsCpu, MultiplyAndDivide) {
  // mult -2 * 3 = -6: HI 0xffffffff, LO 0xfffffffa. multu 0xffffffff^2 = 0xfffffffe_00000001.
  // div -7 / 2 truncates: LO -3, HI -1. divu 0xffffffff / 2: LO 0x7fffffff, HI 1.
  Machine m({addiu(t0, zero, -2), addiu(t1, zero, 3), mult(t0, t1), mfhi(a0), mflo(a1), addiu(t2, zero, -1),
             r_type(0x19, t2, t2, 0), mfhi(v0), mflo(v1), addiu(t0, zero, -7), addiu(t1, zero, 2),
             div(t0, t1), mfhi(s0), mflo(t3), r_type(0x1B, t2, t1, 0)});
  m.steps(15);
  EXPECT_EQ(m.cpu.gpr(a0), 0xffffffffu);
  EXPECT_EQ(m.cpu.gpr(a1), 0xfffffffau);
  EXPECT_EQ(m.cpu.gpr(v0), 0xfffffffeu);
  EXPECT_EQ(m.cpu.gpr(v1), 0x00000001u);
  EXPECT_EQ(m.cpu.gpr(s0), 0xffffffffu);
  EXPECT_EQ(m.cpu.gpr(t3), 0xfffffffdu);
  EXPECT_EQ(m.cpu.lo(), 0x7fffffffu);
  EXPECT_EQ(m.cpu.hi(), 1u);
}

TEST(MipsCpu, DivideByZeroRaisesNothingAndGivesQemusValues) {
  // UNPREDICTABLE in the architecture; we follow QEMU (LO = dividend, HI = 0): see execute.cpp.
  Machine m({addiu(t0, zero, 42), div(t0, zero), r_type(0x1B, t0, zero, 0), lui(t1, 0x8000),
             addiu(t2, zero, -1), div(t1, t2)});
  m.steps(2);
  EXPECT_EQ(m.cpu.lo(), 42u);
  EXPECT_EQ(m.cpu.hi(), 0u);
  m.steps(1);
  EXPECT_EQ(m.cpu.lo(), 42u);
  EXPECT_EQ(m.cpu.hi(), 0u);
  m.steps(3);  // -2^31 / -1 wraps to -2^31, remainder 0
  EXPECT_EQ(m.cpu.lo(), 0x80000000u);
  EXPECT_EQ(m.cpu.hi(), 0u);
}

TEST(MipsCpu, MoveToHiLo) {
  Machine m({addiu(t0, zero, 9), r_type(0x11, t0, 0, 0), r_type(0x13, t0, 0, 0), mfhi(t1), mflo(t2)});
  m.steps(5);
  EXPECT_EQ(m.cpu.gpr(t1), 9u);
  EXPECT_EQ(m.cpu.gpr(t2), 9u);
}

}  // namespace
}  // namespace mppnet::cpu::mips

namespace mppnet::cpu::mips {
namespace {

using namespace testing;

TEST(MipsCpu, CodeMayRunFromSeveralRegionsAndBeRewritten) {
  // j to the data region (mapped at kData) and back: each fetch reads the region it is in. A store over
  // an instruction not yet run takes effect (there is no instruction cache to flush).
  Machine m({j_type(0x02, Machine::kData), kNop, addiu(t1, zero, 2)});
  ASSERT_EQ(m.memory.store32(Machine::kData, addiu(t0, zero, 1)), Access::Ok);
  ASSERT_EQ(m.memory.store32(Machine::kData + 4, j_type(0x02, Machine::kCode + 8)), Access::Ok);
  ASSERT_EQ(m.memory.store32(Machine::kData + 8, kNop), Access::Ok);
  m.steps(6);  // j, its delay slot, addiu t0, j back, its delay slot, addiu t1
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(m.cpu.gpr(t1), 2u);
  ASSERT_EQ(m.memory.store32(Machine::kCode + 12, addiu(t2, zero, 3)), Access::Ok);
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t2), 3u);
}

TEST(MipsCpu, AnInstructionRewrittenAfterItRanRunsInItsNewForm) {
  // The kept decoding of 0x1000 must not outlive the word it was made from.
  Machine m({addiu(t0, t0, 1), j_type(0x02, Machine::kCode), kNop});
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  ASSERT_EQ(m.memory.store32(Machine::kCode, addiu(t0, t0, 10)), Access::Ok);
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t0), 11u);
}

TEST(MipsCpu, TrapsCompareAsTheirNamesSay) {
  // $t0 = -1, $t1 = 1. Each row: the instruction and whether it traps.
  struct Row {
    std::uint32_t word;
    bool traps;
    const char* what;
  };
  const Row rows[] = {
      {r_type(0x34, t0, t0, 0), true, "teq -1, -1"},
      {r_type(0x34, t0, t1, 0), false, "teq -1, 1"},
      {r_type(0x36, t0, t1, 0), true, "tne -1, 1"},
      {r_type(0x30, t0, t1, 0), false, "tge -1, 1 (signed)"},
      {r_type(0x31, t0, t1, 0), true, "tgeu 0xffffffff, 1"},
      {r_type(0x32, t0, t1, 0), true, "tlt -1, 1"},
      {r_type(0x33, t0, t1, 0), false, "tltu 0xffffffff, 1"},
      {regimm(0x08, t0, 0), false, "tgei -1, 0"},
      {regimm(0x09, t0, -2), true, "tgeiu 0xffffffff, 0xfffffffe"},
      {regimm(0x0A, t0, 0), true, "tlti -1, 0"},
      {regimm(0x0B, t1, -1), true, "tltiu 1, 0xffffffff"},
      {regimm(0x0C, t0, -1), true, "teqi -1, -1"},
      {regimm(0x0E, t0, -1), false, "tnei -1, -1"},
  };
  for (const Row& row : rows) {
    Machine m({addiu(t0, zero, -1), addiu(t1, zero, 1), row.word});
    m.steps(2);
    EXPECT_EQ(m.cpu.step(), row.traps ? Exception::Trap : Exception::None) << row.what;
    if (row.traps) {
      EXPECT_EQ(m.cpu.fault().pc, Machine::kCode + 8) << row.what;
    }
  }
}

TEST(MipsCpu, SyscallStopsAtItselfAndSkippingGoesOnAfterIt) {
  Machine m({syscall(), addiu(t0, zero, 1), 0x0000000F /* sync */});
  EXPECT_EQ(m.cpu.step(), Exception::Syscall);
  EXPECT_EQ(m.cpu.pc(), Machine::kCode);
  EXPECT_EQ(m.cpu.instructions(), 0u);
  m.cpu.skip_faulting_instruction();
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 4);
  EXPECT_EQ(m.cpu.instructions(), 1u);
  m.steps(2);  // addiu, sync (a no-op)
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
}

TEST(MipsCpu, SyscallInATakenBranchsDelaySlotGoesOnAtTheTarget) {
  // beq $0,$0,+2 at 0x1000 (target 0x100c), syscall in its delay slot.
  Machine m({i_type(0x04, zero, zero, 2), syscall(), addiu(t0, zero, 1), addiu(t1, zero, 1)});
  m.steps(1);
  EXPECT_EQ(m.cpu.step(), Exception::Syscall);
  EXPECT_TRUE(m.cpu.fault().in_delay_slot);
  m.cpu.skip_faulting_instruction();
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 12);
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t0), 0u);
  EXPECT_EQ(m.cpu.gpr(t1), 1u);
}

TEST(MipsCpu, ReservedInstructionIsReportedWithItsWord) {
  Machine m({0x71095002});  // MIPS32 mul: not MIPS II
  EXPECT_EQ(m.cpu.step(), Exception::ReservedInstruction);
  EXPECT_EQ(m.cpu.fault().instruction, 0x71095002u);
  EXPECT_EQ(describe(m.cpu.fault()), "reserved instruction at pc 0x00001000 (instruction 0x71095002)");
}

}  // namespace
}  // namespace mppnet::cpu::mips
