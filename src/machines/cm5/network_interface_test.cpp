// machines/cm5/network_interface_test.cpp: address translation, sends split into messages, the send
// FIFO's refusal and the sides each kind of message takes.
#include "machines/cm5/network_interface.hpp"

#include <gtest/gtest.h>

#include "am/machine.hpp"
#include "am/node.hpp"
#include "core/scheduler.hpp"
#include "machines/cm5/node_machine.hpp"

namespace mppnet::machines::cm5::network_interface_test {
namespace {

TEST(AddressMap, RelativeAddressesSkipMappedOutNodesAndAreBoundsChecked) {
  // Paper L139-146: 0-based, contiguous with failed nodes skipped, bounds-checked; physical addresses
  // only for the supervisor.
  const AddressMap map(64, 32, {65, 70});
  EXPECT_EQ(map.size(), 30);
  EXPECT_EQ(map.translate(0), 64);
  EXPECT_EQ(map.translate(1), 66);  // 65 is mapped out
  EXPECT_EQ(map.translate(5), 71);  // and 70
  EXPECT_EQ(map.translate(29), 95);
  EXPECT_FALSE(map.translate(30).has_value());
  EXPECT_FALSE(map.translate(-1).has_value());
  EXPECT_EQ(map.translate(3, /*privileged=*/true), 3);
  EXPECT_EQ(map.relative(66), 1);
  EXPECT_EQ(map.relative(65), -1);
  EXPECT_EQ(map.relative(10), -1);
}

struct Recorder final : net::DeliveryHandler {
  std::vector<std::pair<net::Packet, Picoseconds>> got;
  void on_delivery(net::PacketId, const net::Packet& p, Picoseconds t) override { got.push_back({p, t}); }
};

struct Rig {
  explicit Rig(InterfaceParams ni = {}, int vnets = 2)
      : network([] {
          DataNetworkParams p;
          p.nodes = 64;
          return p;
        }()),
        domain(scheduler.add_domain("network", 25000)),
        interfaces(network, scheduler, domain, AddressMap(0, 64), vnets, ni) {
    interfaces.set_delivery_handler(&recorder);
  }
  DataNetwork network;
  core::Scheduler scheduler;
  core::DomainId domain;
  NetworkInterfaces interfaces;
  Recorder recorder;
};

TEST(NetworkInterfaces, APacketOfMoreThanFiveWordsIsTwoMessagesAnnouncedOnce) {
  Rig rig;
  ASSERT_NE(rig.interfaces.try_send(3, 40, 7, 99, 0), net::kNoPacket);
  rig.scheduler.run_until_time(1000 * 25000);  // 5 chips and two messages: a few hundred cycles
  ASSERT_EQ(rig.recorder.got.size(), 1u);
  EXPECT_EQ(rig.recorder.got[0].first.tag, 99u);
  EXPECT_EQ(rig.recorder.got[0].first.flits, 7);
  EXPECT_EQ(rig.network.ni_sent(3, 0), 2);  // a 5-word and a 2-word message on the left side
  EXPECT_EQ(rig.network.ni_received(40, 0), 2);
}

TEST(NetworkInterfaces, RequestsGoLeftAndRepliesRight) {
  Rig rig;
  rig.interfaces.try_send(1, 2, 5, 0, 0);
  rig.interfaces.try_send(1, 2, 5, 1, 1);
  rig.scheduler.run_until_time(200 * 25000);
  EXPECT_EQ(rig.network.ni_sent(1, 0), 1);
  EXPECT_EQ(rig.network.ni_sent(1, 1), 1);
  EXPECT_EQ(rig.recorder.got.size(), 2u);
}

TEST(NetworkInterfaces, AFullSendFifoDoesNotAcceptTheSend) {
  // A FIFO of 4 messages takes two packets of up to 10 words; the third is not accepted (send-OK
  // false), and nothing of it is sent.
  Rig rig({.send_fifo_messages = 4});
  EXPECT_EQ(rig.interfaces.space_to_send(0, 0), 2);
  EXPECT_NE(rig.interfaces.try_send(0, 9, 10, 0, 0), net::kNoPacket);
  EXPECT_NE(rig.interfaces.try_send(0, 9, 10, 1, 0), net::kNoPacket);
  EXPECT_EQ(rig.interfaces.space_to_send(0, 0), 0);
  EXPECT_EQ(rig.interfaces.try_send(0, 9, 5, 2, 0), net::kNoPacket);
  rig.scheduler.run_until_time(1000 * 25000);
  EXPECT_EQ(rig.recorder.got.size(), 2u);
  EXPECT_EQ(rig.interfaces.space_to_send(0, 0), 2);
}

TEST(NetworkInterfaces, RepliesOnBothSidesTakeTheSideWithRoom) {
  Rig rig({.send_fifo_messages = 8, .requests = Sides::Left, .replies = Sides::Both});
  for (int k = 0; k < 4; ++k) rig.interfaces.try_send(5, 6, 5, k, 1);
  EXPECT_EQ(rig.network.queued(5, 0), 2);
  EXPECT_EQ(rig.network.queued(5, 1), 2);
}

TEST(NetworkInterfaces, OneVirtualNetworkUsesTheLeftSideOnly) {
  Rig rig({}, 1);
  rig.interfaces.try_send(1, 2, 5, 0, 0);
  rig.scheduler.run_until_time(200 * 25000);
  EXPECT_EQ(rig.network.ni_sent(1, 0), 1);
  EXPECT_EQ(rig.network.ni_sent(1, 1), 0);
}

struct Arrival {
  Picoseconds handled_at = -1;
};
void on_arrival(am::Incoming& in) {
  in.node.state<Arrival>().handled_at = in.now();
}

// Node 0 sends node 1 a one-way message at time 0 while node 1 computes for 10,000 cycles (312.5 us).
Picoseconds handled_at(int interrupt_mask) {
  Cm5Config config;
  config.machine.nodes = 32;
  config.interface.interrupt_mask = interrupt_mask;
  Cm5NodeMachine host(config, cm5_am_params());
  std::vector<Arrival> state(32);
  host.machine().attach(state);
  host.machine().run([](am::Node& node) -> am::Task<> {
    if (node.id() == 0) co_await node.notify(1, &on_arrival);
    if (node.id() == 1) {
      co_await node.compute(10000);
      co_await node.poll();
    }
  });
  return state[1].handled_at;
}

TEST(TagMask, AMaskedTagIsFoundByPollingAndAnUnmaskedOneInterrupts) {
  // Paper L268-271: the 16-bit mask indexed by the tag decides. One-way messages carry tag 2.
  const Picoseconds compute_ends = 10000 * 31250;
  const Picoseconds interrupted = handled_at(0xffff);
  const Picoseconds polled = handled_at(0xffff & ~(1 << 2));
  EXPECT_GT(interrupted, 0);
  EXPECT_LT(interrupted, compute_ends);  // during the compute
  EXPECT_GE(polled, compute_ends);       // only at the poll after it
}

struct Replies {
  int count = 0;
};
void on_answer(am::Incoming& in) {
  ++in.node.state<Replies>().count;
}
void on_ask(am::Incoming& in) {
  in.reply(&on_answer, in.arg(0));
}

TEST(Faults, NodeProgramsRunAroundAFailedChipAndWithoutMappedOutNodes) {
  // Paper L288-295: a failed level-2 chip routed around, and the 4 nodes under a failed level-1 chip
  // mapped out: the program sees 28 nodes, every request is answered, no message touches the chip.
  Cm5Config config;
  config.machine.nodes = 32;
  config.faults.failed_chip = {0, 2, 1, 1};
  config.faults.map_out_nodes = {4, 5, 6, 7};
  Cm5NodeMachine host(config, cm5_am_params());
  EXPECT_EQ(host.machine().nodes(), 28);
  std::vector<Replies> state(28);
  host.machine().attach(state);
  host.machine().run([](am::Node& node) -> am::Task<> {
    for (NodeId k = 1; k < 28; ++k) co_await node.request((node.id() + k) % 28, &on_ask, k);
    co_await node.wait_until([&node] { return node.state<Replies>().count == 27; });
  });
  for (const Replies& r : state) EXPECT_EQ(r.count, 27);
  const ChipId failed = failed_chip(config);
  for (int p = 0; p < kChipPorts; ++p) EXPECT_EQ(host.network().port_in(failed, p), 0);
  for (NodeId v = 4; v < 8; ++v) EXPECT_EQ(host.network().ni_sent(v, 0) + host.network().ni_sent(v, 1), 0);
}

}  // namespace
}  // namespace mppnet::machines::cm5::network_interface_test
