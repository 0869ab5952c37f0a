// cpu/mips/coprocessor_test.cpp: the COP2 hook the T1's network interface will use, with a stand-in
// coprocessor, and the coprocessor-unusable exceptions without one.
#include "cpu/mips/coprocessor.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "cpu/mips/encode_testing.hpp"

namespace mppnet::cpu::mips::coprocessor_test {
namespace {

using namespace testing;

constexpr std::uint32_t kHret = 0x4a00001c;  // the T1's HRET: a COP2 operation
constexpr std::uint32_t bc2t(std::int32_t offset) {
  return i_type(0x12, 8, 1, offset);
}
constexpr std::uint32_t bc2f(std::int32_t offset) {
  return i_type(0x12, 8, 0, offset);
}

// Records what it is asked; its "HRET" writes $v0, charges 4 cycles and jumps to `resume`.
class FakeCop2 : public Coprocessor2 {
 public:
  Exception execute(Cpu& cpu, const Instruction& in) override {
    seen.push_back(in.word);
    if (in.word != kHret) return Exception::ReservedInstruction;
    cpu.set_gpr(v0, 0x1234);
    cpu.add_cycles(4);
    cpu.jump_to(resume);
    return Exception::None;
  }
  bool condition() const override { return flag; }
  bool wants_boundary_calls() const override { return true; }
  void at_boundary(Cpu& cpu) override { boundaries.push_back(cpu.pc()); }

  std::vector<std::uint32_t> seen;
  std::vector<std::uint32_t> boundaries;
  bool flag = false;
  std::uint32_t resume = 0;
};

TEST(MipsCoprocessor, WithoutACoprocessorCop2AndCop1AreUnusable) {
  Machine m({kHret, 0x44080000});
  EXPECT_EQ(m.cpu.step(), Exception::CoprocessorUnusable);
  EXPECT_EQ(m.cpu.fault().coprocessor, 2);
  m.cpu.jump_to(Machine::kCode + 4);
  EXPECT_EQ(m.cpu.step(), Exception::CoprocessorUnusable);
  EXPECT_EQ(m.cpu.fault().coprocessor, 1);
}

TEST(MipsCoprocessor, Cop2InstructionsGoToTheCoprocessorWhichMayRedirect) {
  Machine m({kNop, kHret, addiu(t0, zero, 1), addiu(t1, zero, 1)});
  FakeCop2 cop;
  cop.resume = Machine::kCode + 12;
  m.cpu.attach_coprocessor2(&cop);
  m.steps(2);
  ASSERT_EQ(cop.seen.size(), 1u);
  EXPECT_EQ(cop.seen[0], kHret);
  EXPECT_EQ(m.cpu.gpr(v0), 0x1234u);
  EXPECT_EQ(m.cpu.pc(), Machine::kCode + 12);  // no delay slot: the addiu at +8 is skipped
  EXPECT_EQ(m.cpu.cycles(), 2u + 4u);
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t0), 0u);
  EXPECT_EQ(m.cpu.gpr(t1), 1u);
  // The boundary hook saw every instruction's pc before it ran.
  EXPECT_EQ(cop.boundaries,
            (std::vector<std::uint32_t>{Machine::kCode, Machine::kCode + 4, Machine::kCode + 12}));
}

TEST(MipsCoprocessor, UnknownCop2EncodingIsTheCoprocessorsReservedInstruction) {
  Machine m({0x4a000001});
  FakeCop2 cop;
  m.cpu.attach_coprocessor2(&cop);
  EXPECT_EQ(m.cpu.step(), Exception::ReservedInstruction);
}

TEST(MipsCoprocessor, Bc2BranchesOnTheCoprocessorCondition) {
  // bc2t +2 with the condition true: taken, delay slot runs, +8 skipped. Then bc2f with it true: not taken.
  FakeCop2 cop;
  cop.flag = true;
  Machine m(
      {bc2t(2), addiu(t0, zero, 1), addiu(t1, zero, 1), bc2f(2), addiu(t2, zero, 1), addiu(t3, zero, 1)});
  m.cpu.attach_coprocessor2(&cop);
  m.steps(5);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(m.cpu.gpr(t1), 0u);
  EXPECT_EQ(m.cpu.gpr(t2), 1u);
  EXPECT_EQ(m.cpu.gpr(t3), 1u);
}

TEST(MipsCoprocessor, AnEventCanSeeADelaySlotAndResumeAtTheBranch) {
  // Between the beq and its delay slot the processor reports in_delay_slot and the branch's address,
  // which an event saves as its return point (T1 note, A45: the branch is re-executed).
  Machine m({i_type(0x04, zero, zero, 2), kNop, kNop, kNop});
  m.steps(1);
  EXPECT_TRUE(m.cpu.in_delay_slot());
  EXPECT_EQ(m.cpu.branch_pc(), Machine::kCode);
}

}  // namespace
}  // namespace mppnet::cpu::mips::coprocessor_test
