// machines/cs2/cs2_network_test.cpp: the CS-2's traffic network: the Elite's timing per switch against
// its closed form, delivery of every pair along every alternative on both layers.
#include "machines/cs2/cs2_network.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "machines/cs2/routes.hpp"

namespace mppnet::machines::cs2 {
namespace {

Cs2Config machine(int pes, Doubling d = Doubling::EightWayTop) {
  Cs2Config c;
  c.machine.pes = pes;
  c.machine.doubling = d;
  return c;
}

// The closed form, derived from the generic router's rules (net/router_params.hpp) with the Elite's
// parameters: the packet enters the source queue at cycle 0, its head leaves the PE in the same cycle
// and crosses the PE's link (channel_latency = w + 1), then in each switch bids at once and takes
// pipeline_cycles + channel_latency = (d - 1) + (w + 1) = d + w to the next buffer (the last switch's
// to the PE's ejection buffer, drained on arrival); the tail drains bytes - 1 cycles after the head,
// one byte a cycle.
TEST(Cs2Network, APacketCrossesHSwitchesInTheClosedFormsCycles) {
  for (const int data : {7, 5}) {
    for (const int wire : {0, 1, 3}) {
      Cs2Config c = machine(1024);
      c.elite.data_cycles = data;
      c.elite.wire_cycles = wire;
      Cs2Network net(c);
      for (int j = 1; j <= 5; ++j) {
        const int h = 2 * j - 1;
        for (const int bytes : {1, 32}) {
          const Probe p = probe_latency(net, 3, 3 ^ (1 << (2 * (j - 1))), bytes);
          EXPECT_EQ(p.switches, h);
          EXPECT_EQ(p.cycles, (wire + 1) + h * (data + wire) + (bytes - 1))
              << "data " << data << ", wire " << wire << ", h " << h << ", bytes " << bytes;
          EXPECT_EQ(p.cycles, zero_load_cycles(c.elite, h, bytes));
        }
      }
    }
  }
}

TEST(Cs2Network, EvenSwitchCountsOfBackToBackNetworksFollowTheSameRule) {
  for (const int pes : {8, 32, 128, 512}) {
    Cs2Network net(machine(pes, Doubling::BackToBack));
    const Probe p = probe_latency(net, 1, pes / 2 + 2, 8);
    EXPECT_EQ(p.switches, 2 * net.shape().stages());
    EXPECT_EQ(p.cycles, zero_load_cycles(EliteParams{}, p.switches, 8)) << pes;
  }
}

TEST(Cs2Network, EveryPairIsDeliveredToItsPeOnEveryAlternativeAndLayer) {
  for (const int pes : {16, 64})
    for (const Policy policy : {Policy::Dest, Policy::Random}) {
      Cs2Config c = machine(pes);
      c.routing.policy = policy;
      Cs2Network net(c);
      ASSERT_EQ(net.layers(), 2);
      std::vector<int> got(static_cast<std::size_t>(pes * pes), 0);
      for (int l = 0; l < 2; ++l)
        for (int alt = 0; alt < kAlternatives; ++alt)
          for (NodeId x = 0; x < pes; ++x)
            for (NodeId d = 0; d < pes; ++d)
              net.send_on(l, x, d, 3, static_cast<std::uint64_t>(x * pes + d), alt);
      for (int t = 0; t < 100000 && !net.idle(); ++t) {
        net.step();
        for (int l = 0; l < 2; ++l)
          for (const net::PacketId id : net.layer(l).delivered()) {
            const net::Packet& p = net.layer(l).packet(id);
            EXPECT_EQ(p.dest, static_cast<NodeId>(p.tag % pes));
            EXPECT_EQ(p.src, static_cast<NodeId>(p.tag / pes));
            ++got[p.tag];
            net.layer(l).release(id);
          }
      }
      ASSERT_TRUE(net.idle());
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], 2 * kAlternatives) << i;
    }
}

TEST(Cs2Network, ThePesStripeTheirPacketsOverTheLayers) {
  Cs2Network net(machine(16));
  EXPECT_EQ(net.send(5, 9, 4, 0), 0);
  EXPECT_EQ(net.send(5, 9, 4, 0), 1);
  EXPECT_EQ(net.send(5, 9, 4, 0), 0);
  EXPECT_EQ(net.send(6, 9, 4, 0), 0);
}

TEST(Cs2Network, TheRouterParametersAreTheElitesTiming) {
  const net::RouterParams p = elite_router_params(machine(64));
  EXPECT_EQ(p.vcs, 1);
  EXPECT_EQ(p.buffer_flits, 32);
  EXPECT_EQ(p.hop_cycles(), 7 + 1);
  EXPECT_EQ(p.cycle_ps, 14286);
  EXPECT_EQ(p.switching, net::Switching::Wormhole);
}

// The layers replicate only when the config asks for broadcasts; either way they run on the bitmask
// router, which replicates as the general router does.
TEST(Cs2Network, LayersReplicateOnlyWhenBroadcastsAreAskedFor) {
  Cs2Config c = machine(64);
  EXPECT_FALSE(Cs2Network(c).broadcasts());
  EXPECT_TRUE(Cs2Network(c).layer(0).uses_fast_router());
  c.traffic.broadcast_fraction = 0.1;
  EXPECT_TRUE(Cs2Network(c).broadcasts());
  EXPECT_TRUE(Cs2Network(c).layer(0).uses_fast_router());
}

// A broadcast to [a, b] is one packet per aligned box, and every PE of the range gets exactly one copy,
// none outside it, on both trees; with acks, each packet's copies answer with one merged ack.
TEST(Cs2Network, ABroadcastReachesEveryPeOfItsRangeOnce) {
  for (const BroadcastTree tree : {BroadcastTree::Canonical, BroadcastTree::AnyPlane}) {
    Cs2Config c = machine(64);
    c.traffic.broadcast_fraction = 1;
    c.routing.broadcast_tree = tree;
    Cs2Network net(c, /*acks=*/true);
    for (const auto& [a, b] : {std::pair{0, 63}, std::pair{5, 10}, std::pair{17, 62}, std::pair{33, 33}}) {
      std::vector<net::PacketId> ids;
      const std::int64_t copies = net.broadcast_on(0, 40, a, b, 16, 0, &ids);
      EXPECT_EQ(copies, b - a + 1);
      EXPECT_EQ(ids.size(), decompose_range(net.shape(), a, b).size());
      std::vector<int> got(64, 0);
      int acks = 0;
      for (int t = 0; t < 5000 && !net.idle(); ++t) {
        net.step();
        for (const net::PacketId d : net.layer(0).delivered()) {
          ++got[static_cast<std::size_t>(net.layer(0).packet(d).dest)];
          net.layer(0).release(d);
        }
        acks += static_cast<int>(net.layer(0).acknowledged().size());
      }
      ASSERT_TRUE(net.idle());
      for (int x = 0; x < 64; ++x) EXPECT_EQ(got[static_cast<std::size_t>(x)], x >= a && x <= b ? 1 : 0) << x;
      EXPECT_EQ(acks, static_cast<int>(ids.size())) << "one merged ack per packet";
    }
  }
}

}  // namespace
}  // namespace mppnet::machines::cs2
