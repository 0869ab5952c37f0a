// machines/cns1/ni_protocols_test.cpp: request/reply protocols written in T1 code, several nodes on the
// loopback network (note 002 §5.6, §5.7, §6.2 B27, B28): the handlers are atomic by running to
// completion, requests go LP and replies HP, and the primary code spins on sends with events enabled.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <vector>

#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_protocols_test {
namespace {

using namespace testing;

enum : unsigned { t2 = 10, s3 = 19, s4 = 20, s5 = 21 };

constexpr int kRequesters = 3;  // nodes 1..3; node 0 serves
constexpr int kEach = 5;        // M requests per requester

// Steps every node once, then lets the network move messages, until every requester's pc is `done`.
void run_until(Cluster& c, std::uint32_t done, int max_rounds, const std::function<void(int)>& on_done = {}) {
  std::vector<bool> finished(kRequesters + 1, false);
  for (int round = 0; round < max_rounds; ++round) {
    for (int n = 0; n <= kRequesters; ++n) c.steps(n, 1);
    c.net.deliver();
    bool all = true;
    for (int n = 1; n <= kRequesters; ++n) {
      if (!finished[n] && c.cpu(n).pc() == done) {
        finished[n] = true;
        if (on_done) on_done(n);
      }
      all = all && finished[n];
    }
    if (all) return;
  }
  ADD_FAILURE() << "requesters not done after " << max_rounds << " rounds";
}

// B27 (note 002 line 887): fetch-and-add from N = 3 nodes to one counter, M = 5 times each: the counter ends
// at N*M = 15 and the 15 old values returned are distinct (so they are exactly 0..14).
TEST(T1Protocols, B27FetchAndAddIsAtomicByRunToCompletion) {
  Cluster c(kRequesters + 1);
  // Server: spins; LP handler fa: $4 = counter address, $5 = requester, $6 = reply handler.
  c.load(0, kCode, {beq(zero, zero, -1), kNop});
  c.load(0, kHandler,
         {lw(a3, 0, a0), addiu(t0, a3, 1), sw(t0, 0, a0), addu(a0, a3, zero), send(kSendH, 1, a1, a2), kNop,
          bc2f(-3), kNop, kHret});
  c.set_nistat(0, nistat::kLpmm);
  for (int n = 1; n <= kRequesters; ++n) {
    c.load(n, kCode,
           {cfc2(a1, kNiid), addiu(s4, zero, kEach), lui(a0, kData >> 16), ori(a2, zero, kHandler2),
            ori(s2, zero, kHandler), addu(s3, zero, zero), send(kSend, 3, s3, s2), kNop, bc2f(-3),
            kNop,  // retry until the request is taken
            addiu(s4, s4, -1), bne(s4, zero, -6), kNop, addiu(s5, zero, kEach), bne(s0, s5, -2),
            kNop,  // wait for every reply
            beq(zero, zero, -1), kNop});
    // HP reply handler: store the old value at $17, count it in $16 (shared registers, L283).
    c.load(n, kHandler2, {sw(a0, 0, s1), addiu(s1, s1, 4), addiu(s0, s0, 1), kHret});
    c.cpu(n).set_gpr(s1, kData);
    c.set_nistat(n, nistat::kHpmm);
  }
  run_until(c, kCode + 64, 20000);
  EXPECT_EQ(c.word(0, kData), static_cast<std::uint32_t>(kRequesters * kEach));
  std::set<std::uint32_t> olds;
  for (int n = 1; n <= kRequesters; ++n) {
    for (int k = 0; k < kEach; ++k) olds.insert(c.word(n, kData + 4 * static_cast<std::uint32_t>(k)));
  }
  EXPECT_EQ(olds.size(), static_cast<std::size_t>(kRequesters * kEach));
  EXPECT_EQ(*olds.rbegin(), static_cast<std::uint32_t>(kRequesters * kEach - 1));
}

// B28 (note 002 line 888): Split-C put with a sync counter: each requester puts M values to the server, which
// stores each and acknowledges it (HP); sync spins until M acks arrived. When a requester leaves sync, all
// its values are in the server's memory.
TEST(T1Protocols, B28SyncReturnsOnlyAfterEveryPutIsAcknowledged) {
  Cluster c(kRequesters + 1);
  // Server: LP put handler: $4 = value, $5 = address, $6 = requester, $7 = ack handler.
  c.load(0, kCode, {beq(zero, zero, -1), kNop});
  c.load(0, kHandler, {sw(a0, 0, a1), send(kSendH, 0, a2, a3), kNop, bc2f(-3), kNop, kHret});
  c.set_nistat(0, nistat::kLpmm);
  for (int n = 1; n <= kRequesters; ++n) {
    // Value k of node id is (id << 8) + k + 1, put at kData + (id << 8) + 4k.
    c.load(n, kCode,
           {cfc2(a2, kNiid),
            addiu(s4, zero, kEach),
            sll(t2, a2, 8),
            lui(a1, kData >> 16),
            addu(a1, a1, t2),
            addiu(a0, t2, 1),
            ori(a3, zero, kHandler2),
            ori(s2, zero, kHandler),
            addu(s3, zero, zero),
            send(kSend, 4, s3, s2),
            kNop,
            bc2f(-3),
            kNop,  // retry
            addiu(a0, a0, 1),
            addiu(a1, a1, 4),
            addiu(s4, s4, -1),
            bne(s4, zero, -8),
            kNop,
            addiu(s5, zero, kEach),
            bne(s0, s5, -1),
            kNop,  // sync
            beq(zero, zero, -1),
            kNop});
    c.load(n, kHandler2, {addiu(s0, s0, 1), kHret});  // ack handler (HP)
    c.set_nistat(n, nistat::kHpmm);
  }
  int checked = 0;
  run_until(c, kCode + 84, 20000, [&](int n) {
    const std::uint32_t id = static_cast<std::uint32_t>(n);
    for (std::uint32_t k = 0; k < kEach; ++k) {
      EXPECT_EQ(c.word(0, kData + (id << 8) + 4 * k), (id << 8) + k + 1) << "node " << n << " put " << k;
    }
    EXPECT_EQ(c.cpu(n).gpr(s0), static_cast<std::uint32_t>(kEach));
    ++checked;
  });
  EXPECT_EQ(checked, kRequesters);
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_protocols_test
