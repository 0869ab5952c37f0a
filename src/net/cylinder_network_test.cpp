// net/cylinder_network_test.cpp: the CNS-1's network properties on the generic network (reference note
// 002 §3.7, §3.13, B7, B22, B23): an 8 x 8 mesh that wraps dimension 1, two virtual networks as the low
// and high priorities sharing every link, router.in_order, and path multicast along a row or a ring.
//
// Router (and node) id = x + 8 y; x = dimension 0 is open, y = dimension 1 a ring of 8. A node (r, c)
// of the note is x = c, y = r, so a row is open (B22) and a column a ring (B23).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "net/built_network.hpp"
#include "net/network.hpp"
#include "topo/params_for_test.hpp"
#include "topo/path_multicast.hpp"

namespace mppnet::net::cylinder_network_test {
namespace {

constexpr int kK = 8;
constexpr int kLow = 0, kHigh = 1;  // the T1's priorities: requests low, replies high
constexpr NodeId at(int x, int y) {
  return x + kK * y;
}

// The CNS-1 preset's router: 4 VCs, split between the two priorities, each with its two dateline
// classes, and one VC per class so that every pair's packets stay in order.
RouterParams cns1_router() {
  RouterParams r;
  r.vcs = 4;
  r.vnets = 2;
  r.in_order = true;
  return r;
}

struct Rig : BuiltNetwork {
  explicit Rig(const RouterParams& r, bool path_multicast = false, std::uint64_t seed = 1)
      : BuiltNetwork(topo::testing::cylinder(kK, 2, {1}, path_multicast), r, seed) {}
  Network& net = flit();
};

// Zero-load latency of an S-flit packet crossing R routers (docs/router.md): L + R (P + L) + S - 1.
int zero_load(const RouterParams& r, int routers, int flits) {
  return r.channel_latency + routers * (r.pipeline_cycles + r.channel_latency) + flits - 1;
}

// Packets delivered out of send order per (source, destination, virtual network) under heavy mixed
// traffic: every node sends packets of 1 to 8 flits to random nodes on both networks for `cycles`;
// each packet's tag is its index among its pair's packets. Drains the network first.
int reorderings(const RouterParams& r, int cycles) {
  BuiltNetwork rig(topo::testing::cylinder(kK, 2, {1}), r, 1);
  NetworkModel& net = rig.network;
  std::mt19937 draw(7);
  std::map<std::tuple<NodeId, NodeId, int>, std::uint64_t> sent, next_expected;
  int out_of_order = 0, delivered = 0, injected = 0;
  auto collect = [&] {
    for (const PacketId id : net.delivered()) {
      const Packet& p = net.packet(id);
      std::uint64_t& want = next_expected[{p.src, p.dest, p.vnet}];
      out_of_order += p.tag != want;
      want = p.tag + 1;
      ++delivered;
      net.release(id);
    }
  };
  for (int t = 0; t < cycles; ++t) {
    for (NodeId v = 0; v < kK * kK; ++v) {
      if (draw() % 16 != 0) continue;  // 1/16 packets per node per cycle, ~0.28 flits: saturating
      // A few destinations per source, so that every pair sends many packets.
      const NodeId dest = (v + 1 + static_cast<NodeId>(draw() % 3) * 9) % (kK * kK);
      const int vnet = static_cast<int>(draw() % 2);
      const int flits = 1 + static_cast<int>(draw() % 8);
      net.inject(v, dest, flits, sent[{v, dest, vnet}]++, vnet);
      ++injected;
    }
    net.step();
    collect();
  }
  for (int t = 0; t < 200000 && !net.idle(); ++t) {
    net.step();
    collect();
  }
  EXPECT_EQ(delivered, injected) << "no drops: every accepted packet arrives";
  return out_of_order;
}

TEST(Cns1Network, InOrderKeepsEveryPairsPacketsInSendOrder) {
  // Note 002 §3.7 and B7: in order per (sender, receiver, priority), from dimension order; here the
  // path, the dateline class and (router.in_order) the VC are functions of the pair.
  EXPECT_EQ(reorderings(cns1_router(), 3000), 0);
}

TEST(Cns1Network, InOrderHoldsInThePacketLevelModelToo) {
  RouterParams r = cns1_router();
  r.model = NetworkModelKind::Packet;
  EXPECT_EQ(reorderings(r, 3000), 0);
  r.vcs = 8;
  r.in_order = false;
  EXPECT_GT(reorderings(r, 3000), 0) << "the packet level reorders on spare VCs too";
}

TEST(Cns1Network, WithoutInOrderTheSpareVcsLetPacketsPass) {
  // The negative control: with 2 VCs per class a later packet may take the other VC and pass an
  // earlier one, which is why the preset sets router.in_order.
  RouterParams r = cns1_router();
  r.vcs = 8;
  r.in_order = false;
  EXPECT_GT(reorderings(r, 3000), 0);
}

// Steps until `count` packets of `vnet` were delivered or `limit` cycles passed; returns how many were.
int deliver(Network& net, int count, int vnet, int limit) {
  int got = 0;
  for (int t = 0; t < limit && got < count; ++t) {
    net.step();
    for (PacketId id : net.delivered()) {
      got += net.packet(id).vnet == vnet;
      if (net.packet(id).vnet == vnet) net.release(id);
    }
  }
  return got;
}

TEST(Cns1Network, ALowPriorityBacklogNeverBlocksHighPriority) {
  // B5/B6: a receiver that takes no low-priority message backs the low network up to its senders,
  // whose low sends then fail (no room), while high-priority messages still pass both ways.
  RouterParams r = cns1_router();
  r.buffer_flits = 2;  // small buffers: the backlog reaches every router on the way
  Rig rig(r);
  const NodeId hot = at(3, 4);
  rig.net.hold_ejection(hot, kLow, true);
  for (NodeId v = 0; v < kK * kK; ++v)
    if (v != hot)
      for (int k = 0; k < 6; ++k) rig.net.inject(v, hot, 4, 0, kLow);
  EXPECT_EQ(deliver(rig.net, 1, kLow, 3000), 0);
  EXPECT_GT(rig.net.source_queue_length(at(3, 0), kLow), 0) << "the backlog reaches the senders";
  int sent = 0;
  for (NodeId v = 0; v < kK * kK; ++v) {
    if (v == hot) continue;
    rig.net.inject(v, hot, 4, 0, kHigh);
    rig.net.inject(hot, v, 4, 0, kHigh);
    sent += 2;
  }
  EXPECT_EQ(deliver(rig.net, sent, kHigh, 5000), sent);
  // Released, the low network drains completely: no drops.
  rig.net.hold_ejection(hot, kLow, false);
  EXPECT_EQ(deliver(rig.net, 63 * 6, kLow, 50000), 63 * 6);
}

// The cycle the last of `packets` packets per network in `vnets` from (0, 0) to (5, 3) is delivered,
// all injected at cycle 0.
Cycle last_delivery(const std::vector<int>& vnets, int packets, int flits) {
  Rig rig(cns1_router());
  for (int k = 0; k < packets; ++k)
    for (const int vn : vnets) rig.net.inject(at(0, 0), at(5, 3), flits, 0, vn);
  const int total = packets * static_cast<int>(vnets.size());
  int got = 0;
  Cycle last = 0;
  for (int t = 0; got < total && t < 100000; ++t) {
    rig.net.step();
    for (PacketId id : rig.net.delivered()) {
      last = std::max(last, rig.net.packet(id).delivered);
      rig.net.release(id);
      ++got;
    }
  }
  EXPECT_EQ(got, total);
  return last;
}

TEST(Cns1Network, OnePriorityAloneGetsTheWholeLinkAndTwoShareIt) {
  // Note 002 §3.7, L341: the priorities are demand-multiplexed on the same links. Packet k of one
  // stream of four-flit packets lands 4 k cycles after the first, which takes the zero-load latency
  // (9 routers: 1 + 9 x 2 + 3 = 22): the stream has the link to itself. Two streams, one per priority,
  // alternate flit by flit and each lands its last packet about 4 x 200 cycles later than alone.
  const RouterParams r = cns1_router();
  const Cycle alone = zero_load(r, 9, 4) + 4 * 199;
  EXPECT_EQ(last_delivery({kLow}, 200, 4), alone);
  EXPECT_EQ(last_delivery({kHigh}, 200, 4), alone);
  EXPECT_NEAR(static_cast<double>(last_delivery({kLow, kHigh}, 200, 4)), static_cast<double>(alone + 800),
              2.0);
}

// Copies of one path multicast from src to dest at zero load: node -> (latency, packet hops).
std::map<NodeId, std::pair<int, int>> multicast_copies(Rig& rig, NodeId src, NodeId dest, int flits) {
  rig.net.inject(src, dest, flits, 0, kLow, topo::kPathMulticast);
  std::map<NodeId, std::pair<int, int>> copies;
  for (int t = 0; t < 500; ++t) {
    rig.net.step();
    for (PacketId id : rig.net.delivered()) {
      const Packet& p = rig.net.packet(id);
      EXPECT_TRUE(copies.insert({p.dest, {static_cast<int>(p.delivered - p.created), p.hops}}).second)
          << "two copies at node " << p.dest;
      // Every copy, the destination's included, still carries the multicast's routing word: what the
      // T1's NI shows as nistat.mcst = 1 (note 002 A33).
      EXPECT_EQ(rig.net.route_header(id), topo::kPathMulticast) << p.dest;
      rig.net.release(id);
    }
  }
  EXPECT_TRUE(rig.net.idle());
  return copies;
}

// Flits sent on router-to-router links so far.
std::int64_t link_traversals(const Rig& rig) {
  const std::vector<std::int64_t> flits = rig.net.port_flits();
  std::int64_t sum = 0;
  for (std::size_t gp = 0; gp < flits.size(); ++gp)
    if (rig.graph.ports[gp].kind == topo::PeerKind::Router) sum += flits[gp];
  return sum;
}

TEST(Cns1Network, B22RowMulticastCopiesAtEveryNodeOnTheWayNotAtTheSource) {
  // B22: s = (r, 0), d = (r, 5) in the open dimension: copies at (r, 1) ... (r, 5), none at s; link
  // traversals 5, as for a unicast. Each copy arrives when a unicast to its node would: c + 1 routers.
  const RouterParams r = cns1_router();
  const int row = 3, flits = 3;
  Rig rig(r, true);
  const auto copies = multicast_copies(rig, at(0, row), at(5, row), flits);
  ASSERT_EQ(copies.size(), 5u);
  for (int c = 1; c <= 5; ++c) {
    ASSERT_EQ(copies.count(at(c, row)), 1u) << "no copy at (" << row << ", " << c << ")";
    EXPECT_EQ(copies.at(at(c, row)).first, zero_load(r, c + 1, flits)) << c;
    EXPECT_EQ(copies.at(at(c, row)).second, c + 1) << c;
  }
  EXPECT_EQ(link_traversals(rig), 5 * flits);
  EXPECT_EQ(rig.net.counters().flits_replicated, 4 * flits) << "one copy made at (r, 1) ... (r, 4)";

  Rig unicast(r, true);
  unicast.net.inject(at(0, row), at(5, row), flits, 0, kLow);
  EXPECT_EQ(deliver(unicast.net, 1, kLow, 500), 1);
  EXPECT_EQ(link_traversals(unicast), 5 * flits) << "the multicast costs the unicast's bandwidth";
}

TEST(Cns1Network, B23RingMulticastCoversTheShorterArcAndTwoCoverTheRing) {
  // B23: on the ring of R = 8 a multicast goes the shorter way, at most R / 2 = 4 nodes; a tie (4 each
  // way) goes +1. From (0, c): to (4, c) it covers rows 1..4 going +; to (5, c) rows 7, 6, 5 going -.
  // The two together reach every other node of the ring once.
  const RouterParams r = cns1_router();
  const int col = 2;
  Rig plus(r, true);
  const auto a = multicast_copies(plus, at(col, 0), at(col, 4), 2);
  EXPECT_EQ(a.size(), 4u);
  for (int row = 1; row <= 4; ++row) EXPECT_EQ(a.count(at(col, row)), 1u) << row;
  Rig minus(r, true);
  const auto b = multicast_copies(minus, at(col, 0), at(col, 5), 2);
  EXPECT_EQ(b.size(), 3u);
  for (int row = 5; row <= 7; ++row) {
    ASSERT_EQ(b.count(at(col, row)), 1u) << row;
    EXPECT_EQ(b.at(at(col, row)).first, zero_load(r, 8 - row + 1, 2)) << "over the wrap link " << row;
  }
  std::set<NodeId> ring;
  for (const auto& [v, info] : a) ring.insert(v);
  for (const auto& [v, info] : b) ring.insert(v);
  EXPECT_EQ(ring.size(), 7u);
  EXPECT_EQ(ring.count(at(col, 0)), 0u);
}

TEST(Cns1Network, AMulticastToItselfIsAUnicastToItself) {
  // Note 002 A30, the default: no trip round the ring; the source receives the one copy.
  Rig rig(cns1_router(), true);
  const auto copies = multicast_copies(rig, at(4, 4), at(4, 4), 2);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies.count(at(4, 4)), 1u);
  EXPECT_EQ(link_traversals(rig), 0);
}

}  // namespace
}  // namespace mppnet::net::cylinder_network_test
