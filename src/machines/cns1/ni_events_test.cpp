// machines/cns1/ni_events_test.cpp: events, their priorities, dispatch and nesting, HRET, banking and
// nicond's preservation (note 002 §3.2, §3.8, §5.2-§5.4, §6.2 B8-B17, B19). Expected values come from
// the note; messages are offered to the NI as the network would.
#include <gtest/gtest.h>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_events_test {
namespace {

using namespace testing;
using cpu::mips::Exception;

enum : unsigned { t3 = 11, t4 = 12 };

constexpr std::uint32_t and_(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x24, rs, rt, rd);
}

T1Message message(std::uint32_t handler, Priority priority, std::uint32_t word0 = 0) {
  T1Message m;
  m.handler = handler;
  m.priority = priority;
  m.scalar_count = 1;
  m.scalars[0] = word0;
  return m;
}

// Loads, at address, a handler that records `marker` at $16 (a shared register) and returns.
void load_marker_handler(Cluster& c, std::uint32_t address, std::int32_t marker) {
  c.load(0, address, {addiu(10, zero, marker), sw(10, 0, s0), addiu(s0, s0, 4), kHret});
}

// B8 (note 002 line 868): an HP message preempts an LP handler: EE := 0, HPEPC = the LP handler's PC, HP bank
// visible; HRET goes back to the LP handler with its bank (EE=1, LPEE=0); the next HRET goes back to normal
// code.
TEST(T1Events, B8HighPriorityPreemptsALowPriorityHandlerAndReturnsToIt) {
  Cluster c(1);
  c.load(0, kHandler, {kNop, kHret});
  c.load(0, kHandler2, {kNop, kHret});
  c.set_nistat(0, nistat::kLpmm | nistat::kHpmm);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low, 1)));
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 4);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler2, Priority::High, 2)));
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler2 + 4);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::High);
  EXPECT_EQ(c.ni(0).nistat() & (nistat::kEe | nistat::kLpee), 0u);
  EXPECT_EQ(c.ni(0).read_register(c.cpu(0), kHpepc), kHandler + 4);
  EXPECT_EQ(c.cpu(0).gpr(a0), 2u);
  c.steps(0, 1);  // HRET from HP
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 4);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Low);
  EXPECT_EQ(c.ni(0).nistat() & (nistat::kEe | nistat::kLpee), nistat::kEe);
  EXPECT_EQ(c.cpu(0).gpr(a0), 1u);
  c.steps(0, 1);  // HRET from LP
  EXPECT_EQ(c.cpu(0).pc(), kCode);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Normal);
}

// B9 (note 002 line 869): in an HP handler entered from normal code, another HP and an LP arrive: neither
// preempts. After HRET the HP one is taken first (A21), the LP one after that handler's HRET.
TEST(T1Events, B9NothingPreemptsAHighPriorityHandlerAndHighGoesFirstAfterIt) {
  Cluster c(1);
  c.load(0, kHandler, {kNop, kNop, kHret});
  c.load(0, kHandler2, {kNop, kHret});
  c.load(0, kHandler3, {kNop, kHret});
  c.set_nistat(0, nistat::kLpmm | nistat::kHpmm);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::High)));
  c.steps(0, 1);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler2, Priority::High)));
  ASSERT_TRUE(c.ni(0).offer(message(kHandler3, Priority::Low)));
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 8);  // not preempted
  c.steps(0, 1);                           // HRET
  EXPECT_EQ(c.cpu(0).pc(), kCode);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler2 + 4);  // HP first
  c.steps(0, 1);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler3 + 4);  // then LP
  const auto& taken = c.ni(0).events_taken();
  EXPECT_EQ(taken[static_cast<int>(Event::HighMessage)], 2u);
  EXPECT_EQ(taken[static_cast<int>(Event::LowMessage)], 1u);
}

