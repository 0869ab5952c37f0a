// am/one_way_test.cpp: one-way active messages (notify) are handled without reply room and may not reply.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am::one_way_test {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

struct Got {
  int count = 0;
};

void on_note(Incoming& in) {
  ++in.node.state<Got>().count;
}
void on_note_that_replies(Incoming& in) {
  in.reply(&on_note);
}

AmParams tiny_queues() {
  AmParams a;
  a.send_queue_packets = 1;
  a.receive_queue_packets = 1;
  return a;
}

// Every node sends every other 20 messages whose handlers do not reply, with queues of one packet and
// 1-VC, 2-flit buffers.
void flood(SimulatedMachine& sim, bool one_way) {
  sim.machine.run([one_way](Node& node) -> Task<> {
    for (int i = 0; i < 15 * 20; ++i) {
      const NodeId dest = (node.id() + 1 + i % 15) % 16;
      if (one_way) {
        co_await node.notify(dest, &on_note, i);
      } else {
        co_await node.request(dest, &on_note, i);
      }
    }
    co_await node.wait_until([&node] { return node.state<Got>().count == 15 * 20; });
  });
}

TEST(AmOneWay, AOneWayFloodArrivesOnOneSharedNetworkWithTinyQueues) {
  AmParams a = tiny_queues();
  a.separate_vnets = false;
  auto sim = make(mesh(4), router(1, 2), a);
  std::vector<Got> got(16);
  sim->machine.attach(got);
  flood(*sim, true);
  for (const Got& g : got) EXPECT_EQ(g.count, 15 * 20);
  EXPECT_EQ(sim->machine.totals().requests, 16 * 15 * 20);  // counted with the requests
}

TEST(AmOneWay, AOneWayHandlerThatRepliesIsAnError) {
  auto sim = make(mesh(2), router(2, 2), {});
  std::vector<Got> got(4);
  sim->machine.attach(got);
  try {
    sim->machine.run([](Node& node) -> Task<> {
      if (node.id() == 0) co_await node.notify(1, &on_note_that_replies);
    });
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("the handler of a one-way message (notify) replied"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mppnet::am::one_way_test
