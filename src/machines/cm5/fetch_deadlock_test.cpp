// machines/cm5/fetch_deadlock_test.cpp: the paper's fetch-deadlock and its left/right cure (note 000
// V22, paper L307-337), with node programs on the CM-5 model.
#include <gtest/gtest.h>

#include "am/machine.hpp"
#include "am/node.hpp"
#include "machines/cm5/node_machine.hpp"

namespace mppnet::machines::cm5 {
namespace {

struct Flood {
  std::int64_t replies = 0;
  std::int64_t served = 0;
};

void on_reply(am::Incoming& in) {
  ++in.node.state<Flood>().replies;
}
void on_request(am::Incoming& in) {
  ++in.node.state<Flood>().served;
  in.reply(&on_reply, in.arg(0), in.arg(1), in.arg(2), in.arg(3));
}

// Every node of a 64-node CM-5 sends 200 requests to the others in turn without waiting, then waits for
// its replies; send and receive queues of one message (constant-size buffers), so a server whose reply
// cannot leave stops reading requests.
std::int64_t flood(bool separate, Sides replies) {
  Cm5Config config;
  config.machine.nodes = 64;
  config.interface.replies = replies;
  config.data_network.ni_receive_messages = 1;
  am::AmParams am = cm5_am_params();
  am.separate_vnets = separate;
  am.send_queue_packets = 1;
  am.receive_queue_packets = 1;
  Cm5NodeMachine host(config, am);
  std::vector<Flood> state(64);
  host.machine().attach(state);
  host.machine().run([](am::Node& node) -> am::Task<> {
    auto& s = node.state<Flood>();
    for (int i = 0; i < 200; ++i)
      co_await node.request((node.id() + 1 + i % 63) % 64, &on_request, i, 1, 2, 3);
    co_await node.wait_until([&s] { return s.replies == 200; });
  });
  std::int64_t served = 0;
  for (const Flood& s : state) served += s.served;
  return served;
}

TEST(FetchDeadlock, RequestsAndRepliesOnOneSideDeadlock) {
  // (a): every reply waits behind requests on the same side, which wait for servers that wait to reply.
  EXPECT_THROW(flood(false, Sides::Right), am::DeadlockError);
}

TEST(FetchDeadlock, RequestsLeftAndRepliesRightAlwaysFinish) {
  EXPECT_EQ(flood(true, Sides::Right), 64 * 200);  // (b)
}

TEST(FetchDeadlock, RequestsLeftAndRepliesOnBothSidesFinish) {
  EXPECT_EQ(flood(true, Sides::Both), 64 * 200);  // (c): replies may use both sides (L330-332)
}

}  // namespace
}  // namespace mppnet::machines::cm5
