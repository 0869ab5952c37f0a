// am/determinism_test.cpp: a run is a function of its inputs and seed.
#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"
#include "topo/fat_tree.hpp"

namespace mppnet::am::determinism_test {
namespace {

struct Log {
  std::vector<Picoseconds> arrivals;
  int replies = 0;
};
void on_reply(Incoming& in) {
  ++in.node.state<Log>().replies;
}
void on_request(Incoming& in) {
  in.node.state<Log>().arrivals.push_back(in.now());
  in.reply(&on_reply);
}

// A 4-ary 3-level fat tree picks up-links at random, from the seed; every node sends 30 requests to
// pseudo-random nodes. The same seed gives identical handler times everywhere.
std::vector<Log> run_tree(std::uint64_t seed) {
  const topo::TopologyParams t =
      topo::topology_of(topo::FatTreeParams{.n = 3, .children = 4, .parents = {4, 4, 4}});
  auto sim = testing::make(t, testing::router(4, 4), AmParams{}, seed);
  std::vector<Log> logs(64);
  sim->machine.attach(logs);
  sim->machine.run([](Node& node) -> Task<> {
    auto& s = node.state<Log>();
    for (int i = 0; i < 30; ++i) co_await node.request((node.id() * 17 + i * 29 + 5) % 64, &on_request);
    co_await node.wait_until([&s] { return s.replies == 30; });
  });
  return logs;
}

TEST(AmDeterminism, SameSeedSameHandlerTimes) {
  const auto a = run_tree(7), b = run_tree(7);
  for (int v = 0; v < 64; ++v) EXPECT_EQ(a[v].arrivals, b[v].arrivals) << v;
}

}  // namespace
}  // namespace mppnet::am::determinism_test
