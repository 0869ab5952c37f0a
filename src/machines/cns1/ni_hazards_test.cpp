// machines/cns1/ni_hazards_test.cpp: strict mode flags the spacing violations of note 002 §3.16 (B26, note
// 002 line 886); the default, bypassed NI flags nothing (A26).
#include <gtest/gtest.h>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_hazards_test {
namespace {

using namespace testing;

std::vector<HazardViolation> run_strict(std::initializer_list<std::uint32_t> code, int steps,
                                        bool strict = true) {
  NiConfig config;
  config.strict_hazards = strict;
  Cluster c(2, config);
  c.load(0, kCode, code);
  c.aim(0, 1, kHandler);
  c.steps(0, steps);
  return c.ni(0).hazard_violations();
}

TEST(T1Hazards, B26BranchRightAfterSendIsFlagged) {
  const auto v = run_strict({send(kSend, 0, s0, s1), bc2f(1), kNop, kNop}, 3);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, Hazard::Bc2TooSoonAfterSend);
  EXPECT_EQ(v[0].pc, kCode + 4);
  // One instruction between (§3.5.3) is enough.
  EXPECT_TRUE(run_strict({send(kSend, 0, s0, s1), kNop, bc2f(1), kNop, kNop}, 4).empty());
}

TEST(T1Hazards, B26UsingTheCfc2TargetInTheNextInstructionIsFlagged) {
  const auto v = run_strict({cfc2(at, kNistat), sll(at, at, 14), kNop}, 2);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, Hazard::CfcResultTooSoon);
  EXPECT_EQ(v[0].pc, kCode + 4);
  // Fig. 18's poll keeps the slot: CFC2, NOP, SLL 14, BLTZ.
  EXPECT_TRUE(run_strict({cfc2(at, kNistat), kNop, sll(at, at, 14), bltz(at, 1), kNop, kNop}, 5).empty());
}

TEST(T1Hazards, B26BranchWithinTwoInstructionsOfACtc2ToNistatIsFlagged) {
  const auto v = run_strict({ctc2(zero, kNistat), kNop, bc2f(1), kNop, kNop}, 4);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, Hazard::Bc2TooSoonAfterCtc2);
  EXPECT_EQ(v[0].pc, kCode + 8);
  // The 3rd instruction after the CTC2 sees its effect.
  EXPECT_TRUE(run_strict({ctc2(zero, kNistat), kNop, kNop, bc2f(1), kNop, kNop}, 5).empty());
}

TEST(T1Hazards, UndefinedNiRegisterIsFlagged) {
  const auto v = run_strict({cfc2(at, 5), kNop}, 1);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, Hazard::UndefinedRegister);
}

TEST(T1Hazards, TheBypassedDefaultFlagsNothing) {
  EXPECT_TRUE(run_strict({send(kSend, 0, s0, s1), bc2f(1), kNop, kNop}, 3, false).empty());
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_hazards_test
