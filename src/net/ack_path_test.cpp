// net/ack_path_test.cpp: acknowledgements return after the delay of their path, once per packet, in a
// fixed order, and leave the rest of the network's behaviour alone.
#include "net/ack_path.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "net/built_network.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::net {
namespace {

constexpr AckParams kElite{.enabled = true, .router_cycles = 5, .channel_cycles = 1, .turnaround_cycles = 2};

TEST(AckPath, DelayIsTurnaroundPlusRoutersPlusChannels) {
  AckPath path;
  path.configure(kElite);
  // 2 + 3 x 5 + 4 x 1 = 21 cycles for 3 routers (4 channels between the two nodes).
  EXPECT_EQ(path.delay(3), 21);
  EXPECT_EQ(path.delay(0), 3);
  // Never less than a cycle, even with every delay zero.
  path.configure({.enabled = true});
  EXPECT_EQ(path.delay(4), 1);
}

TEST(AckPath, AcksLeaveInArrivalOrderAndTiesInPostOrder) {
  AckPath path;
  path.configure({.enabled = true, .router_cycles = 1});
  Packet far, near;
  far.hops = 5;
  near.hops = 1;
  path.post(7, far, 0);   // arrives at 5
  path.post(8, near, 3);  // arrives at 4
  path.post(9, near, 3);  // arrives at 4, posted later
  std::vector<PacketId> order;
  for (Cycle t = 1; t <= 5; ++t) {
    path.collect(t);
    for (const Ack& a : path.arrived()) {
      EXPECT_EQ(a.arrives, t);
      order.push_back(a.packet);
    }
  }
  EXPECT_EQ(order, (std::vector<PacketId>{8, 9, 7}));
  EXPECT_EQ(path.in_flight(), 0);
}

// Three copies of one multicast, drained at 10, 12 and 11 through 4, 1 and 3 routers: one record, posted
// after the third copy, arriving at max(10 + 4, 12 + 1, 11 + 3) = 14 (one cycle per router), NACK
// because the second copy was refused.
TEST(AckPath, AMergeIsOneAckAtTheLatestArrivalOfItsCopies) {
  AckPath path;
  path.configure({.enabled = true, .router_cycles = 1});
  Packet p;
  p.src = 2;
  p.tag = 9;
  p.ack_group = path.open_merge(5, p);
  path.add_copies(p.ack_group, 2);
  p.hops = 4;
  path.post(5, p, 10);
  p.hops = 1;
  path.post(6, p, 12, true);
  EXPECT_EQ(path.in_flight(), 1) << "a merge waiting for a copy counts as in flight";
  p.hops = 3;
  path.post(7, p, 11);
  std::vector<Ack> got;
  for (Cycle t = 11; t <= 20; ++t) {
    path.collect(t);
    for (const Ack& a : path.arrived()) got.push_back(a);
  }
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].packet, 5u);
  EXPECT_EQ(got[0].arrives, 14);
  EXPECT_EQ(got[0].delivered, 12);
  EXPECT_EQ(got[0].copies, 3);
  EXPECT_TRUE(got[0].nack);
  EXPECT_EQ(path.in_flight(), 0);
}

// On a 4x4 mesh with dimension-order routing, a packet from node 0 to node 15 passes 7 routers. Its ack
// reaches node 0 at tail drained + 2 + 7 x 5 + 8 x 1 = tail + 45, and every packet has exactly one ack.
TEST(AckPath, EveryPacketOnAMeshIsAcknowledgedOnceAfterItsPathDelay) {
  BuiltNetwork b(topo::testing::mesh(4, 2), RouterParams{}, 1);
  Network& net = b.flit();
  net.enable_acks(kElite);
  std::vector<Packet> delivered;
  std::vector<Ack> acks;
  for (NodeId d = 1; d < 16; ++d) net.inject(0, d, 4, static_cast<std::uint64_t>(d));
  for (int t = 0; t < 2000 && !net.idle(); ++t) {
    net.step();
    for (const PacketId id : net.delivered()) {
      delivered.push_back(net.packet(id));
      net.release(id);
    }
    for (const Ack& a : net.acknowledged()) {
      EXPECT_EQ(a.arrives, net.now() - 1) << "an ack is listed in the step of its arrival";
      acks.push_back(a);
    }
  }
  ASSERT_TRUE(net.idle());
  ASSERT_EQ(acks.size(), 15u);
  ASSERT_EQ(delivered.size(), 15u);
  for (const Ack& a : acks) {
    const Packet& p = delivered[a.tag - 1];
    ASSERT_EQ(p.tag, a.tag);
    EXPECT_EQ(a.src, 0);
    EXPECT_EQ(a.dest, p.dest);
    EXPECT_EQ(a.delivered, p.delivered);
    EXPECT_EQ(a.arrives - a.delivered, 2 + 5 * p.hops + (p.hops + 1)) << "to node " << p.dest;
  }
  const auto to15 = std::find_if(acks.begin(), acks.end(), [](const Ack& a) { return a.dest == 15; });
  ASSERT_NE(to15, acks.end());
  EXPECT_EQ(to15->hops, 7);
  EXPECT_EQ(to15->arrives - to15->delivered, 45);
}