// B10 (note 002 line 870): LP message, timelet and outlet all pending and unmasked in normal code: taken in
// that order.
TEST(T1Events, B10LowPriorityEventsGoMessageThenTimeletThenOutlet) {
  Cluster c(1);
  load_marker_handler(c, kHandler, 1);
  load_marker_handler(c, kHandler2, 2);
  load_marker_handler(c, kHandler3, 3);
  c.cpu(0).set_gpr(s0, kData);
  c.ni(0).write_register(c.cpu(0), kTimeh, kHandler2);
  c.ni(0).write_register(c.cpu(0), kOuth, kHandler3);
  c.ni(0).write_register(c.cpu(0), kTimec, 1);
  c.steps(0, 2);  // Count passes 1: tp set (A27)
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.set_nistat(0, nistat::kLpmm | nistat::kTm | nistat::kOm);
  const std::uint32_t pending = nistat::kLpmp | nistat::kTp | nistat::kOp;
  EXPECT_EQ(c.ni(0).nistat() & pending, pending);
  c.steps(0, 12);
  EXPECT_EQ(c.word(0, kData), 1u);
  EXPECT_EQ(c.word(0, kData + 4), 2u);
  EXPECT_EQ(c.word(0, kData + 8), 3u);
}

// B11 (note 002 line 871): an outlet handler that neither sends nor clears om is re-entered for ever; normal
// code makes no progress (each round is the dispatch with the handler's NOP, then HRET).
TEST(T1Events, B11AnOutletHandlerThatDoesNothingIsReenteredForever) {
  Cluster c(1);
  c.load(0, kHandler, {kNop, kHret});
  c.ni(0).write_register(c.cpu(0), kOuth, kHandler);
  c.set_nistat(0, nistat::kOm);
  c.steps(0, 30);
  EXPECT_EQ(c.ni(0).events_taken()[static_cast<int>(Event::Outlet)], 15u);
  EXPECT_EQ(c.cpu(0).pc(), kCode);
}

// A6: op is lpa (an outlet handler sends LP): with the LP output slot full there is no outlet event,
// even with HP room; op_requires_hpa makes it lpa and hpa.
TEST(T1Events, OutletWaitsForLowPriorityRoom) {
  for (bool requires_hpa : {false, true}) {
    NiConfig config;
    config.op_requires_hpa = requires_hpa;
    Cluster c(2, config);
    c.load(0, kCode, {send(requires_hpa ? kSendH : kSend, 0, s0, s1), kNop, kNop});
    c.load(0, kHandler2, {kNop, kHret});
    c.aim(0, 1, kHandler);
    c.ni(0).write_register(c.cpu(0), kOuth, kHandler2);
    c.steps(0, 1);  // fills the LP (or HP) output slot; nothing delivers it
    c.set_nistat(0, nistat::kOm);
    EXPECT_EQ(c.ni(0).nistat() & nistat::kOp, 0u);
    c.steps(0, 1);
    EXPECT_EQ(c.cpu(0).pc(), kCode + 8);  // no outlet
    c.net.deliver();
    c.steps(0, 1);
    EXPECT_EQ(c.cpu(0).pc(), kHandler2 + 4);  // room again: the outlet fires
  }
}

// A22: with min_instructions_between_events = 2, the interrupted code runs 2 instructions after each
// HRET before the outlet comes again: 3 rounds of (dispatch + NOP, HRET, 2 of normal code) in 12 steps,
// so normal code ran 3 * 2 = 6 instructions.
TEST(T1Events, MinimumInstructionsBetweenEventsLetsInterruptedCodeProgress) {
  NiConfig config;
  config.min_instructions_between_events = 2;
  Cluster c(1, config);
  c.load(0, kHandler, {kNop, kHret});
  c.ni(0).write_register(c.cpu(0), kOuth, kHandler);
  c.set_nistat(0, nistat::kOm);
  c.steps(0, 12);
  EXPECT_EQ(c.ni(0).events_taken()[static_cast<int>(Event::Outlet)], 3u);
  EXPECT_EQ(c.cpu(0).pc(), kCode + 6 * 4);
}

