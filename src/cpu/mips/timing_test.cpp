// cpu/mips/timing_test.cpp: cycle counts: one per instruction plus the interlocks of cpu/mips/timing.hpp,
// each expected count derived by hand from those rules.
#include <gtest/gtest.h>

#include "cpu/mips/cpu.hpp"
#include "cpu/mips/encode_testing.hpp"

namespace mppnet::cpu::mips::timing_test {
namespace {

using namespace testing;

constexpr std::uint32_t kSetBase = lui(s0, 1);  // $s0 = Machine::kData

TEST(MipsTiming, IndependentInstructionsTakeOneCycleEach) {
  Machine m({addiu(t0, zero, 1), addiu(t1, t0, 1), addu(t2, t1, t0), kNop, kSetBase});
  m.steps(5);
  EXPECT_EQ(m.cpu.instructions(), 5u);
  EXPECT_EQ(m.cpu.cycles(), 5u);
}

TEST(MipsTiming, UsingALoadedRegisterInTheNextInstructionStallsOneCycle) {
  Machine m({kSetBase, lw(t0, 0, s0), addu(t1, t0, t0)});
  m.steps(3);
  EXPECT_EQ(m.cpu.cycles(), 4u);  // 3 instructions + 1 stall
}

TEST(MipsTiming, OneInstructionBetweenLoadAndUseHidesTheStall) {
  Machine m({kSetBase, lw(t0, 0, s0), kNop, addu(t1, t0, t0)});
  m.steps(4);
  EXPECT_EQ(m.cpu.cycles(), 4u);
}

TEST(MipsTiming, StoreOfALoadedRegisterAndLoadAsBaseBothStall) {
  // lw t0; sw t0 stalls on the data. lw t1 loads an address (kData, put at kData + 8), and the lw that
  // uses t1 as its base stalls too.
  Machine m({kSetBase, lw(t0, 0, s0), sw(t0, 4, s0), lw(t1, 8, s0), lw(t2, 0, t1)});
  ASSERT_EQ(m.memory.store32(Machine::kData + 8, Machine::kData), Access::Ok);
  m.steps(3);
  EXPECT_EQ(m.cpu.cycles(), 4u);
  m.steps(2);
  EXPECT_EQ(m.cpu.cycles(), 7u);  // 5 instructions + 2 stalls
}

TEST(MipsTiming, LoadIntoRegisterZeroNeverStalls) {
  Machine m({kSetBase, lw(zero, 0, s0), addu(t1, zero, zero)});
  m.steps(3);
  EXPECT_EQ(m.cpu.cycles(), 3u);
}

TEST(MipsTiming, LwlLwrPairDoesNotInterlockOnTheMerge) {
  // lwl t0,1(s0); lwr t0,4(s0): no stall (documented exemption); then a use of t0 stalls.
  Machine m({kSetBase, i_type(0x22, s0, t0, 1), i_type(0x26, s0, t0, 4), addu(t1, t0, t0)});
  m.steps(3);
  EXPECT_EQ(m.cpu.cycles(), 3u);
  m.steps(1);
  EXPECT_EQ(m.cpu.cycles(), 5u);
}

TEST(MipsTiming, MfloRightAfterMultWaitsForTheMultiplyLatency) {
  // MULT issues at cycle 1 (after the addiu at cycle 0); its result is there 12 cycles later, at cycle
  // 13. MFLO would issue at cycle 2: it waits 11. Total: 3 instructions, 3 + 11 = 14 cycles.
  Machine m({addiu(t0, zero, 3), mult(t0, t0), mflo(t1)});
  m.steps(3);
  EXPECT_EQ(m.cpu.gpr(t1), 9u);
  EXPECT_EQ(m.cpu.cycles(), 14u);
}

TEST(MipsTiming, ElevenInstructionsAfterAMultHideItsLatency) {
  // MULT at cycle 0, eleven nops at cycles 1..11, MFLO at cycle 12 = 0 + 12: no wait.
  Machine m({mult(zero, zero), kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, mflo(t1)});
  m.steps(13);
  EXPECT_EQ(m.cpu.cycles(), 13u);
  // One nop fewer: MFLO at cycle 11 waits 1.
  Machine n({mult(zero, zero), kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, kNop, mflo(t1)});
  n.steps(12);
  EXPECT_EQ(n.cpu.cycles(), 13u);
}

TEST(MipsTiming, DivideLatencyAndABusyUnit) {
  // DIV at cycle 0, result at 35; MFHI at cycle 1 waits 34: 2 instructions, 36 cycles.
  Machine m({div(zero, zero), mfhi(t1)});
  m.steps(2);
  EXPECT_EQ(m.cpu.cycles(), 36u);
  // MULT at 0 (ready 12), DIV at 1 waits for the unit until 12, issues at 12 (ready 47), MFLO at 13 waits
  // until 47: 3 instructions end at cycle 47, so 48 cycles.
  Machine n({mult(zero, zero), div(zero, zero), mflo(t1)});
  n.steps(3);
  EXPECT_EQ(n.cpu.cycles(), 48u);
}

TEST(MipsTiming, OtherTimingsCanBeConfigured) {
  Memory memory;
  memory.map(0x1000, 0x1000, "code");
  const std::uint32_t code[] = {kSetBase, lw(t0, 0, s0), addu(t1, t0, t0), mult(t0, t0), mflo(t2)};
  std::uint32_t address = 0x1000;
  for (std::uint32_t w : code) {
    memory.store32(address, w);
    address += 4;
  }
  memory.map(0x10000, 0x1000, "data");
  Cpu cpu(memory, Timing{.load_use_stall = 2, .multiply_cycles = 10, .divide_cycles = 69});  // the R4000's
  cpu.reset(0x1000);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(cpu.step(), Exception::None);
  // lui 0, lw 1, addu waits 2 -> 4, mult 5 (ready 15), mflo would be 6, waits 9 -> 15; 16 cycles.
  EXPECT_EQ(cpu.cycles(), 16u);
}

}  // namespace
}  // namespace mppnet::cpu::mips::timing_test
