// net/up_routing_test.cpp: the fat tree's up-routing choices in the network: load-blind random, and
// adaptive, which takes the parent whose channel has the most credits.
#include <gtest/gtest.h>

#include <set>

#include "core/rng.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/fat_tree.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net {
namespace {

// On a 4-ary 2-tree (routers 0..3 at level 1, four nodes and four parents each), node 1 sends a 64-flit
// packet to node 4 while node 4 takes nothing, so the packet stalls with its flits filling the buffers
// of the parent channel it chose out of router 0: that channel's VC has no credit left, the others have
// all of theirs. Then node 0 sends 4 flits to node 8. Returns the parent port (4..7) each packet took
// out of router 0.
std::pair<int, int> parents_taken(topo::UpRouting up, std::uint64_t seed) {
  const topo::TopologyParams t = topo::testing::k_ary_n_tree(4, 2, up);
  const topo::Graph g = topo::build(t);
  RouterParams r;
  r.vcs = 2;
  r.buffer_flits = 8;
  const topo::Routing routing(t, g, r.vcs);
  Network net(g, routing, r, seed);
  auto parent_used = [&](const std::vector<std::int64_t>& before) {
    const auto now = net.port_flits();
    std::set<int> used;
    for (int p = 4; p < 8; ++p)
      if (now[g.port_base[0] + p] > before[g.port_base[0] + p]) used.insert(p);
    EXPECT_EQ(used.size(), 1u) << "a packet climbs on one parent";
    return used.empty() ? -1 : *used.begin();
  };
  net.hold_ejection(4, 0, true);
  const auto start = net.port_flits();
  net.inject(1, 4, 64);
  for (int t = 0; t < 200; ++t) net.step();
  const int first = parent_used(start);
  const auto between = net.port_flits();
  net.inject(0, 8, 4);
  for (int t = 0; t < 200; ++t) net.step();
  return {first, parent_used(between)};
}

TEST(UpRouting, AdaptiveAvoidsTheParentWhoseChannelIsFull) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto [first, second] = parents_taken(topo::UpRouting::Adaptive, seed);
    EXPECT_NE(second, first) << "seed " << seed << ": the full channel has fewer credits";
  }
}

TEST(UpRouting, RandomFreeTakesAnyParentWithAFreeVcEvenTheFullOne) {
  // The stalled packet holds one VC of its parent channel; the other VC is free, so random_free may
  // send the second packet there: over 20 seeds, about a quarter of them do (P(none) = 0.75^20 < 0.4%).
  int same = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto [first, second] = parents_taken(topo::UpRouting::RandomFree, seed);
    same += second == first;
  }
  EXPECT_GT(same, 0);
}

TEST(UpRouting, RandomIsLoadBlindAndUniformOverParents) {
  // The route itself offers one parent, drawn from the packet's random value.
  const topo::TopologyParams t = topo::testing::k_ary_n_tree(4, 3, topo::UpRouting::Random);
  const topo::Graph g = topo::build(t);
  const topo::Routing routing(t, g, 2);
  EXPECT_TRUE(routing.needs_header());
  int count[4] = {};
  std::uint64_t x = 12345;
  const int draws = 4000;
  for (int k = 0; k < draws; ++k) {
    topo::PacketHead head{.dest = 63, .header = 0, .random = core::splitmix64(x++)};
    const topo::RouteSet rs = routing.route(0, 0, 0, head);
    ASSERT_EQ(rs.count, 1);
    ASSERT_GE(rs.ports[0], 4);
    ++count[rs.ports[0] - 4];
  }
  // Binomial(4000, 1/4): mean 1000, standard deviation 27; 5 deviations either way.
  for (int c : count) EXPECT_NEAR(c, draws / 4, 137);
}

}  // namespace
}  // namespace mppnet::net
