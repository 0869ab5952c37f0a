// machines/cs2/channel_load_test.cpp: static loads, down-channel destinations, bisection links.
#include "machines/cs2/channel_load.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cs2 {
namespace {

TEST(Cs2ChannelLoad, ShiftsAndButterfliesLoadEveryChannelOnceUnderDest) {
  // Note §4.5: the carry of a shift propagates from the bottom, so (x div 4^s, d mod 4^s) fixes x.
  for (const auto& [n, d] : {std::pair{64, Doubling::EightWayTop}, std::pair{128, Doubling::EightWayTop}}) {
    const LayerShape s(n, d);
    const topo::Graph g = build_layer(s);
    for (int c = 0; c < n; ++c)
      EXPECT_EQ(max_load(channel_loads(g, permutation_flows(s, Permutation::Shift, c),
                                       dest_routes(s, Turn::Minimal))),
                1)
          << "shift " << c;
    for (int b = 1; b < n; b <<= 1)
      EXPECT_EQ(
          max_load(channel_loads(g, permutation_flows(s, Permutation::Xor, b), dest_routes(s, Turn::Top))),
          1);
  }
}

TEST(Cs2ChannelLoad, RandomUpPathsCanCollideWhereDestDoesNot) {
  // The same shift with RANDOM up-paths: some channel carries two flows (the load DEST avoids).
  const LayerShape s(256, Doubling::EightWayTop);
  const topo::Graph g = build_layer(s);
  const RouteOf random = [s](std::int64_t x, std::int64_t d) {
    return policy_route(s, x, d, Policy::Random, Turn::Minimal, 0, 5);
  };
  EXPECT_GT(max_load(channel_loads(g, permutation_flows(s, Permutation::Shift, 37), random)), 1);
}

TEST(Cs2ChannelLoad, EveryDownChannelServesOneDestination) {
  for (const auto& [n, d] : {std::pair{64, Doubling::EightWayTop}, std::pair{32, Doubling::EightWayTop},
                             std::pair{32, Doubling::BackToBack}}) {
    const LayerShape s(n, d);
    EXPECT_EQ(max_destinations_per_down_channel(s, build_layer(s), Turn::Minimal), 1) << n;
    EXPECT_EQ(max_destinations_per_down_channel(s, build_layer(s), Turn::Top), 1) << n;
  }
}

TEST(Cs2ChannelLoad, ABisectionCutsHalfTheLinksOfAnySize) {
  for (const int n : {4, 8, 16, 32, 64, 128, 256})
    for (const Doubling d : {Doubling::EightWayTop, Doubling::BackToBack}) {
      const LayerShape s(n, d);
      EXPECT_EQ(bisection_links(s, build_layer(s)), n / 2) << n << " " << doubling_name(d);
    }
}

TEST(Cs2ChannelLoad, PermutationsAreBijectionsOnACompleteNetwork) {
  const LayerShape s(256, Doubling::EightWayTop);
  for (const Permutation p : {Permutation::BitReversal, Permutation::Transpose}) {
    std::vector<int> hit(256, 0);
    for (const Flow& f : permutation_flows(s, p)) ++hit[f.dest];
    for (int v : hit) EXPECT_EQ(v, 1);
  }
  const auto t = permutation_flows(s, Permutation::Transpose);
  EXPECT_EQ(t[0x12].dest, 0x21);
  EXPECT_EQ(permutation_flows(s, Permutation::BitReversal)[1].dest, 128);
}

TEST(Cs2ChannelLoad, ABrokenRouteIsReportedNotFollowed) {
  const LayerShape s(16, Doubling::EightWayTop);
  const topo::Graph g = build_layer(s);
  topo::SourceRoute r;
  r.push_back(4);
  EXPECT_EQ(follow_route(g, 0, r, [](int) {}), -1) << "ran out of bytes at a switch";
  r.push_back(topo::output_range(0, 3));
  EXPECT_EQ(follow_route(g, 0, r, [](int) {}), -1) << "a range is not a unicast route";
}

}  // namespace
}  // namespace mppnet::machines::cs2