// A15: with poison_unfilled, a 2-word message leaves $6, $7, $29 and $vr1[3..] at kPoison, and an outlet
// every data register.
TEST(T1Events, PoisonMarksWhatAMessageDidNotFill) {
  NiConfig config;
  config.poison_unfilled = true;
  Cluster c(1, config);
  c.load(0, kHandler, {kNop, kHret});
  c.load(0, kHandler2, {kNop, kHret});
  c.ni(0).write_register(c.cpu(0), kOuth, kHandler2);
  c.set_nistat(0, nistat::kLpmm);
  T1Message m = message(kHandler, Priority::Low, 1);
  m.scalar_count = 2;
  m.scalars[1] = 2;
  m.vector_length = 3;
  ASSERT_TRUE(c.ni(0).offer(m));
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).gpr(a1), 2u);
  EXPECT_EQ(c.cpu(0).gpr(a2), kPoison);
  EXPECT_EQ(c.cpu(0).gpr(sp), kPoison);
  EXPECT_EQ(c.ni(0).vector_element(1, 2), 0u);
  EXPECT_EQ(c.ni(0).vector_element(1, 3), kPoison);
  c.steps(0, 1);  // HRET
  c.set_nistat(0, nistat::kOm);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler2 + 4);
  EXPECT_EQ(c.cpu(0).gpr(a0), kPoison);
}

// B12 (note 002 line 872): timec = Count + 100 with tm = 1: the event comes when Count reaches timec, at
// timeh, with tp cleared on entry. A write of timec clears tp.
TEST(T1Events, B12TimeletFiresWhenCountReachesTimecAndAWriteOfTimecClearsTp) {
  Cluster c(1);
  c.load(0, kHandler, {kNop, kHret});
  c.ni(0).write_register(c.cpu(0), kTimeh, kHandler);
  c.ni(0).write_register(c.cpu(0), kTimec, c.ni(0).read_register(c.cpu(0), kCount) + 100);
  c.set_nistat(0, nistat::kTm);
  c.steps(0, 100);  // 100 NOPs: Count = 100 at the next boundary
  EXPECT_EQ(c.cpu(0).pc(), kCode + 400);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 4);
  EXPECT_EQ(c.ni(0).read_register(c.cpu(0), kLpepc), kCode + 400);
  EXPECT_EQ(c.ni(0).nistat() & nistat::kTp, 0u);
  c.steps(0, 1);  // HRET
  // Masked: Count passes timec again (+10), tp stays set until timec is written.
  c.clear_nistat(0, nistat::kTm);
  c.ni(0).write_register(c.cpu(0), kTimec, c.ni(0).read_register(c.cpu(0), kCount) + 10);
  c.steps(0, 12);
  EXPECT_EQ(c.ni(0).nistat() & nistat::kTp, nistat::kTp);
  c.ni(0).write_register(c.cpu(0), kTimec, 0);
  EXPECT_EQ(c.ni(0).nistat() & nistat::kTp, 0u);
}

// B13/B14 (note 002 lines 873-874): a SEND fails (nicond = 0); before its BC2F an event runs whose handler
// sends successfully. An LP event restores nicond from onicond (BC2F still branches); an HP event does not
// (nicond = 1).
void run_nicond_case(Priority event_priority, bool expect_branch) {
  Cluster c(2);
  c.load(0, kCode,
         {send(kSend, 0, s0, s1), send(kSend, 0, s0, s1), kNop, bc2f(2), kNop, addiu(10, zero, 1), kNop});
  c.load(0, kHandler, {send(kSendH, 0, s0, s1), kNop, kHret});
  c.aim(0, 1, kHandler2);
  c.set_nistat(0, nistat::kLpmm | nistat::kHpmm);
  c.steps(0, 2);  // the 2nd SEND finds the one LP output slot full
  EXPECT_FALSE(c.ni(0).condition());
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, event_priority)));
  c.steps(0, 1);
  EXPECT_TRUE(c.ni(0).condition());  // the handler's HP send succeeded
  c.steps(0, 2);                     // NOP, HRET
  EXPECT_EQ(c.cpu(0).pc(), kCode + 8);
  EXPECT_EQ(c.ni(0).condition(), !expect_branch);
  c.steps(0, 4);  // NOP, BC2F, delay slot, then $10 := 1 unless branched
  EXPECT_EQ(c.cpu(0).gpr(10), expect_branch ? 0u : 1u);
}

TEST(T1Events, B13ALowPriorityEventPreservesNicondAcrossItsHandler) {
  run_nicond_case(Priority::Low, true);
}

TEST(T1Events, B14AHighPriorityHandlerThatSendsClobbersNicond) {
  run_nicond_case(Priority::High, false);
}

