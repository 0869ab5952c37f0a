// machines/cm5/data_network_exactness_test.cpp: sleeping chips until they could move changes nothing.
//
// The model looks at a chip only when one of its messages could move (data_network.hpp). Looking at every
// chip that holds a message at every cycle must give the same run, to the cycle and the message: a
// regression test for every shortcut of that bookkeeping.
#include <gtest/gtest.h>

#include "am/machine.hpp"
#include "am/node.hpp"
#include "machines/cm5/node_machine.hpp"
#include "machines/cm5/streams.hpp"

namespace mppnet::machines::cm5 {
namespace {

struct Count {
  int replies = 0;
};
void on_reply(am::Incoming& in) {
  ++in.node.state<Count>().replies;
}
void on_request(am::Incoming& in) {
  in.reply(&on_reply, in.arg(0), 1, 2, 3);
}

// Every node asks every other node 4 times, with send and receive queues of 2 packets: receivers hold
// their FIFOs, chips block, injections wait.
Picoseconds alltoall_time(int nodes, bool every_cycle, bool report_room = true, int interrupt_mask = 0xffff) {
  Cm5Config config;
  config.machine.nodes = nodes;
  config.data_network.visit_every_cycle = every_cycle;
  config.interface.report_room = report_room;
  config.interface.interrupt_mask = interrupt_mask;
  am::AmParams am = cm5_am_params();
  am.send_queue_packets = 2;
  am.receive_queue_packets = 2;
  Cm5NodeMachine host(config, am);
  std::vector<Count> state(nodes);
  host.machine().attach(state);
  host.machine().run([nodes](am::Node& node) -> am::Task<> {
    for (int k = 0; k < 4 * (nodes - 1); ++k) {
      co_await node.request((node.id() + 1 + k % (nodes - 1)) % nodes, &on_request, k, 0, 0, 0);
    }
    co_await node.wait_until([&node, nodes] { return node.state<Count>().replies == 4 * (nodes - 1); });
  });
  return host.machine().totals().finish_ps;
}

TEST(DataNetworkExactness, ANodeProgramRunsTheSameWhenEveryChipIsLookedAtEveryCycle) {
  // All-to-all on 64 nodes: receivers that hold their FIFOs, blocked chips, injections that wait.
  EXPECT_EQ(alltoall_time(64, true), alltoall_time(64, false));
}

TEST(DataNetworkExactness, ANodeProgramRunsTheSameWhenWaitingSendersArePolledEveryCycle) {
  // Senders wait on full send FIFOs, and handlers wait for room for their replies; with interrupts, by
  // polling only (mask 0), and replies by polling with requests interrupting (mask 1).
  for (const int mask : {0xffff, 0, 1}) {
    EXPECT_EQ(alltoall_time(64, false, true, mask), alltoall_time(64, false, false, mask)) << "mask " << mask;
  }
}

TEST(DataNetworkExactness, SaturatedStreamsRunTheSameWhenEveryChipIsLookedAtEveryCycle) {
  const auto run = [](bool every_cycle) {
    DataNetworkParams p;
    p.nodes = 256;
    p.visit_every_cycle = every_cycle;
    DataNetwork net(p);
    const Pattern uniform = [](NodeId src, core::RandomStream& r) -> NodeId {
      const auto d = static_cast<NodeId>(r.below(255));
      return d >= src ? d + 1 : d;
    };
    const StreamResult s = run_streams(net, uniform, {.warmup_cycles = 500, .measure_cycles = 3000}, 3);
    return std::make_pair(s.nibbles, s.received_nibbles);
  };
  EXPECT_EQ(run(true), run(false));
}

}  // namespace
}  // namespace mppnet::machines::cm5
