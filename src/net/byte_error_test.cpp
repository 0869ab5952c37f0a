// net/byte_error_test.cpp: a packet marked corrupt (Network::mark_corrupt) crosses its path, is aborted
// at its destination instead of delivered, counts one error at the marked input and is NACKed.
#include <gtest/gtest.h>

#include <vector>

#include "net/built_network.hpp"
#include "net/network.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::net {
namespace {

constexpr AckParams kAcks{.enabled = true, .router_cycles = 5, .channel_cycles = 1, .turnaround_cycles = 2};

TEST(ByteErrors, ACorruptPacketIsAbortedCountedOnceAndNacked) {
  BuiltNetwork b(topo::testing::mesh(4, 2), RouterParams{}, 1);
  Network& net = b.flit();
  net.enable_acks(kAcks);
  EXPECT_TRUE(net.input_errors().empty()) << "no counters until the first fault";
  const PacketId bad = net.inject(0, 15, 6, 1);
  net.inject(0, 15, 6, 2);
  net.mark_corrupt(bad, 7);
  std::vector<std::uint64_t> delivered;
  std::vector<Ack> acks;
  for (int t = 0; t < 2000 && !net.idle(); ++t) {
    net.step();
    for (const PacketId id : net.delivered()) {
      delivered.push_back(net.packet(id).tag);
      net.release(id);
    }
    for (const Ack& a : net.acknowledged()) acks.push_back(a);
  }
  ASSERT_TRUE(net.idle()) << "the aborted packet's flits and ack left the network";
  EXPECT_EQ(delivered, (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(net.packets_aborted(), 1);
  ASSERT_EQ(net.input_errors().size(), static_cast<std::size_t>(net.input_count()));
  std::int64_t errors = 0;
  for (const std::int64_t e : net.input_errors()) errors += e;
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(net.input_errors()[7], 1);
  ASSERT_EQ(acks.size(), 2u);
  for (const Ack& a : acks) EXPECT_EQ(a.nack, a.tag == 1) << "tag " << a.tag;
  // Its flits crossed the whole path: as many were drained as were injected.
  EXPECT_EQ(net.counters().flits_ejected, 12);
}

}  // namespace
}  // namespace mppnet::net