// B15 (note 002 line 875): with ame = 0 every message goes to dmh; inh is the message's handler field; pri,
// slen, vlen valid.
TEST(T1Events, B15WithActiveMessagesDisabledEveryMessageGoesToDmh) {
  Cluster c(1);
  c.load(0, kHandler2, {kNop});
  c.ni(0).write_register(c.cpu(0), kDmh, kHandler2);
  c.clear_nistat(0, nistat::kAme);
  c.set_nistat(0, nistat::kHpmm);
  T1Message m = message(0xABC0, Priority::High);
  m.vector_length = 3;
  ASSERT_TRUE(c.ni(0).offer(m));
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler2 + 4);
  EXPECT_EQ(c.ni(0).read_register(c.cpu(0), kInh), 0xABC0u);
  EXPECT_EQ(c.ni(0).nistat() & 0xFFFFu, nistat::kPri | (1u << nistat::kSlenShift) | 3u);
}

// B16 (note 002 line 876): normal code clears LPEE, writes $8 = X (the LP bank's), sets LPEE again: its own
// $8 is intact and the next LP handler reads X (A.10: how software initialises an event set).
TEST(T1Events, B16NormalCodeInitialisesTheLowBanksScratchThroughLpee) {
  Cluster c(1);
  constexpr std::uint32_t kNotLpee = ~nistat::kLpee;
  c.load(0, kCode,
         {cfc2(10, kNistat), lui(11, kNotLpee >> 16), ori(11, 11, kNotLpee & 0xFFFF), and_(10, 10, 11),
          ctc2(10, kNistat), addiu(t0, zero, 0x55), lui(11, nistat::kLpee >> 16), or_(10, 10, 11),
          ctc2(10, kNistat), kNop});
  c.load(0, kHandler, {sw(t0, 0, s0), kHret});
  c.cpu(0).set_gpr(t0, 0x11);
  c.cpu(0).set_gpr(s0, kData);
  c.steps(0, 5);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Low);
  c.steps(0, 4);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Normal);
  EXPECT_EQ(c.cpu(0).gpr(t0), 0x11u);
  c.set_nistat(0, nistat::kLpmm);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.steps(0, 1);
  EXPECT_EQ(c.word(0, kData), 0x55u);
}

// B17 (note 002 line 877): a value written to the LP bank's $8 in one LP handler is there in the next; the HP
// bank's $8 is another register.
TEST(T1Events, B17EventScratchRegistersPersistPerLevel) {
  Cluster c(1);
  c.load(0, kHandler, {addiu(t0, t0, 7), sw(t0, 0, s0), addiu(s0, s0, 4), kHret});
  c.load(0, kHandler2, {sw(t0, 0, s0), addiu(s0, s0, 4), kHret});
  c.cpu(0).set_gpr(s0, kData);
  c.cpu(0).set_gpr(t0, 0x11);
  c.set_nistat(0, nistat::kLpmm | nistat::kHpmm);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.steps(0, 4);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler2, Priority::High)));
  c.steps(0, 3);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.steps(0, 4);
  EXPECT_EQ(c.word(0, kData), 7u);
  EXPECT_EQ(c.word(0, kData + 4), 0u);  // the HP bank's $8
  EXPECT_EQ(c.word(0, kData + 8), 14u);
  EXPECT_EQ(c.cpu(0).gpr(t0), 0x11u);  // normal $8
}

// B19 (note 002 line 879): an event taken when the next instruction is a delay slot saves the branch's
// address; after HRET the branch runs again with the same outcome and its delay slot runs once.
TEST(T1Events, B19AnEventBeforeADelaySlotResumesAtTheBranch) {
  Cluster c(1);
  c.load(0, kCode, {beq(zero, zero, 2), addiu(t3, t3, 1), addiu(t4, zero, 1), kNop});
  c.load(0, kHandler, {kNop, kHret});
  c.set_nistat(0, nistat::kLpmm);
  c.steps(0, 1);
  ASSERT_TRUE(c.cpu(0).in_delay_slot());
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.steps(0, 1);
  EXPECT_EQ(c.ni(0).read_register(c.cpu(0), kLpepc), kCode);
  c.steps(0, 1);  // HRET
  EXPECT_EQ(c.cpu(0).pc(), kCode);
  c.steps(0, 2);  // the branch again, its delay slot
  EXPECT_EQ(c.cpu(0).pc(), kCode + 12);
  EXPECT_EQ(c.cpu(0).gpr(t3), 1u);
  EXPECT_EQ(c.cpu(0).gpr(t4), 0u);
}

