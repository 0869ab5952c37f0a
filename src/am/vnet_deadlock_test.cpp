// am/vnet_deadlock_test.cpp: requests and replies on separate virtual networks always complete; on one
// shared network the same load can deadlock, and the watchdog says so.
#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am::vnet_deadlock_test {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

struct Flood {
  std::int64_t replies = 0;
  std::int64_t requests_served = 0;
};

void on_reply(Incoming& in) {
  ++in.node.state<Flood>().replies;
}
void on_request(Incoming& in) {
  ++in.node.state<Flood>().requests_served;
  in.reply(&on_reply, in.arg(0), in.arg(1), in.arg(2), in.arg(3));
}

// Every node sends `per_node` 4-word requests without waiting for replies, to `target(node, i)`, then
// waits for all its replies. Tiny buffers (2 flits a VC, 1 VC per network), send and receive queues of
// one packet: the adversarial case.
template <class Target>
void flood(SimulatedMachine& sim, std::vector<Flood>& st, int per_node, Target target) {
  sim.machine.attach(st);
  sim.machine.run([per_node, target](Node& node) -> Task<> {
    auto& s = node.state<Flood>();
    for (int i = 0; i < per_node; ++i) co_await node.request(target(node, i), &on_request, i, 1, 2, 3);
    co_await node.wait_until([&s, per_node] { return s.replies == per_node; });
  });
}

AmParams tiny_queues(bool separate) {
  AmParams a;
  a.separate_vnets = separate;
  a.send_queue_packets = 1;
  a.receive_queue_packets = 1;
  return a;
}

TEST(AmVnets, ManyToOneCompletesOnSeparateNetworksWithTinyBuffers) {
  auto sim = make(mesh(4), router(2, 2), tiny_queues(true));
  std::vector<Flood> st(16);
  flood(*sim, st, 20, [](Node&, int) { return 0; });
  // Node 0 served every request, its own included (loopback); every node got all its replies.
  EXPECT_EQ(st[0].requests_served, 16 * 20);
  for (const auto& s : st) EXPECT_EQ(s.replies, 20);
}

TEST(AmVnets, AllToAllFloodCompletesOnSeparateNetworks) {
  auto sim = make(mesh(4), router(2, 2), tiny_queues(true));
  std::vector<Flood> st(16);
  flood(*sim, st, 60, [](Node& n, int i) { return (n.id() + 1 + i % 15) % 16; });
  std::int64_t served = 0;
  for (const auto& s : st) served += s.requests_served;
  EXPECT_EQ(served, 16 * 60);
}

// The negative control: the same flood with requests and replies sharing one network. A node whose
// reply cannot enter its full send queue stops handling requests, its receive queue fills, it holds
// ejection, and the requests backed up in the network block the replies that would free the queues.
TEST(AmVnets, OneSharedNetworkDeadlocksAndTheWatchdogReportsIt) {
  auto sim = make(mesh(4), router(1, 2), tiny_queues(false));
  std::vector<Flood> st(16);
  try {
    flood(*sim, st, 60, [](Node& n, int i) { return (n.id() + 1 + i % 15) % 16; });
    FAIL() << "the shared network did not deadlock";
  } catch (const DeadlockError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("deadlock: no flit moved for 2000 network cycles"), std::string::npos) << what;
    EXPECT_NE(what.find("blocked input VCs"), std::string::npos) << what;
  }
}

// Under cut-through a head waits for a VC with room for its whole packet: a store of 64 bytes is one
// packet of 4 header + 4 argument + 64 data bytes = 18 flits, which never enters 8-flit buffers. The
// network holds no flit, only the source queue shows it, and the watchdog must still stop the run
// instead of stepping the network for ever.
TEST(AmWatchdog, PacketThatNoVcTakesUnderCutThroughIsReportedNotHung) {
  net::RouterParams r = router(2, 8);
  r.switching = net::Switching::VirtualCutThrough;
  AmParams a;
  a.packet_payload_bytes = 64;
  auto sim = make(mesh(2), r, a, 1, 500);
  try {
    sim->machine.run([](Node& node) -> Task<> {
      const std::uint32_t buf = node.allocate(64);
      if (node.id() == 0) co_await node.store(1, buf, buf, 64);
    });
    FAIL() << "no error";
  } catch (const DeadlockError& e) {
    EXPECT_NE(std::string(e.what()).find("1 packets waiting in source queues that no VC takes"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mppnet::am::vnet_deadlock_test