// The ack path changes no flit's timing: the same traffic with and without it delivers every packet in
// the same cycle.
TEST(AckPath, AcksChangeNoDelivery) {
  const auto run = [](bool acks) {
    BuiltNetwork b(topo::testing::torus(4, 2), RouterParams{}, 3);
    Network& net = b.flit();
    if (acks) net.enable_acks(kElite);
    std::vector<Cycle> times;
    for (NodeId s = 0; s < 16; ++s)
      for (NodeId d = 0; d < 16; d += 3) net.inject(s, d, 1 + (s + d) % 7, 0);
    for (int t = 0; t < 20000 && !net.idle(); ++t) {
      net.step();
      for (const PacketId id : net.delivered()) {
        times.push_back(net.packet(id).delivered);
        net.release(id);
      }
    }
    return times;
  };
  const std::vector<Cycle> with = run(true), without = run(false);
  EXPECT_EQ(with.size(), 16u * 6u);
  EXPECT_EQ(with, without);
}

// With a window of w, a source starts its k-th packet (k >= w) in the cycle the ack of its (k-w)-th
// arrives, when it has nothing else to wait for: node 0 of a 4x4 mesh sends five
// packets to node 15 (7 routers: acks 45 cycles after each tail) and nothing else moves.
TEST(AckPath, AWindowHoldsEachPacketUntilAnAckFreesAPlace) {
  for (const int window : {1, 2}) {
    BuiltNetwork b(topo::testing::mesh(4, 2), RouterParams{}, 1);
    Network& net = b.flit();
    AckParams p = kElite;
    p.window = window;
    net.enable_acks(p);
    for (std::uint64_t k = 0; k < 5; ++k) net.inject(0, 15, 4, k);
    std::vector<Cycle> injected(5, -1), acked(5, -1);
    for (int t = 0; t < 5000 && !net.idle(); ++t) {
      net.step();
      for (const PacketId id : net.delivered()) {
        injected[net.packet(id).tag] = net.packet(id).injected;
        net.release(id);
      }
      for (const Ack& a : net.acknowledged()) acked[a.tag] = a.arrives;
    }
    ASSERT_TRUE(net.idle());
    for (int k = window; k < 5; ++k) {
      ASSERT_GE(acked[k - window], 0);
      // An ack frees its place at the start of the cycle it arrives in, and the waiting head leaves then.
      EXPECT_EQ(injected[k], acked[k - window]) << "window " << window << ", packet " << k;
    }
  }
}

// Without a window nothing waits for acks: five packets leave back to back.
TEST(AckPath, WithoutAWindowPacketsLeaveBackToBack) {
  BuiltNetwork b(topo::testing::mesh(4, 2), RouterParams{}, 1);
  Network& net = b.flit();
  net.enable_acks(kElite);
  for (std::uint64_t k = 0; k < 5; ++k) net.inject(0, 15, 4, k);
  std::vector<Cycle> injected(5, -1);
  for (int t = 0; t < 5000 && !net.idle(); ++t) {
    net.step();
    for (const PacketId id : net.delivered()) {
      injected[net.packet(id).tag] = net.packet(id).injected;
      net.release(id);
    }
  }
  for (int k = 1; k < 5; ++k) EXPECT_EQ(injected[k], injected[k - 1] + 4) << "packet " << k;
}

}  // namespace
}  // namespace mppnet::net
