// machines/cs2/faults_test.cpp: links named by [faults], what routes cross of them, rebuilt routes.
#include "machines/cs2/faults.hpp"

#include <gtest/gtest.h>

#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/cs2_network.hpp"

namespace mppnet::machines::cs2 {
namespace {

Cs2Config machine64() {
  Cs2Config c;
  c.machine.pes = 64;
  return c;
}

TEST(Cs2Faults, ALinkBetweenSwitchesResolvesToBothDirections) {
  const LayerShape shape = layer_shape(machine64());
  const topo::Graph g = build_layer(shape);
  const LinkRef l = resolve_link(shape, g, {0, 1, 0, 0, 4});
  ASSERT_TRUE(l.valid());
  EXPECT_EQ(l.out_down, g.port_base[l.router] + 4);
  EXPECT_EQ(l.pe, -1);
  // What the bottom switch sends up arrives where the stage-2 switch sends down from, and back.
  EXPECT_EQ(l.in_far, l.out_back);
  EXPECT_EQ(l.in_near, l.out_down);
  EXPECT_FALSE(resolve_link(shape, g, {}).valid());
}

TEST(Cs2Faults, DestRoutesUpFromPe0To16CrossBottomUpPort4) {
  // DEST climbs on up-port 4 + digit(16, 0) = 4 at stage 1.
  const LayerShape shape = layer_shape(machine64());
  const topo::Graph g = build_layer(shape);
  const LinkRef l = resolve_link(shape, g, {0, 1, 0, 0, 4});
  const auto up = policy_route(shape, 0, 16, Policy::Dest, Turn::Minimal, 0, 1);
  EXPECT_EQ(crossing_input(g, 0, up, l), l.in_far);
  // 0 -> 17 climbs on up-port 5: it does not cross.
  EXPECT_EQ(crossing_input(g, 0, policy_route(shape, 0, 17, Policy::Dest, Turn::Minimal, 0, 1), l), -1);
  // 0 -> 1 turns at the bottom switch.
  EXPECT_EQ(crossing_input(g, 0, policy_route(shape, 0, 1, Policy::Dest, Turn::Minimal, 0, 1), l), -1);
}

TEST(Cs2Faults, ARebuiltRouteReachesItsPeWithoutTheFailedLink) {
  const LayerShape shape = layer_shape(machine64());
  const topo::Graph g = build_layer(shape);
  const LinkRef l = resolve_link(shape, g, {0, 1, 0, 0, 4});
  const topo::SourceRoute r = route_avoiding(shape, g, 0, 16, Turn::Minimal, 0, l);
  ASSERT_GT(r.length, 0);
  EXPECT_EQ(follow_route(g, 0, r, [](int) {}), 16);
  EXPECT_EQ(crossing_input(g, 0, r, l), -1);
  EXPECT_EQ(r.length, 5) << "the same turn stage: 2j - 1 bytes for j = 3";
}

TEST(Cs2Faults, APeOwnFailedLinkLeavesItNoRouteInItsLayer) {
  const LayerShape shape = layer_shape(machine64());
  const topo::Graph g = build_layer(shape);
  const LinkRef l = resolve_link(shape, g, {0, 1, 0, 0, 2});
  EXPECT_EQ(l.pe, 2);
  EXPECT_EQ(route_avoiding(shape, g, 2, 40, Turn::Minimal, 0, l).length, 0);
  EXPECT_EQ(route_avoiding(shape, g, 40, 2, Turn::Minimal, 0, l).length, 0);
  EXPECT_GT(route_avoiding(shape, g, 1, 40, Turn::Minimal, 0, l).length, 0);
  // The PE's own injection is detected at the bottom switch's input, its last link at the PE's.
  EXPECT_EQ(crossing_input(g, 2, policy_route(shape, 2, 40, Policy::Dest, Turn::Minimal, 0, 1), l),
            l.in_near);
  EXPECT_EQ(crossing_input(g, 40, policy_route(shape, 40, 2, Policy::Dest, Turn::Minimal, 0, 1), l),
            l.in_far);
}

TEST(Cs2Faults, ResendNackedDeliversEveryPacketOnceDespiteByteErrors) {
  Cs2Config c = machine64();
  c.machine.layers = 1;
  c.faults.link = {0, 1, 0, 0, 4};
  c.faults.byte_error_rate = 0.05;  // 1 - 0.95^32: about 4 in 5 packets of 32 bytes fail
  Cs2Network net(c, /*acks=*/true);
  constexpr int kPackets = 50;
  for (int i = 0; i < kPackets; ++i) net.send_on(0, 0, 16, 32, static_cast<std::uint64_t>(i));
  std::vector<int> delivered(kPackets, 0);
  std::int64_t resent = 0;
  for (int t = 0; t < 1000000 && !net.idle(); ++t) {
    net.step();
    for (const net::PacketId id : net.layer(0).delivered()) {
      ++delivered[net.layer(0).packet(id).tag];
      net.layer(0).release(id);
    }
    resent += net.resend_nacked(0);
  }
  ASSERT_TRUE(net.idle());
  for (int i = 0; i < kPackets; ++i) EXPECT_EQ(delivered[i], 1) << "packet " << i;
  EXPECT_GT(net.corrupted(), 0);
  EXPECT_EQ(resent, net.corrupted());
  EXPECT_EQ(net.layer(0).packets_aborted(), net.corrupted());
  // Every error on the input above bottom switch 0's up-port 4, none elsewhere.
  const auto errors = net.layer(0).input_errors();
  EXPECT_EQ(errors[static_cast<std::size_t>(net.faulty_link().in_far)], net.corrupted());
}

}  // namespace
}  // namespace mppnet::machines::cs2
