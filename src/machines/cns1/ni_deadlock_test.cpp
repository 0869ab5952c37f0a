// machines/cns1/ni_deadlock_test.cpp: the request/reply discipline (note 002 §3.9, §6.2 B24, B25) on four
// nodes of the loopback network, itself deadlock-free, with the smallest buffers (one message per
// priority in each in-queue and each output slot). B24 keeps the rules and completes; B25 breaks the
// rule "an LP handler must not loop on an LP send" and stops making progress.
#include <gtest/gtest.h>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_deadlock_test {
namespace {

using namespace testing;

enum : unsigned { t2 = 10, s3 = 19, s4 = 20, s5 = 21, s6 = 22, s7 = 23 };

constexpr int kNodes = 4;  // node ids wrap with & 3

NiConfig small_buffers() {
  NiConfig config;
  config.in_queue_messages = 1;
  return config;
}

void round(Cluster& c) {
  for (int n = 0; n < kNodes; ++n) c.steps(n, 1);
  c.net.deliver();
}

// B24 (note 002 line 884): an all-to-all get. Every node asks each other node K = 3 times for the word at
// kData (node d holds 100 * (d + 1)): an LP request, answered by an HP reply from the LP handler, which may
// spin on it. The primary spins on its LP sends with events enabled. Node n must end with 3 * 3 = 9 replies
// summing to 3 * (1000 - 100 * (n + 1)).
TEST(T1Deadlock, B24AllToAllGetWithTheRulesAlwaysCompletes) {
  constexpr int kRounds = 3;
  constexpr int kTotal = kRounds * (kNodes - 1);
  Cluster c(kNodes, small_buffers(), 1);
  for (int n = 0; n < kNodes; ++n) {
    c.load(n, kCode,
           {cfc2(a1, kNiid),
            lui(a0, kData >> 16),
            ori(a2, zero, kHandler2),
            ori(s2, zero, kHandler),
            addiu(s4, zero, kTotal),
            addu(s3, a1, zero),
            addiu(s3, s3, 1),
            andi(s3, s3, kNodes - 1),
            beq(s3, a1, -3),
            kNop,  // next node but me
            send(kSend, 3, s3, s2),
            kNop,
            bc2f(-3),
            kNop,  // request, retried
            addiu(s4, s4, -1),
            bne(s4, zero, -10),
            kNop,  //
            addiu(s5, zero, kTotal),
            bne(s0, s5, -1),
            kNop,  // wait for the replies
            beq(zero, zero, -1),
            kNop});
    // LP request handler: $4 = address, $5 = requester, $6 = reply handler.
    c.load(n, kHandler, {lw(a0, 0, a0), send(kSendH, 1, a1, a2), kNop, bc2f(-3), kNop, kHret});
    // HP reply handler: sum in $22, count in $16 (shared registers).
    c.load(n, kHandler2, {addu(s6, s6, a0), addiu(s0, s0, 1), kHret});
    c.load(n, kData, {100u * static_cast<std::uint32_t>(n + 1)});
    c.set_nistat(n, nistat::kLpmm | nistat::kHpmm);
  }
  constexpr std::uint32_t kDone = kCode + 80;
  int rounds = 0;
  auto all_done = [&] {
    for (int n = 0; n < kNodes; ++n) {
      if (c.cpu(n).pc() != kDone) return false;
    }
    return true;
  };
  while (!all_done() && rounds < 100000) {
    round(c);
    ++rounds;
  }
  ASSERT_LT(rounds, 100000) << "no completion";
  for (int n = 0; n < kNodes; ++n) {
    EXPECT_EQ(c.cpu(n).gpr(s0), static_cast<std::uint32_t>(kTotal)) << "node " << n;
    EXPECT_EQ(c.cpu(n).gpr(s6), static_cast<std::uint32_t>(kRounds * (1000 - 100 * (n + 1)))) << "node " << n;
  }
}

// B25 (note 002 line 885): every node sends one LP message to the next node round the ring, to be forwarded
// 10 times; the LP handler forwards each message it gets twice (each copy with one hop fewer) and spins on
// each LP send. Without the deadlock the handlers would run 4 * (2^11 - 1) = 8188 times. Once every node sits
// in its handler waiting for room in the next node's full in-queue, which only that node's own (blocked)
// handler could drain, nothing moves: no handler completes in the last 10,000 rounds.
TEST(T1Deadlock, B25LowPriorityHandlersSpinningOnLowPrioritySendsDeadlock) {
  constexpr int kHops = 10;
  Cluster c(kNodes, small_buffers(), 1);
  for (int n = 0; n < kNodes; ++n) {
    c.load(n, kCode,
           {cfc2(a1, kNiid), kNop, addiu(s7, a1, 1), andi(s7, s7, kNodes - 1), ori(s2, zero, kHandler),
            addiu(a0, zero, kHops), send(kSend, 1, s7, s2), kNop, bc2f(-3), kNop,  // LP, retried (allowed)
            beq(zero, zero, -1), kNop});
    // LP handler: count it in $16; unless $4 = 0, send two copies on with $4 - 1, spinning on each.
    c.load(n, kHandler,
           {beq(a0, zero, 10), addiu(s0, s0, 1), addiu(a0, a0, -1),  //
            send(kSend, 1, s7, s2), kNop, bc2f(-3), kNop,            // 1st copy
            send(kSend, 1, s7, s2), kNop, bc2f(-3), kNop,            // 2nd copy
            kHret});
    c.set_nistat(n, nistat::kLpmm);
  }
  auto handled = [&] {
    std::uint32_t total = 0;
    for (int n = 0; n < kNodes; ++n) total += c.cpu(n).gpr(s0);
    return total;
  };
  for (int i = 0; i < 10000; ++i) round(c);
  const std::uint32_t before = handled();
  for (int i = 0; i < 10000; ++i) round(c);
  EXPECT_EQ(handled(), before);
  EXPECT_LT(before, 8188u);
  for (int n = 0; n < kNodes; ++n) {
    EXPECT_GE(c.cpu(n).pc(), kHandler) << "node " << n << " is not in its handler";
    EXPECT_EQ(c.ni(n).visible_bank(), Bank::Low);
    EXPECT_EQ(c.ni(n).queued(Priority::Low), 1u);         // its in-queue full
    EXPECT_EQ(c.net.waiting(n, Priority::Low), 1u) << n;  // and its output slot
  }
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_deadlock_test
