// machines/metro/mlink/mlink_test.cpp: MLINK's operations on the MBTA's network, their timing derived
// from the MRP timing (note 004b §2.10) and Fig 11.1's framing, and their retry.
//
// On the idle MBTA network (3 stages, dps = 2) a word the source puts on its link in cycle t is read by
// the destination in t + 7 (70 ns, §10.2), and the source reads the first reply word 14 cycles after its
// TURN (the routers' STATUS, CHECKSUM and 2 fill words each, then the reply: case
// metro.mrp.v6.turn_round_trip). An operation launched in cycle 0 puts its ROUTE on the link in cycle 0,
// its frame of F bytes in cycles 1..F and its TURN in cycle F + 1.
#include "machines/metro/mlink/mlink.hpp"

#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "machines/metro/mrp/scenarios.hpp"

namespace mppnet::machines::metro::mlink {
namespace {

constexpr std::int64_t kRoundTrip = 14;  // TURN -> first reply word on the MBTA network

struct Host final : MlinkHost {
  explicit Host(int nodes) : mem(static_cast<std::size_t>(nodes), std::vector<std::uint8_t>(4096, 0)) {}
  std::span<std::uint8_t> memory(NodeId v) override { return mem[v]; }
  bool rop(NodeId v, NodeId src, std::uint32_t addr, std::span<const std::uint8_t> data, std::uint64_t tag,
           std::int64_t cycle) override {
    if (refuse > 0) {
      --refuse;
      return false;
    }
    rops.push_back({v, src, addr, std::vector<std::uint8_t>(data.begin(), data.end()), tag, cycle});
    return true;
  }
  void reset(NodeId v, std::int64_t) override { resets.push_back(v); }
  void done(NodeId v, std::uint64_t tag, const OperationResult& r) override { results[{v, tag}] = r; }

  struct Rop {
    NodeId v, src;
    std::uint32_t addr;
    std::vector<std::uint8_t> data;
    std::uint64_t tag;
    std::int64_t cycle;
  };
  std::vector<std::vector<std::uint8_t>> mem;
  std::vector<Rop> rops;
  std::vector<NodeId> resets;
  std::map<std::pair<NodeId, std::uint64_t>, OperationResult> results;
  int refuse = 0;  // ROPs to refuse (queue full) before accepting
};

struct Rig {
  explicit Rig(MlinkParams p = {}, std::uint64_t seed = 1)
      : graph(build_instance(mrp::mbta_network(), seed, 0)),
        net(graph, dps2(), seed),
        host(graph.nodes),
        mlink(net, graph.params.radix, p, host, seed) {
    net.set_fast_reclaim(true);
  }
  static mrp::MrpParams dps2() {
    mrp::MrpParams p;
    p.dps = 2;
    return p;
  }
  void run(int limit = 100000) {
    for (int c = 0; c < limit && !(mlink.idle() && c > 0); ++c) {
      mlink.tick();
      net.step();
    }
  }
  Multibutterfly graph;
  mrp::MrpNetwork net;
  Host host;
  Mlink mlink;
};

std::vector<std::uint8_t> pattern(int n, int salt) {
  std::vector<std::uint8_t> v(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) v[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k * 7 + salt);
  return v;
}

TEST(Mlink, AWriteReachesRemoteMemoryAndIsAcknowledgedOnTime) {
  Rig rig;
  const auto data = pattern(16, 3);
  ASSERT_TRUE(rig.mlink.launch(0, {Op::Write, 63, 2, 0x40, 0, 7}, data));
  rig.run();
  const OperationResult& r = rig.host.results.at({0, 7});
  EXPECT_TRUE(r.delivered);
  EXPECT_EQ(r.trials, 1);
  // 25 frame bytes: TURN in 26; status, status, ACK read in 40, 41, 42; the DROP in 43.
  EXPECT_EQ(r.done, 26 + kRoundTrip + 3);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.host.mem[63].begin() + 0x40));
  EXPECT_EQ(rig.mlink.stats().bytes_written, 16);
}

