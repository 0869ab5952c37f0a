// net/multicast_test.cpp: replication in the router: a broadcast tree on a mesh reaches every other node
// once, at the unicast zero-load latency of each; branches move in lockstep; mixed with unicast traffic
// under every router configuration, everything is delivered and credits are conserved, and the bitmask
// router decides as the general one; with acks on, a broadcast's copies answer with one merged ack (ACK,
// or NACK when one destination refuses).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "net/ack_path.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::multicast_test {
namespace {

constexpr std::uint64_t kBroadcast = 1;  // the routing word of a broadcast

// Dimension-order routing on a k x k mesh, and for packets whose routing word is kBroadcast the XY
// broadcast tree: from the source router along x both ways, from every router of the source's row along
// y both ways, and every router but the source's delivers to its node. The port a packet arrived on tells
// which way it travels (it arrived on port 2d from the +1 neighbour in dimension d, so it moves in -d).
// Every dependency goes x before y and keeps its direction, as in unicast dimension order: no cycle.
struct XyBroadcastMesh {
  static constexpr bool kNeedsHeader = true;
  static constexpr bool kMayMulticast = true;
  int k;
  int vcs;

  topo::RouteSet route(RouterId router, PortId in_port, VcId, topo::PacketHead& head) const noexcept {
    const int x = router % k, y = router / k;
    topo::RouteSet rs;
    rs.vc_lo = 0;
    rs.vc_hi = static_cast<std::uint8_t>(vcs - 1);
    auto add = [&](int port, bool exists) {
      if (exists) rs.ports[rs.count++] = static_cast<std::int16_t>(port);
    };
    const PortId node = topo::cube_node_port(2);
    if (head.header != kBroadcast) {  // unicast: dimension order
      const int dx = head.dest % k, dy = head.dest / k;
      if (dx != x) return topo::one_port(dx > x ? topo::plus_port(0) : topo::minus_port(0), 0, vcs - 1);
      if (dy != y) return topo::one_port(dy > y ? topo::plus_port(1) : topo::minus_port(1), 0, vcs - 1);
      return topo::one_port(node, 0, vcs - 1);
    }
    const bool on_row = in_port == node || in_port == topo::plus_port(0) || in_port == topo::minus_port(0);
    // Along x: onwards in the direction of travel (both ways at the source).
    add(topo::plus_port(0), (in_port == node || in_port == topo::minus_port(0)) && x + 1 < k);
    add(topo::minus_port(0), (in_port == node || in_port == topo::plus_port(0)) && x > 0);
    // Along y: both ways from the source's row, onwards from elsewhere.
    add(topo::plus_port(1), (on_row || in_port == topo::minus_port(1)) && y + 1 < k);
    add(topo::minus_port(1), (on_row || in_port == topo::plus_port(1)) && y > 0);
    add(node, in_port != node);
    rs.multicast = true;
    return rs;
  }
  int router_hops(NodeId src, NodeId dest) const {
    return std::abs(src % k - dest % k) + std::abs(src / k - dest / k) + 1;
  }
  bool uses_input_vc() const { return false; }
};

struct Rig {
  topo::Graph graph;
  topo::Routing routing;
  Network net;
  Rig(int k, const RouterParams& r, std::uint64_t seed = 1)
      : graph(topo::build(topo::testing::mesh(k, 2))),
        routing(topo::Routing::bind(XyBroadcastMesh{k, r.vcs}, r.vcs)),
        net(graph, routing, r, seed) {}
};

TEST(Multicast, ABroadcastReachesEveryOtherNodeOnceAtTheUnicastZeroLoadLatency) {
  RouterParams r;
  r.pipeline_cycles = 2;
  r.channel_latency = 3;
  const int k = 4, nodes = 16, flits = 5;
  for (NodeId src = 0; src < nodes; ++src) {
    Rig rig(k, r);
    EXPECT_TRUE(rig.net.uses_fast_router()) << "the bitmask router replicates too";
    rig.net.inject(src, src, flits, 7, 0, kBroadcast);
    std::set<NodeId> reached;
    std::set<PacketId> ids;
    for (int t = 0; t < 200; ++t) {
      rig.net.step();
      for (const PacketId id : rig.net.delivered()) {
        const Packet& p = rig.net.packet(id);
        EXPECT_TRUE(reached.insert(p.dest).second) << "node " << p.dest << " got two copies";
        EXPECT_TRUE(ids.insert(id).second) << "every copy has an id of its own";  // released below
        EXPECT_EQ(p.src, src);
        EXPECT_EQ(p.tag, 7u);
        // Each branch moves as a unicast packet would at zero load: L + R (P + L) + S - 1.
        const int routers = rig.routing.router_hops(src, p.dest);
        EXPECT_EQ(p.delivered - p.created,
                  r.channel_latency + routers * (r.pipeline_cycles + r.channel_latency) + flits - 1)
            << src << " -> " << p.dest;
        EXPECT_EQ(p.hops, routers) << "a copy counts the routers on its own path";
      }
    }
    for (const PacketId id : ids) rig.net.release(id);
    EXPECT_EQ(reached.size(), static_cast<std::size_t>(nodes - 1));
    EXPECT_EQ(reached.count(src), 0u) << "the source does not receive its own broadcast";
    EXPECT_TRUE(rig.net.idle());
    EXPECT_EQ(rig.net.credit_deficit(), 0);  // 200 cycles: the last credits have landed
    // A spanning tree of the 16 routers: every router crosses each flit once, to 15 router links and 15
    // nodes in all, so 30 flit-hops and 30 - 16 = 14 copies per flit.
    EXPECT_EQ(rig.net.counters().flit_hops, 2 * (nodes - 1) * flits);
    EXPECT_EQ(rig.net.counters().flits_replicated, (nodes - 2) * flits);
    EXPECT_EQ(rig.net.counters().flits_ejected, (nodes - 1) * flits);
  }
}

TEST(Multicast, BranchesMoveInLockstepSoOneBlockedBranchStallsThemAll) {
  // A 64-flit broadcast from corner 0; node 15 (the far corner) takes nothing. Its branch fills, the
  // routers on the way stop (a flit crosses only when every branch has a credit), and so the source's
  // router stops: no copy completes. Once node 15 drains, all 15 complete.
  RouterParams r;
  Rig rig(4, r);
  rig.net.hold_ejection(15, 0, true);
  rig.net.inject(0, 0, 64, 0, 0, kBroadcast);
  int delivered = 0;
  auto run = [&](int cycles) {
    for (int t = 0; t < cycles; ++t) {
      rig.net.step();
      for (const PacketId id : rig.net.delivered()) {
        ++delivered;
        rig.net.release(id);
      }
    }
  };
  run(500);
  EXPECT_EQ(delivered, 0);
  EXPECT_GT(rig.net.flits_in_network(), 0);
  rig.net.hold_ejection(15, 0, false);
  run(500);
  EXPECT_EQ(delivered, 15);
  EXPECT_TRUE(rig.net.idle());
}

// Uniform unicast traffic with a broadcast now and then, for 3,000 cycles, drained: (tag, node, cycle) of
// every delivery, in order. Broadcast tags are odd, unicast tags even.
std::vector<std::tuple<std::uint64_t, NodeId, Cycle>> mixed_traffic(Network& net, double rate) {
  std::vector<std::tuple<std::uint64_t, NodeId, Cycle>> out;
  const int nodes = net.graph().num_nodes;
  std::vector<core::RandomStream> rng;
  for (int v = 0; v < nodes; ++v) rng.emplace_back(9, v, core::Stream::Arrival);
  std::uint64_t next = 0;
  for (Cycle t = 0; t < 50000 && (t < 3000 || !net.idle()); ++t) {
    for (NodeId v = 0; t < 3000 && v < nodes; ++v) {
      if (rng[v].bernoulli(rate / 4)) {
        net.inject(v, static_cast<NodeId>(rng[v].below(static_cast<std::uint32_t>(nodes))), 4, 2 * next++);
      }
      if (rng[v].bernoulli(0.002)) net.inject(v, v, 4, 2 * next++ + 1, 0, kBroadcast);
    }
    net.step();
    for (const PacketId id : net.delivered()) {
      out.emplace_back(net.packet(id).tag, net.packet(id).dest, net.packet(id).delivered);
      net.release(id);
    }
  }
  EXPECT_TRUE(net.idle()) << net.describe_blocked();
  for (int t = 0; t < net.params().channel_latency; ++t) net.step();  // the last credits land
  EXPECT_EQ(net.credit_deficit(), 0);
  return out;
}

TEST(Multicast, MixedWithUnicastEverythingArrivesUnderEveryGeneralRouterConfiguration) {
  std::vector<std::pair<std::string, RouterParams>> configs;
  RouterParams base;
  base.vcs = 2;
  base.buffer_flits = 4;
  configs.emplace_back("input_first", base);
  RouterParams output_first = base;
  output_first.allocator = AllocatorKind::OutputFirst;
  configs.emplace_back("output_first", output_first);
  RouterParams islip = base;
  islip.allocator_iterations = 3;
  configs.emplace_back("three_iterations", islip);
  RouterParams speedup = base;
  speedup.speedup = 2;
  configs.emplace_back("speedup_2", speedup);
  RouterParams vct = base;
  vct.switching = Switching::VirtualCutThrough;
  configs.emplace_back("virtual_cut_through", vct);
  RouterParams saf = base;
  saf.switching = Switching::StoreAndForward;
  configs.emplace_back("store_and_forward", saf);
  // Every VC allocator and VC choice (net/vc_alloc.hpp).
  for (const VcAllocatorKind kind :
       {VcAllocatorKind::InputFirst, VcAllocatorKind::OutputFirst, VcAllocatorKind::Wavefront}) {
    for (const VcChoice choice : {VcChoice::LowestFree, VcChoice::RoundRobin, VcChoice::Random}) {
      RouterParams p = base;
      p.vc_allocator = kind;
      p.vc_choice = choice;
      const char* const kinds[] = {"auto", "vc_input_first", "vc_output_first", "vc_wavefront"};
      const char* const choices[] = {"lowest_free", "round_robin", "random"};
      configs.emplace_back(
          std::string(kinds[static_cast<int>(kind)]) + "_" + choices[static_cast<int>(choice)], p);
    }
  }
  for (const auto& [name, r] : configs) {
    Rig rig(4, r, 3);
    const auto got = mixed_traffic(rig.net, 0.3);
    std::map<std::uint64_t, std::set<NodeId>> broadcasts;
    std::size_t unicasts = 0;
    for (const auto& [tag, node, cycle] : got) {
      if (tag % 2 == 1) {
        EXPECT_TRUE(broadcasts[tag].insert(node).second) << name << ": a node got a broadcast twice";
      } else {
        ++unicasts;
      }
    }
    EXPECT_GT(unicasts, 1000u) << name;
    EXPECT_GT(broadcasts.size(), 50u) << name;
    for (const auto& [tag, reached] : broadcasts)
      EXPECT_EQ(reached.size(), 15u) << name << " broadcast " << tag;
    // Same seed, same bytes.
    Rig again(4, r, 3);
    EXPECT_EQ(mixed_traffic(again.net, 0.3), got) << name;
  }
}

// The bitmask router replicates with the general router's decisions: the same deliveries at the same
// cycles, near saturation as well (net/fast_multicast_test.cpp compares packet ids and acks on a fat tree).
TEST(Multicast, TheBitmaskRouterDeliversAsTheGeneralRouter) {
  RouterParams r;
  r.vcs = 2;
  r.buffer_flits = 4;
  for (const std::uint64_t seed : {1, 2, 3}) {
    for (const double rate : {0.3, 0.6}) {
      Rig fast(4, r, seed), general(4, r, seed);
      general.net.use_general_router();
      ASSERT_TRUE(fast.net.uses_fast_router());
      EXPECT_EQ(mixed_traffic(fast.net, rate), mixed_traffic(general.net, rate)) << seed << " " << rate;
      EXPECT_EQ(fast.net.counters().flits_replicated, general.net.counters().flits_replicated);
    }
  }
}

// A policy that returns a multicast set without declaring that it may.
struct UndeclaredMulticast {
  static constexpr bool kNeedsHeader = false;
  topo::RouteSet route(RouterId, PortId, VcId, topo::PacketHead&) const noexcept {
    topo::RouteSet rs;
    rs.ports[0] = 0;
    rs.ports[1] = 1;
    rs.count = 2;
    rs.multicast = true;
    return rs;
  }
  int router_hops(NodeId, NodeId) const { return 1; }
  bool uses_input_vc() const { return false; }
};

TEST(MulticastDeathTest, AMulticastFromARoutingThatDoesNotDeclareItStopsTheRun) {
  const topo::Graph g = topo::build(topo::testing::hypercube(1));
  const topo::Routing routing = topo::Routing::bind(UndeclaredMulticast{}, 4);
  EXPECT_DEATH(
      {
        Network net(g, routing, RouterParams{}, 1);
        net.inject(0, 1, 1);
        for (int t = 0; t < 10; ++t) net.step();
      },
      "does not declare kMayMulticast");
}

// With acks on, a broadcast's 15 copies answer with one merged ack at its source: posted when the last
// copy is drained, arriving at the latest over the copies of (copy drained + AckPath::delay(copy's
// hops)), computed here from the delivered copies themselves. A unicast packet sent alongside keeps its
// own ack, and its own arrival.
TEST(MulticastAck, ABroadcastHasOneMergedAckAtTheLatestOfItsCopiesArrivals) {
  constexpr AckParams kAcks{.enabled = true, .router_cycles = 5, .channel_cycles = 1, .turnaround_cycles = 2};
  for (NodeId src : {0, 5, 15}) {
    RouterParams r;
    Rig rig(4, r);
    rig.net.enable_acks(kAcks);
    const PacketId id = rig.net.inject(src, src, 6, 7, 0, kBroadcast);
    rig.net.inject(src, (src + 1) % 16, 3, 8);  // a unicast packet: an ack of its own
    Cycle last_drained = -1, latest = -1;
    Cycle unicast_arrival = -1;
    std::vector<Ack> acks;
    for (int t = 0; t < 500; ++t) {
      rig.net.step();
      for (const PacketId d : rig.net.delivered()) {
        const Packet& p = rig.net.packet(d);
        const Cycle arrives = p.delivered + rig.net.ack_path().delay(p.hops);
        if (p.tag == 7) {
          last_drained = std::max(last_drained, p.delivered);
          latest = std::max(latest, arrives);
        } else {
          unicast_arrival = arrives;
        }
        rig.net.release(d);
      }
      for (const Ack& a : rig.net.acknowledged()) acks.push_back(a);
    }
    ASSERT_TRUE(rig.net.idle());
    ASSERT_EQ(acks.size(), 2u) << "one merged ack for the broadcast, one for the unicast packet";
    const auto merged = std::find_if(acks.begin(), acks.end(), [](const Ack& a) { return a.tag == 7; });
    ASSERT_NE(merged, acks.end());
    EXPECT_EQ(merged->packet, id);
    EXPECT_EQ(merged->src, src);
    EXPECT_EQ(merged->copies, 15);
    EXPECT_FALSE(merged->nack);
    EXPECT_EQ(merged->delivered, last_drained);
    EXPECT_EQ(merged->arrives, latest);
    const auto unicast = std::find_if(acks.begin(), acks.end(), [](const Ack& a) { return a.tag == 8; });
    ASSERT_NE(unicast, acks.end());
    EXPECT_EQ(unicast->copies, 1);
    EXPECT_EQ(unicast->arrives, unicast_arrival);
    EXPECT_EQ(rig.net.ack_path().in_flight(), 0);
  }
}

// One refusing leaf makes the merged ack a NACK (the switch recombines ACK and NACK tokens, L366-L369;
// ACK only if every branch ACKs); without it the same broadcast is ACKed. A refusing node still drains
// what it is sent: every copy is delivered either way, at the same cycles.
TEST(MulticastAck, OneRefusingLeafMakesTheMergedAckANack) {
  const auto run = [](NodeId refusing) {
    Rig rig(4, RouterParams{});
    rig.net.enable_acks({.enabled = true, .router_cycles = 5, .channel_cycles = 1});
    if (refusing >= 0) rig.net.set_nack(refusing, true);
    rig.net.inject(0, 0, 4, 1, 0, kBroadcast);
    std::vector<Ack> acks;
    std::vector<Cycle> drained;
    for (int t = 0; t < 300; ++t) {
      rig.net.step();
      for (const PacketId d : rig.net.delivered()) {
        drained.push_back(rig.net.packet(d).delivered);
        rig.net.release(d);
      }
      for (const Ack& a : rig.net.acknowledged()) acks.push_back(a);
    }
    EXPECT_EQ(acks.size(), 1u);
    EXPECT_EQ(drained.size(), 15u);
    return std::make_pair(acks.empty() ? Ack{} : acks[0], drained);
  };
  const auto [ack, drained] = run(-1);
  EXPECT_FALSE(ack.nack);
  for (NodeId leaf : {1, 10, 15}) {
    const auto [refused, refused_drained] = run(leaf);
    EXPECT_TRUE(refused.nack) << "node " << leaf << " refused";
    EXPECT_EQ(refused.arrives, ack.arrives);
    EXPECT_EQ(refused_drained, drained);
  }
}

// A unicast packet drained at a refusing node is NACKed; at any other node, ACKed.
TEST(MulticastAck, AUnicastPacketToARefusingNodeIsNacked) {
  Rig rig(4, RouterParams{});
  rig.net.enable_acks({.enabled = true});
  rig.net.set_nack(3, true);
  rig.net.inject(0, 3, 2, 3);
  rig.net.inject(0, 4, 2, 4);
  std::vector<Ack> acks;
  for (int t = 0; t < 100; ++t) {
    rig.net.step();
    for (const PacketId d : rig.net.delivered()) rig.net.release(d);
    for (const Ack& a : rig.net.acknowledged()) acks.push_back(a);
  }
  ASSERT_EQ(acks.size(), 2u);
  for (const Ack& a : acks) EXPECT_EQ(a.nack, a.dest == 3) << "to node " << a.dest;
}

}  // namespace
}  // namespace mppnet::net::multicast_test
