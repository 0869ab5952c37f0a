// machines/cns1/ni_send_test.cpp: SEND and MCST at the sender and what lands at the receiver (note 002
// §3.5.4, §3.6, §6.2 B1-B7, B18, B20, B21), on the loopback network. Expected values come from the note.
#include <gtest/gtest.h>

#include <stdexcept>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_send_test {
namespace {

using namespace testing;
using cpu::mips::Exception;

TEST(T1Send, EncodingsMatchTheNote) {
  // §3.5.4: SEND5.V with rt=$8, rd=$9, vd=$vr4 is 0x4AA84921; §3.5.5: HRET is 0x4A00001C; §3.5.2:
  // CFC2 $1,nistat is 0x48419800 and CTC2 $1,enable is 0x48C19000.
  EXPECT_EQ(send(kSendV, 5, t1, t0, 4), 0x4AA84921u);
  EXPECT_EQ(kHret, 0x4A00001Cu);
  EXPECT_EQ(cfc2(at, kNistat), 0x48419800u);
  EXPECT_EQ(ctc2(at, kEnable), 0x48C19000u);
}

// B1 (note 002 line 861): A sends SEND3 to B with $4,$5,$6 = 1,2,3 and handler H; B has EE=LPEE=1, lpmm=1,
// ame=1.
TEST(T1Send, B1LowPriorityArrivalEntersTheHandlerWithTheMessageInTheLowBank) {
  Cluster c(2);
  c.load(0, kCode, {send(kSend, 3, s0, s1)});
  c.cpu(0).set_gpr(a0, 1);
  c.cpu(0).set_gpr(a1, 2);
  c.cpu(0).set_gpr(a2, 3);
  c.aim(0, 1, kHandler);
  c.load(1, kCode, {kNop, kNop, kNop});
  c.load(1, kHandler, {kNop, kHret});
  c.set_nistat(1, nistat::kLpmm | nistat::kNicond);  // B's nicond = 1 before the event
  c.cpu(1).set_gpr(a0, 0xA0);                        // B's normal $4, to see it hidden and kept
  c.steps(1, 2);                                     // B runs normal code up to kCode + 8
  c.steps(0, 1);
  EXPECT_EQ(c.ni(0).nistat() & nistat::kNicond, nistat::kNicond);  // success
  EXPECT_EQ(c.net.deliver(), 1u);
  c.steps(1, 1);  // the boundary takes the event, then the handler's first instruction runs
  NetworkInterface& b = c.ni(1);
  EXPECT_EQ(c.cpu(1).pc(), kHandler + 4);  // PC = H (its first instruction done)
  EXPECT_EQ(b.visible_bank(), Bank::Low);
  EXPECT_EQ(c.cpu(1).gpr(a0), 1u);
  EXPECT_EQ(c.cpu(1).gpr(a1), 2u);
  EXPECT_EQ(c.cpu(1).gpr(a2), 3u);
  EXPECT_EQ(b.hidden_register(Bank::Normal, a0), 0xA0u);
  // pri=0, slen=3, vlen=0, mcst=0 in bits 15-0 (layout A2).
  EXPECT_EQ(b.nistat() & 0xFFFFu, 3u << nistat::kSlenShift);
  EXPECT_EQ(b.read_register(c.cpu(1), kInh), kHandler);
  EXPECT_EQ(b.nistat() & nistat::kLpee, 0u);
  EXPECT_EQ(b.nistat() & nistat::kEe, nistat::kEe);
  EXPECT_EQ(b.read_register(c.cpu(1), kLpepc), kCode + 8);  // B's interrupted PC
  EXPECT_EQ(b.nistat() & nistat::kOnicond, nistat::kOnicond);
  // HRET: back to kCode + 8 with the normal bank.
  c.steps(1, 1);
  EXPECT_EQ(c.cpu(1).pc(), kCode + 8);
  EXPECT_EQ(c.cpu(1).gpr(a0), 0xA0u);
  EXPECT_EQ(b.visible_bank(), Bank::Normal);
}

// B2 (note 002 line 862): SEND5 takes $4,$5,$6,$7,$29 in that order; $8 and $9 are not transmitted.
TEST(T1Send, B2FiveScalarWordsLandInTheSameRegistersAndScratchIsNotSent) {
  Cluster c(2);
  c.load(0, kCode, {send(kSend, 5, s0, s1)});
  const unsigned data[] = {a0, a1, a2, a3, sp};
  for (unsigned i = 0; i < 5; ++i) c.cpu(0).set_gpr(data[i], 10 + i);
  c.cpu(0).set_gpr(t0, 0x88);
  c.cpu(0).set_gpr(t1, 0x99);
  c.aim(0, 1, kHandler);
  c.send_and_enter(0, 1, nistat::kLpmm);
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(c.cpu(1).gpr(data[i]), 10 + i) << "word " << i;
  EXPECT_EQ(c.cpu(1).gpr(t0), 0u);  // the LP bank's own $8, $9 (never written)
  EXPECT_EQ(c.cpu(1).gpr(t1), 0u);
  EXPECT_EQ(c.ni(1).nistat() & nistat::kSlenMask, 5u << nistat::kSlenShift);
}

// B3 (note 002 line 863): n = 6 or 7 is a reserved instruction: nothing sent, nicond unchanged (A11).
TEST(T1Send, B3SixOrSevenScalarWordsIsAReservedInstruction) {
  for (unsigned n : {6u, 7u}) {
    Cluster c(2);
    c.load(0, kCode, {send(kSend, n, s0, s1)});
    c.aim(0, 1, kHandler);
    c.set_nistat(0, nistat::kNicond);
    EXPECT_EQ(c.cpu(0).step(), Exception::ReservedInstruction);
    EXPECT_EQ(c.net.waiting(0, Priority::Low), 0u);
    EXPECT_EQ(c.ni(0).nistat() & nistat::kNicond, nistat::kNicond);
    EXPECT_EQ(c.cpu(0).pc(), kCode);  // precise: still at the SEND
  }
}

// B4 (note 002 line 864): a handler address with low bits != 00 raises Handler Address Error; nothing sent.
// A12: this is checked before room, so it faults on a full network too.
TEST(T1Send, B4MisalignedHandlerRaisesHandlerAddressErrorEvenOnAFullNetwork) {
  Cluster c(2);
  c.load(0, kCode, {send(kSend, 0, s0, s1), send(kSend, 0, s0, s2)});
  c.aim(0, 1, kHandler + 2);
  c.cpu(0).set_gpr(s2, kHandler);
  EXPECT_EQ(c.cpu(0).step(), Exception::CoprocessorException);
  EXPECT_EQ(c.ni(0).error().handler_address, kHandler + 2);
  EXPECT_EQ(c.ni(0).error().pc, kCode);
  EXPECT_EQ(c.net.waiting(0, Priority::Low), 0u);
  // Fill the one LP output slot, then the bad handler still faults rather than failing quietly.
  c.cpu(0).jump_to(kCode + 4);
  c.steps(0, 1);
  c.cpu(0).jump_to(kCode);
  EXPECT_EQ(c.cpu(0).step(), Exception::CoprocessorException);
  EXPECT_EQ(c.net.waiting(0, Priority::Low), 1u);
}

// B5, B6 (note 002 lines 865-866): a receiver that never takes events; the sender keeps sending LP. With one
// output slot and two in-queue slots (A35), three LP sends succeed, the 4th fails (nicond=0, lpa=0, BC2F
// taken), and an HP send still succeeds and reaches the receiver while LP stays blocked.
TEST(T1Send, B5B6FullLowPriorityFailsWithoutTrapWhileHighPriorityGetsThrough) {
  Cluster c(2);
  const std::uint32_t lp = send(kSend, 0, s0, s1);
  c.load(0, kCode,
         {lp, lp, lp, lp, kNop, bc2f(2), kNop, addiu(t2, zero, 1),  // skipped when BC2F is taken
          send(kSendH, 0, s0, s1), kNop});
  c.aim(0, 1, kHandler);
  for (int i = 0; i < 4; ++i) {
    c.steps(0, 1);
    c.net.deliver();
  }
  EXPECT_EQ(c.ni(0).sends(), 3u);
  EXPECT_EQ(c.ni(0).failed_sends(), 1u);
  EXPECT_EQ(c.ni(0).nistat() & (nistat::kNicond | nistat::kLpa), 0u);
  EXPECT_EQ(c.ni(1).queued(Priority::Low), 2u);
  c.steps(0, 3);  // NOP, BC2F, delay slot
  EXPECT_EQ(c.cpu(0).pc(), kCode + 32);
  c.steps(0, 1);  // SEND0H
  EXPECT_EQ(c.ni(0).nistat() & nistat::kNicond, nistat::kNicond);
  EXPECT_EQ(c.net.deliver(), 1u);
  EXPECT_EQ(c.ni(1).queued(Priority::High), 1u);
  EXPECT_EQ(c.net.waiting(0, Priority::Low), 1u);  // still blocked
}

// B7 (note 002 line 867): A sends k = 4 LP messages to B, $4 = 1..4; B's handler appends $4 to a list: the
// order is kept.
TEST(T1Send, B7MessagesFromOneSenderArriveInSendOrder) {
  Cluster c(2);
  // A: $4 := 1..4, each sent with a retry loop (SEND; NOP; BC2F retry; NOP).
  c.load(0, kCode,
         {addiu(a0, a0, 1), send(kSend, 1, s0, s1), kNop, bc2f(-3), kNop, addiu(t2, zero, 4), bne(a0, t2, -7),
          kNop, beq(zero, zero, -1), kNop});
  c.aim(0, 1, kHandler);
  // B: handler stores $4 at $16 and advances $16 (a shared register); normal code spins.
  c.load(1, kCode, {beq(zero, zero, -1), kNop});
  c.load(1, kHandler, {sw(a0, 0, s0), addiu(s0, s0, 4), kHret});
  c.cpu(1).set_gpr(s0, kData);
  c.set_nistat(1, nistat::kLpmm);
  for (int i = 0; i < 200; ++i) {
    c.steps(0, 1);
    c.steps(1, 1);
    c.net.deliver();
  }
  EXPECT_EQ(c.cpu(1).gpr(s0), kData + 16);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(c.word(1, kData + 4 * i), i + 1);
}

// B18 (note 002 line 878): the handler runs in the sender's mode (KU bit in the packet) and HRET restores the
// receiver's; a user-mode packet naming a kernel-space handler faults on the first fetch, with the event
// entered (A38).
TEST(T1Send, B18HandlerRunsInTheSendersModeAndAUserPacketCannotEnterKernelSpace) {
  Cluster c(2);
  c.load(0, kCode, {send(kSend, 0, s0, s1), send(kSend, 0, s0, s2)});
  c.aim(0, 1, kHandler);
  c.cpu(0).set_gpr(s2, 0x80001000);
  c.ni(0).set_kernel_mode(true);
  c.load(1, kHandler, {kNop, kHret});
  c.set_nistat(1, nistat::kLpmm);
  c.steps(0, 1);
  c.net.deliver();
  c.steps(1, 1);
  EXPECT_TRUE(c.ni(1).is_kernel_mode());
  c.steps(1, 1);  // HRET
  EXPECT_FALSE(c.ni(1).is_kernel_mode());

  c.ni(0).set_kernel_mode(false);
  c.steps(0, 1);
  c.net.deliver();
  EXPECT_EQ(c.cpu(1).step(), Exception::AddressErrorLoad);
  EXPECT_EQ(c.cpu(1).fault().pc, 0x80001000u);
  EXPECT_EQ(c.ni(1).visible_bank(), Bank::Low);
}

// B20 (note 002 line 880): SEND is atomic. A SEND to itself (A29: loops back through the NI) puts the message
// in its own in-queue during the SEND; the event is taken only after it, with LPEPC = SEND + 4.
TEST(T1Send, B20AnEventThatArrivesDuringASendIsTakenAfterIt) {
  Cluster c(1);
  c.net.set_deliver_on_send(true);
  c.load(0, kCode, {send(kSendV, 1, s0, s1, 4), kNop, kNop});
  c.load(0, kHandler, {kNop, kHret});
  c.aim(0, 0, kHandler);
  c.ni(0).set_vector_length(32);
  c.set_nistat(0, nistat::kLpmm);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kCode + 4);  // the SEND completed with no event inside it
  EXPECT_EQ(c.ni(0).queued(Priority::Low), 1u);
  c.steps(0, 1);
  EXPECT_EQ(c.cpu(0).pc(), kHandler + 4);
  EXPECT_EQ(c.ni(0).read_register(c.cpu(0), kLpepc), kCode + 4);
}