// A5: a critical section in normal code (ENTER_CRIT: enable := 0) sees the HP bank, faithfully to A.10:
// its write of $9 lands in the HP bank's persistent $9, which the next HP handler reads, and normal $9 is
// untouched. With Visibility::HandlerLevel normal code keeps its own $9 and the HP bank's stays 0.
TEST(T1Events, A5CriticalSectionInNormalCodeSeesTheHighBankUnlessHandlerLevelVisibility) {
  for (Visibility visibility : {Visibility::EnableBits, Visibility::HandlerLevel}) {
    NiConfig config;
    config.visibility = visibility;
    Cluster c(1, config);
    c.load(0, kCode, {ctc2(zero, kEnable), addiu(t1, zero, 0x77), ori(at, zero, 1), ctc2(at, kEnable), kNop});
    c.load(0, kHandler, {sw(t1, 0, s0), kHret});
    c.cpu(0).set_gpr(s0, kData);
    c.cpu(0).set_gpr(t1, 0x11);
    c.set_nistat(0, nistat::kHpmm);
    c.steps(0, 4);
    const bool faithful = visibility == Visibility::EnableBits;
    EXPECT_EQ(c.cpu(0).gpr(t1), faithful ? 0x11u : 0x77u);
    ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::High)));
    c.steps(0, 2);
    EXPECT_EQ(c.word(0, kData), faithful ? 0x77u : 0u);
    EXPECT_EQ(c.cpu(0).gpr(t1), faithful ? 0x11u : 0x77u);
  }
}

// A18: HRET outside a handler is undefined; this model raises Reserved Instruction.
TEST(T1Events, HretOutsideAHandlerIsAReservedInstruction) {
  Cluster c(1);
  c.load(0, kCode, {kHret});
  EXPECT_EQ(c.cpu(0).step(), Exception::ReservedInstruction);
}

// A38: a misaligned dmh raises the address error on the handler's first fetch, the event entered.
TEST(T1Events, MisalignedDefaultHandlerFaultsOnItsFirstFetch) {
  Cluster c(1);
  c.ni(0).write_register(c.cpu(0), kDmh, kHandler + 2);
  c.clear_nistat(0, nistat::kAme);
  c.set_nistat(0, nistat::kLpmm);
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  EXPECT_EQ(c.cpu(0).step(), Exception::AddressErrorLoad);
  EXPECT_EQ(c.cpu(0).fault().pc, kHandler + 2);
  EXPECT_EQ(c.ni(0).visible_bank(), Bank::Low);
}

// §3.10 polling emulation: with events off, NI_POLL (ORI $1,1; CTC2 enable; slot; CTC2 $0 enable) lets
// a pending message in; its handler's HRET returns into the window.
TEST(T1Events, NiPollTakesAPendingMessageInsideItsWindow) {
  Cluster c(1);
  c.load(0, kCode,
         {ctc2(zero, kEnable), ori(at, zero, 1), ctc2(at, kEnable), kNop, ctc2(zero, kEnable), kNop});
  c.load(0, kHandler, {kNop, kHret});
  c.set_nistat(0, nistat::kLpmm);
  c.steps(0, 1);  // ENTER_CRIT: events off
  ASSERT_TRUE(c.ni(0).offer(message(kHandler, Priority::Low)));
  c.steps(0, 2);  // ORI, CTC2 enable: nothing taken while EE was 0
  EXPECT_EQ(c.ni(0).queued(Priority::Low), 1u);
  c.steps(0, 1);  // the boundary after the enable takes the event
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 4);
  c.steps(0, 1);  // HRET into the window
  EXPECT_EQ(c.cpu(0).pc(), kCode + 12);
  c.steps(0, 2);
  EXPECT_EQ(c.ni(0).nistat() & nistat::kEe, 0u);
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_events_test
