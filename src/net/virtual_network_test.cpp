// net/virtual_network_test.cpp: virtual networks are independent: a network whose traffic cannot be
// ejected fills up and stops, and the other keeps delivering through the same routers and links.
#include <gtest/gtest.h>

#include "net/built_network.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::virtual_network_test {
namespace {

constexpr int kRequests = 0, kReplies = 1;

struct Rig : BuiltNetwork {
  Rig(const topo::TopologyParams& t, const RouterParams& r) : BuiltNetwork(t, r, 1) {}
  Network& net = flit();
};

// Steps until `count` packets were delivered or `limit` cycles passed; returns the packets delivered.
int deliver(Network& net, int count, Cycle limit) {
  int got = 0;
  for (Cycle t = 0; t < limit && got < count; ++t) {
    net.step();
    for (PacketId id : net.delivered()) {
      net.release(id);
      ++got;
    }
  }
  return got;
}

TEST(VirtualNetworks, AHeldNetworkBlocksOnlyItself) {
  RouterParams r;
  r.vcs = 2;
  r.vnets = 2;
  r.buffer_flits = 2;  // tiny buffers: the held network backs up into every router on the way
  Rig rig(topo::testing::mesh(4, 2), r);
  const NodeId hot = 5;
  rig.net.hold_ejection(hot, kRequests, true);
  // Every other node sends 8 four-flit requests to the hot node: far more than the buffers hold.
  for (NodeId v = 0; v < 16; ++v)
    if (v != hot)
      for (int k = 0; k < 8; ++k) rig.net.inject(v, hot, 4, 0, kRequests);
  EXPECT_EQ(deliver(rig.net, 1, 2000), 0);  // nothing of the held network gets out
  EXPECT_GT(rig.net.source_queue_length(0, kRequests), 0);
  EXPECT_EQ(rig.net.source_queue_length(0, kReplies), 0);

  // Replies through the same congested routers, to the hot node and from it, all arrive.
  for (NodeId v = 0; v < 16; ++v) {
    rig.net.inject(v, hot, 4, 0, kReplies);
    rig.net.inject(hot, v, 4, 0, kReplies);
  }
  EXPECT_EQ(deliver(rig.net, 32, 2000), 32);

  // Released, the requests drain too, and every credit comes home.
  rig.net.hold_ejection(hot, kRequests, false);
  EXPECT_EQ(deliver(rig.net, 15 * 8, 20000), 15 * 8);
  for (int t = 0; t < 8; ++t) rig.net.step();
  EXPECT_TRUE(rig.net.idle());
  EXPECT_EQ(rig.net.credit_deficit(), 0);
}

TEST(VirtualNetworks, OneNetworkForBothKindsBlocksBoth) {
  // The negative control: with one virtual network, the replies queue behind the held requests.
  RouterParams r;
  r.vcs = 2;
  r.buffer_flits = 2;
  Rig rig(topo::testing::mesh(4, 2), r);
  const NodeId hot = 5;
  rig.net.hold_ejection(hot, 0, true);
  for (NodeId v = 0; v < 16; ++v)
    if (v != hot)
      for (int k = 0; k < 8; ++k) rig.net.inject(v, hot, 4, 0, 0);
  EXPECT_EQ(deliver(rig.net, 1, 2000), 0);
  // A packet from a corner to the hot node's neighbour must share the blocked VCs on the way.
  int stuck = 0;
  for (NodeId v : {0, 3, 12, 15}) {
    rig.net.inject(v, hot, 1, 0, 0);
    ++stuck;
  }
  EXPECT_EQ(deliver(rig.net, stuck, 2000), 0);
  EXPECT_LT(rig.net.last_progress(), rig.net.now() - 1000) << "the network should be stalled";
}

TEST(VirtualNetworks, SourceQueuesArePerNetwork) {
  RouterParams r;
  r.vcs = 4;
  r.vnets = 2;
  Rig rig(topo::testing::torus(4, 2), r);
  rig.net.inject(0, 1, 2, 0, kRequests);
  rig.net.inject(0, 1, 2, 0, kRequests);
  rig.net.inject(0, 2, 2, 0, kReplies);
  EXPECT_EQ(rig.net.source_queue_length(0, kRequests), 2);
  EXPECT_EQ(rig.net.source_queue_length(0, kReplies), 1);
  EXPECT_EQ(rig.net.source_queue_length(0), 3);
  EXPECT_EQ(deliver(rig.net, 3, 200), 3);
}

}  // namespace
}  // namespace mppnet::net::virtual_network_test