// B21 (note 002 line 881): SEND2.V with vlr = 32 from $vr4: the receiver's LP copy of $vr1 holds the data,
// vlen = 32, slen = 2, and its normal $vr1 is unchanged.
TEST(T1Send, B21VectorSendFillsTheReceiversEventCopyOfVr1) {
  Cluster c(2);
  c.load(0, kCode, {send(kSendV, 2, s0, s1, 4)});
  c.aim(0, 1, kHandler);
  c.ni(0).set_vector_length(32);
  for (unsigned i = 0; i < 32; ++i) c.ni(0).set_vector_element(4, i, 100 + i);
  c.ni(1).set_vector_element(1, 0, 0xBEEF);  // receiver's normal $vr1[0]
  c.send_and_enter(0, 1, nistat::kLpmm);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(c.ni(1).vector_element(1, i), 100 + i);
  EXPECT_EQ(c.ni(1).nistat() & nistat::kVlenMask, 32u);
  EXPECT_EQ(c.ni(1).nistat() & nistat::kSlenMask, 2u << nistat::kSlenShift);
  EXPECT_EQ(c.ni(1).vr1(Bank::Normal)[0], 0xBEEFu);
}

// MCST sets the multicast attribute: the receiver's nistat.mcst is 1 (A33); HP forms set pri = 1.
TEST(T1Send, MulticastAndHighPriorityShowInTheReceiversNistat) {
  Cluster c(2);
  c.load(0, kCode, {send(kMcstH, 0, s0, s1)});
  c.aim(0, 1, kHandler);
  c.send_and_enter(0, 1, nistat::kHpmm);
  EXPECT_EQ(c.ni(1).visible_bank(), Bank::High);
  EXPECT_EQ(c.ni(1).nistat() & 0xFFFFu, nistat::kPri | nistat::kMcst);
}

