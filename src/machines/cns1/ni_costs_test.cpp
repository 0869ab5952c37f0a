// machines/cns1/ni_costs_test.cpp: instruction and cycle counts of the document's sequences (note 002
// §4, §6.1 C1-C8), with the cycle costs of NiTiming (§6.1's recommended defaults: 1 cycle per
// instruction, SEND issue 1, dispatch 3, HRET 1 + 1 refetch bubble).
#include <gtest/gtest.h>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_costs_test {
namespace {

using namespace testing;

// C1-C3 (note 002 lines 840-842; Fig. 8, seed L295): ENTER_CRIT 1 instruction, EXIT_CRIT 2, NI_POLL 3 (with
// nothing pending): 1, 2 and 3 cycles. EXIT_CRIT uses $1, not $9 (A5: with EE = 0 the HP bank's $9 is the
// visible one).
TEST(T1Costs, C1C2C3CriticalSectionAndPollCostOneTwoAndThreeCycles) {
  Cluster c(1);
  c.load(0, kCode,
         {ctc2(zero, kEnable), ori(at, zero, 1), ctc2(at, kEnable), ori(at, zero, 1), ctc2(at, kEnable),
          ctc2(zero, kEnable)});
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).cycles(), 1u);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::High);
  c.steps(0, 2);
  EXPECT_EQ(c.cpu(0).cycles(), 3u);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Normal);
  c.steps(0, 3);
  EXPECT_EQ(c.cpu(0).cycles(), 6u);
}

// C4 (note 002 line 843; Fig. 18): CFC2 $1,nistat; NOP; SLL $1,$1,14; BLTZ: 4 instructions, taken iff lpa = 1
// (bit 17).
TEST(T1Costs, C4AvailabilityPollBranchesExactlyWhenLpaIsSet) {
  for (bool full : {false, true}) {
    Cluster c(2);
    c.load(0, kCode, {cfc2(at, kNistat), kNop, sll(at, at, 14), bltz(at, 2), kNop, addiu(10, zero, 1), kNop});
    c.load(0, kCode + 0x100, {send(kSend, 0, s0, s1)});
    c.aim(0, 1, kHandler);
    if (full) {  // the one LP output slot taken
      c.cpu(0).jump_to(kCode + 0x100);
      c.steps(0, 1);
      c.cpu(0).jump_to(kCode);
    }
    const auto before = c.cpu(0).cycles();
    c.steps(0, 4);
    EXPECT_EQ(c.cpu(0).cycles() - before, 4u);
    c.steps(0, 2);
    EXPECT_EQ(c.cpu(0).gpr(10), full ? 1u : 0u) << "lpa = " << !full;
  }
}

// C5 (note 002 line 844; seed L329, L428): SEND, hazard slot, BC2F, delay slot: 4 cycles on success, 5 with
// one setup instruction, the document's "about 5 cycles".
TEST(T1Costs, C5ASendAndItsCheckTakeFourCycles) {
  Cluster c(2);
  c.load(0, kCode, {addiu(a0, zero, 9), send(kSend, 1, s0, s1), kNop, bc2f(-3), kNop});
  c.aim(0, 1, kHandler);
  c.steps(0, 1);
  c.steps(0, 4);
  EXPECT_EQ(c.cpu(0).cycles(), 5u);
  EXPECT_EQ(c.cpu(0).pc(), kCode + 20);  // not branched back: it succeeded
}

// Cycles from normal code's boundary through a handler of body_instructions and its HRET, back at the
// interrupted instruction.
std::uint64_t dispatch_and_return_cycles(int body_instructions, unsigned vector_length) {
  Cluster c(1);
  for (int i = 0; i < body_instructions; ++i) c.load(0, kHandler + 4 * static_cast<std::uint32_t>(i), {kNop});
  c.load(0, kHandler + 4 * static_cast<std::uint32_t>(body_instructions), {kHret});
  c.set_nistat(0, nistat::kLpmm);
  T1Message m;
  m.handler = kHandler;
  m.scalar_count = 5;
  m.vector_length = static_cast<std::uint8_t>(vector_length);
  EXPECT_TRUE(c.ni(0).offer(m));
  c.steps(0, body_instructions + 1);
  EXPECT_EQ(c.cpu(0).pc(), kCode);
  return c.cpu(0).cycles();
}

// C6 (note 002 line 845; seed L371, L428): dispatch 3 cycles; with an empty handler, receive + dispatch +
// HRET = 3 + 2 = 5.
TEST(T1Costs, C6DispatchAndReturnOfAnEmptyHandlerTakeFiveCycles) {
  EXPECT_EQ(dispatch_and_return_cycles(0, 0), 5u);
}

// The dispatch hides a load's latency: a handler whose first instruction reads the register a load just
// before the event wrote does not wait (1 load + 3 dispatch + 1 ADDU + 2 HRET = 7 cycles).
TEST(T1Costs, NoLoadUseStallAcrossADispatch) {
  Cluster c(1);
  c.load(0, kCode, {lw(a0, 0, s0), kNop});
  c.load(0, kHandler, {addu(10, a0, a0), kHret});
  c.cpu(0).set_gpr(s0, kData);
  c.set_nistat(0, nistat::kLpmm);
  c.steps(0, 1);
  T1Message m;
  m.handler = kHandler;
  ASSERT_TRUE(c.ni(0).offer(m));
  c.steps(0, 2);
  EXPECT_EQ(c.cpu(0).pc(), kCode + 4);
  EXPECT_EQ(c.cpu(0).cycles(), 7u);
}

// C7 (note 002 line 846; seed L393): a short handler of 4 instructions costs 3 + 4 + 2 = 9 cycles in all,
// "about 10".
TEST(T1Costs, C7AShortHandlerCostsAboutTenCycles) {
  EXPECT_EQ(dispatch_and_return_cycles(4, 0), 9u);
}

// C8 (note 002 line 847; seed L154): one-way overhead of a 5-word message, sender (SEND5, slot, BC2F, delay
// slot: 4) plus receiver (dispatch and HRET: 5) = 9 < 10 cycles, the same for 5 + 32 words.
TEST(T1Costs, C8OneWayOverheadIsUnderTenCyclesWhateverTheSize) {
  for (unsigned vlr : {0u, 32u}) {
    Cluster c(2);
    c.load(0, kCode, {send(vlr != 0 ? kSendV : kSend, 5, s0, s1, 4), kNop, bc2f(-3), kNop});
    c.aim(0, 1, kHandler);
    c.ni(0).set_vector_length(vlr);
    c.steps(0, 4);
    const std::uint64_t sender = c.cpu(0).cycles();
    EXPECT_EQ(sender, 4u);
    const std::uint64_t receiver = dispatch_and_return_cycles(0, vlr);
    EXPECT_EQ(sender + receiver, 9u) << "vlr " << vlr;
  }
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_costs_test
