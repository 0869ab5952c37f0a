// machines/cs2/elan_test.cpp: the ack round trip against its closed form, the packet size rule, the
// window, the window-2 throughput and determinism.
#include "machines/cs2/elan.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mppnet::machines::cs2 {
namespace {

Cs2Config one_layer(int pes) {
  Cs2Config c;
  c.machine.pes = pes;
  c.machine.layers = 1;
  return c;
}

// Cycles from a one-byte packet leaving PE 0 to its ack arriving there, on an idle layer.
std::int64_t simulated_round_trip(Cs2Network& net, NodeId dest) {
  const net::PacketId id = net.send_on(0, 0, dest, 1, 0, 0);
  const Cycle sent = net.layer(0).packet(id).created;
  for (int t = 0; t < 10000; ++t) {
    net.step();
    for (const net::PacketId d : net.layer(0).delivered()) net.layer(0).release(d);
    if (!net.layer(0).acknowledged().empty()) {
      const std::int64_t rtt = net.layer(0).acknowledged()[0].arrives - sent;
      for (int s = 0; s < 64; ++s) net.step();
      return rtt;
    }
  }
  return -1;
}

TEST(Elan, AckRoundTripOfAZeroBodyPacketIsTheClosedForm) {
  // 12h + 2(h+1)w + c_dst (note §5 R5) with w = 1 and c_dst = 1 (the destination latches the byte):
  // h = 1, 3, 5 on 64 PEs (PE 0 to 1, 4, 16) give 17, 45, 73 cycles.
  Cs2Network net(one_layer(64), true);
  EXPECT_EQ(simulated_round_trip(net, 1), 17);
  EXPECT_EQ(simulated_round_trip(net, 4), 45);
  EXPECT_EQ(simulated_round_trip(net, 16), 73);
  // Without wire delay and with 3 cycles of turnaround: 12h + 1 + 3 = 16, 40, 64.
  Cs2Config c = one_layer(64);
  c.elite.wire_cycles = 0;
  c.elan.turnaround_cycles = 3;
  Cs2Network bare(c, true);
  EXPECT_EQ(simulated_round_trip(bare, 1), 16);
  EXPECT_EQ(simulated_round_trip(bare, 4), 40);
  EXPECT_EQ(simulated_round_trip(bare, 16), 64);
  for (const int h : {1, 3, 5}) EXPECT_EQ(round_trip_cycles(c, h), 12 * h + 4);
}

TEST(Elan, DynamicPacketsCoverTheRoundTripWithinTheirBounds) {
  Cs2Config c;  // overhead 13 bytes, w = 1
  // RTT(1) = 17: 17 - 13 = 4, rounded to 8, raised to Lmin = 32.
  EXPECT_EQ(payload_bytes(c, 1), 32);
  // RTT(3) = 45: 32 exactly.
  EXPECT_EQ(payload_bytes(c, 3), 32);
  // RTT(5) = 73: 60, rounded up to 64; RTT(11) = 157: 144.
  EXPECT_EQ(payload_bytes(c, 5), 64);
  EXPECT_EQ(payload_bytes(c, 11), 144);
  // 10-cycle wires: RTT(11) = 132 + 240 + 1 = 373, 360 is capped at Lmax = 256.
  c.elite.wire_cycles = 10;
  EXPECT_EQ(payload_bytes(c, 11), 256);
  c.elan.sizing = Sizing::Fixed;
  c.elan.fixed_payload_bytes = 40;
  EXPECT_EQ(payload_bytes(c, 11), 40);
}

MessageRecord stream(const Cs2Config& c, NodeId dest, std::int64_t bytes) {
  Cs2Network net(c, true);
  Elan elan(net);
  elan.send_message(0, dest, bytes);
  EXPECT_TRUE(elan.run(1'000'000));
  return elan.message(0);
}

TEST(Elan, WindowBoundsThePacketsOutstanding) {
  const MessageRecord two = stream(one_layer(64), 16, 8192);
  EXPECT_TRUE(two.done());
  EXPECT_EQ(two.max_outstanding, 2);
  EXPECT_EQ(two.outstanding, 0);
  Cs2Config c = one_layer(64);
  c.elan.window = 1;
  EXPECT_EQ(stream(c, 16, 8192).max_outstanding, 1);
  // Every packet is delivered before its ack arrives, and acks arrive in order.
  for (int i = 0; i < two.packets(); ++i) {
    EXPECT_LT(two.delivered[i], two.acked[i]);
    if (i > 0) {
      EXPECT_LT(two.acked[i - 1], two.acked[i]);
    }
  }
}

TEST(Elan, WindowTwoThroughputFollowsTheFormula) {
  // Dynamic sizing at h = 3: 32 + 13 = 45 bytes = RTT(3), the link is full.
  EXPECT_DOUBLE_EQ(steady_link_fraction(stream(one_layer(64), 4, 8192), one_layer(64)), 1.0);
  // Fixed 32-byte payloads at h = 5: 2 x 45 / (45 + 73) = 90 / 118 of the link.
  Cs2Config c = one_layer(64);
  c.elan.sizing = Sizing::Fixed;
  EXPECT_NEAR(steady_link_fraction(stream(c, 16, 8192), c), 90.0 / 118.0, 1e-12);
  EXPECT_NEAR(window2_link_fraction(c, 45, 5), 90.0 / 118.0, 1e-12);
  // Payload at full overlap: 32 of every 45 bytes at 70 MHz = 49.78 MB/s.
  EXPECT_NEAR(steady_payload_mb_per_s(stream(one_layer(64), 4, 8192), one_layer(64)), 32.0 / 45 * 1e6 / 14286,
              1e-9);
}

TEST(Elan, SameSeedSameTimes) {
  Cs2Config c = one_layer(64);
  c.routing.policy = Policy::Random;
  c.run.seed = 7;
  const MessageRecord a = stream(c, 37, 4000), b = stream(c, 37, 4000);
  EXPECT_EQ(a.delivered, b.delivered);
  EXPECT_EQ(a.acked, b.acked);
}

}  // namespace
}  // namespace mppnet::machines::cs2