TEST(T1Send, SendWithoutANetworkFails) {
  NetworkInterface ni(NiConfig{});
  cpu::mips::Memory memory;
  memory.map(kCode, 0x100, "code");
  EXPECT_EQ(memory.store32(kCode, send(kSend, 0, s0, s1)), cpu::mips::Access::Ok);
  cpu::mips::Cpu cpu(memory);
  cpu.reset(kCode);
  cpu.attach_coprocessor2(&ni);
  ASSERT_EQ(cpu.step(), Exception::None);
  EXPECT_FALSE(ni.condition());
  EXPECT_EQ(ni.failed_sends(), 1u);
}

TEST(T1Send, MessageToANodeThatDoesNotExistIsAClearError) {
  Cluster c(2);
  c.load(0, kCode, {send(kSend, 0, s0, s1)});
  c.aim(0, 7, kHandler);
  EXPECT_THROW(c.cpu(0).step(), std::out_of_range);
}

TEST(T1Send, AMalformedOfferedMessageIsRefusedWithAnError) {
  NetworkInterface ni(NiConfig{});
  T1Message m;
  m.scalar_count = 6;
  EXPECT_THROW(ni.offer(m), std::invalid_argument);
  m.scalar_count = 5;
  m.vector_length = 33;
  EXPECT_THROW(ni.offer(m), std::invalid_argument);
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_send_test
