// machines/cs2/elan_endpoint_test.cpp: the room the Elans report is the room they take: a PE whose
// stripe's queue is full sends on the other layer, and is refused only when every layer's queue is full.
#include "machines/cs2/elan_endpoint.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cs2 {
namespace {

Cs2Config sixteen() {
  Cs2Config c;
  c.machine.pes = 16;
  check_cs2(c);
  return c;
}

TEST(ElanEndpoint, OneVirtualNetworkTakesWhicheverLayerHasRoom) {
  const Cs2Config c = sixteen();
  Cs2Network net(c, true, c.elan.window);
  core::Scheduler scheduler;
  const core::DomainId domain = scheduler.add_domain("links", c.elite.clock_ps);
  ElanEndpoint endpoint(net, scheduler, domain, {.vnets = 1, .send_queue_packets = 2});
  // PE 0's stripe starts on layer 0; fill that queue behind the endpoint's back.
  net.send_on(0, 0, 15, 32, 0);
  net.send_on(0, 0, 15, 32, 0);
  EXPECT_EQ(endpoint.space_to_send(0, 0), 2);
  EXPECT_NE(endpoint.try_send(0, 15, 32, 1, 0), net::kNoPacket);
  EXPECT_NE(endpoint.try_send(0, 15, 32, 2, 0), net::kNoPacket);
  EXPECT_EQ(net.layer(1).source_queue_length(0, 0), 2) << "both went on layer 1";
  EXPECT_EQ(endpoint.space_to_send(0, 0), 0);
  EXPECT_EQ(endpoint.try_send(0, 15, 32, 3, 0), net::kNoPacket);
}

TEST(ElanEndpoint, TwoVirtualNetworksKeepToTheirLayers) {
  const Cs2Config c = sixteen();
  Cs2Network net(c, true, c.elan.window);
  core::Scheduler scheduler;
  const core::DomainId domain = scheduler.add_domain("links", c.elite.clock_ps);
  ElanEndpoint endpoint(net, scheduler, domain, {.vnets = 2, .send_queue_packets = 2});
  net.send_on(0, 0, 15, 32, 0);
  net.send_on(0, 0, 15, 32, 0);
  EXPECT_EQ(endpoint.space_to_send(0, 0), 0) << "requests never borrow the reply layer";
  EXPECT_EQ(endpoint.try_send(0, 15, 32, 1, 0), net::kNoPacket);
  EXPECT_EQ(endpoint.space_to_send(0, 1), 2);
  EXPECT_NE(endpoint.try_send(0, 15, 32, 2, 1), net::kNoPacket);
}

}  // namespace
}  // namespace mppnet::machines::cs2