TEST(Mlink, AReadReturnsRemoteMemoryAfterItsAccessTime) {
  Rig rig;
  const auto data = pattern(8, 11);
  std::copy(data.begin(), data.end(), rig.host.mem[21].begin() + 0x100);
  ASSERT_TRUE(rig.mlink.launch(4, {Op::Read, 21, 1, 0x100, 0x200, 9}));
  rig.run();
  const OperationResult& r = rig.host.results.at({4, 9});
  EXPECT_TRUE(r.delivered);
  // 7 frame bytes: TURN in 8, read at the destination in 15; its status words go up in 15 and 16, 6
  // DATA-IDLE, the first data byte in 15 + 8 (read_access_cycles), read at the source 7 cycles later,
  // so in 8 + 14 + 8 = 30; 8 data bytes and 2 check bytes in 30..39, the DROP in 40.
  EXPECT_EQ(r.done, 8 + kRoundTrip + 8 + 8 + 2);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.host.mem[4].begin() + 0x200));
}

TEST(Mlink, AReadWaitsForALongerAccessWithDataIdle) {
  MlinkParams p;
  p.read_access_cycles = 20;
  Rig rig(p);
  ASSERT_TRUE(rig.mlink.launch(4, {Op::Read, 21, 2, 0, 0x200, 9}));
  rig.run();
  EXPECT_EQ(rig.host.results.at({4, 9}).done, 8 + kRoundTrip + 20 + 16 + 2);
}

TEST(Mlink, NoopResetAndRopTakeTheirFramesTime) {
  Rig rig;
  ASSERT_TRUE(rig.mlink.launch(1, {Op::Noop, 2, 0, 0, 0, 1}));
  ASSERT_TRUE(rig.mlink.launch(3, {Op::Reset, 40, 0, 0, 0, 2}));
  const auto data = pattern(24, 5);
  ASSERT_TRUE(rig.mlink.launch(5, {Op::Rop, 6, 3, 0xabcde, 0, 3}, data));
  rig.run();
  // NOOP and RESET: 3 frame bytes, TURN in 4, the DROP 14 + 3 later. ROP of 3: 33 bytes, TURN in 34.
  EXPECT_EQ(rig.host.results.at({1, 1}).done, 4 + kRoundTrip + 3);
  EXPECT_EQ(rig.host.results.at({3, 2}).done, 4 + kRoundTrip + 3);
  EXPECT_EQ(rig.host.results.at({5, 3}).done, 34 + kRoundTrip + 3);
  EXPECT_EQ(rig.host.resets, std::vector<NodeId>{40});
  ASSERT_EQ(rig.host.rops.size(), 1u);
  const Host::Rop& rop = rig.host.rops[0];
  EXPECT_EQ(rop.v, 6);
  EXPECT_EQ(rop.src, 5);
  EXPECT_EQ(rop.addr, 0xabcdeu);
  EXPECT_EQ(rop.data, data);
  EXPECT_EQ(rop.tag, 3u);
  EXPECT_EQ(rop.cycle, 34 + 7);  // queued in the cycle the destination reads the TURN
}

TEST(Mlink, AFullIncomingQueueAnswersNackAndTheSourceRetries) {
  Rig rig;
  rig.host.refuse = 3;
  ASSERT_TRUE(rig.mlink.launch(5, {Op::Rop, 6, 0, 0x10, 0, 3}));
  rig.run();
  const OperationResult& r = rig.host.results.at({5, 3});
  EXPECT_TRUE(r.delivered);
  EXPECT_EQ(r.trials, 4);
  EXPECT_EQ(rig.mlink.stats().nacked, 3);
  EXPECT_EQ(rig.host.rops.size(), 1u);
}

TEST(Mlink, ACorruptedHeaderWritesNothingAndIsReportedAfterTheTrialLimit) {
  MlinkParams p;
  p.max_trials = 1;
  Rig rig(p);
  // A stuck bit in the first address byte on both links into node 63 (note 004c §8 target 12).
  for (int o = 0; o < 2; ++o) rig.net.set_link_flip(rig.net.sink_link(63, o), 0x01, 3, -1);
  ASSERT_TRUE(rig.mlink.launch(0, {Op::Write, 63, 2, 0x40, 0, 7}, pattern(16, 1)));
  rig.run();
  const OperationResult& r = rig.host.results.at({0, 7});
  EXPECT_FALSE(r.delivered);
  EXPECT_EQ(r.status, Status::BadHeader);
  EXPECT_EQ(r.trials, 1);
  EXPECT_EQ(rig.mlink.stats().bytes_written, 0);
  for (const std::uint8_t b : rig.host.mem[63]) ASSERT_EQ(b, 0);
}

