// machines/cm5/fetch_deadlock.cpp: the request flood of the fetch-deadlock experiment.
#include "machines/cm5/fetch_deadlock.hpp"

#include <vector>

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

constexpr int kNodes = 64;
constexpr int kRequests = 200;

}  // namespace

std::int64_t request_flood(bool separate, Sides replies) {
  Cm5Config config;
  config.machine.nodes = kNodes;
  config.interface.replies = replies;
  config.data_network.ni_receive_messages = 1;
  am::AmParams am = cm5_am_params();
  am.separate_vnets = separate;
  am.send_queue_packets = 1;
  am.receive_queue_packets = 1;
  Cm5NodeMachine host(config, am);
  std::vector<Flood> state(kNodes);
  host.machine().attach(state);
  try {
    host.machine().run([](am::Node& node) -> am::Task<> {
      auto& s = node.state<Flood>();
      for (int i = 0; i < kRequests; ++i) {
        co_await node.request((node.id() + 1 + i % (kNodes - 1)) % kNodes, &on_request, i, 1, 2, 3);
      }
      co_await node.wait_until([&s] { return s.replies == kRequests; });
    });
  } catch (const am::DeadlockError&) {
    return -1;
  }
  std::int64_t served = 0;
  for (const Flood& s : state) served += s.served;
  return served;
}

}  // namespace mppnet::machines::cm5