TEST(Mlink, ACorruptedPayloadIsNackedAndRetriedUntilItArrivesWhole) {
  Rig rig;
  // One flipped payload byte on each link into node 63: every copy that crosses a fresh link is bad.
  for (int o = 0; o < 2; ++o) rig.net.set_link_flip(rig.net.sink_link(63, o), 0x80, 8, 1);
  const auto data = pattern(16, 9);
  ASSERT_TRUE(rig.mlink.launch(0, {Op::Write, 63, 2, 0x40, 0, 7}, data));
  rig.run();
  const OperationResult& r = rig.host.results.at({0, 7});
  EXPECT_TRUE(r.delivered);
  EXPECT_GE(r.trials, 2);  // the first copy is flipped on whichever output it takes
  EXPECT_LE(r.trials, 3);  // and at most one more on the other
  EXPECT_EQ(rig.mlink.stats().nacked, r.trials - 1);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.host.mem[63].begin() + 0x40));
}

TEST(Mlink, AnAddressBeyondMemoryIsRefused) {
  MlinkParams p;
  p.max_trials = 2;
  Rig rig(p);
  ASSERT_TRUE(rig.mlink.launch(0, {Op::Write, 9, 1, 4096, 0, 1}, pattern(8, 0)));
  rig.run();
  const OperationResult& r = rig.host.results.at({0, 1});
  EXPECT_FALSE(r.delivered);
  EXPECT_EQ(r.status, Status::BadAddress);
  EXPECT_EQ(r.trials, 2);
}

TEST(Mlink, ARefusedRequestNeverStandsBeforeAReply) {
  Rig rig;
  rig.host.refuse = 1000000;  // node 6's queue stays full
  ASSERT_TRUE(rig.mlink.launch(5, {Op::Rop, 6, 0, 0x10, 0, 1, 0}));
  for (int c = 0; c < 200; ++c) {
    rig.mlink.tick();
    rig.net.step();
  }
  ASSERT_TRUE(rig.mlink.launch(5, {Op::Write, 9, 1, 0, 0, 2, 1}, pattern(8, 2)));
  for (int c = 0; c < 200; ++c) {
    rig.mlink.tick();
    rig.net.step();
  }
  EXPECT_TRUE(rig.host.results.at({5, 2}).delivered);
  EXPECT_EQ(rig.host.results.count({5, 1}), 0u);
  rig.host.refuse = 0;
  rig.run();
  EXPECT_TRUE(rig.host.results.at({5, 1}).delivered);
}

TEST(Mlink, EachTrialDrawsOneOfTheNodesTwoInputs) {
  // A node sends one connection at a time (§10.2), on either input at random (§11.1, L3007): over 1,000
  // NOOPs each input carries about half (binomial: 500 +- 3 x 15.8).
  Rig rig;
  std::vector<int> per_input(2, 0);
  std::vector<mrp::LinkWords> trace;
  rig.net.set_trace(&trace);
  for (int k = 0; k < 1000; ++k) {
    ASSERT_TRUE(rig.mlink.launch(0, {Op::Noop, 63, 0, 0, 0, static_cast<std::uint64_t>(k)}));
    rig.run();
  }
  for (const mrp::LinkWords& w : trace)
    for (int q = 0; q < 2; ++q)
      if (w.link == rig.net.source_link(0, q) && w.down.tag == mrp::Tag::Route) ++per_input[q];
  EXPECT_EQ(per_input[0] + per_input[1], 1000);
  EXPECT_NEAR(per_input[0], 500, 48);
}

TEST(Mlink, ManyNodesAtOnceDeliverEveryOperationAndAreDeterministic) {
  auto once = [](std::uint64_t seed) {
    Rig rig({}, seed);
    for (NodeId x = 0; x < 64; ++x)
      for (int k = 0; k < 4; ++k)
        EXPECT_TRUE(rig.mlink.launch(x,
                                     {Op::Write, (x * 7 + k * 13) % 64, 1, static_cast<std::uint32_t>(8 * x),
                                      0, static_cast<std::uint64_t>(k)},
                                     pattern(8, x)));
    rig.run();
    std::int64_t sum = 0;
    for (const auto& [key, r] : rig.host.results) {
      EXPECT_TRUE(r.delivered);
      sum += r.done * 31 + r.trials;
    }
    EXPECT_EQ(rig.host.results.size(), 256u);
    return sum;
  };
  EXPECT_EQ(once(3), once(3));
}

}  // namespace
}  // namespace mppnet::machines::metro::mlink
