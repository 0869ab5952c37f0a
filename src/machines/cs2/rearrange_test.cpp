// machines/cs2/rearrange_test.cpp: rearranged routes carry any permutation with no channel used twice,
// where DEST routes put up to 16 flows on one channel (note 003 §5 R10).
#include "machines/cs2/rearrange.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "machines/cs2/routes.hpp"

namespace mppnet::machines::cs2 {
namespace {

TEST(Rearrange, AnyPermutationGoesThroughWithNoChannelUsedTwice) {
  for (const int n : {16, 64, 256}) {
    const LayerShape s(n, Doubling::EightWayTop);
    const topo::Graph g = build_layer(s);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto flows = random_permutation_flows(s, seed);
      EXPECT_EQ(max_load(channel_loads(g, flows, rearranged_routes(s, flows))), 1) << n << " seed " << seed;
    }
    const auto reversal = permutation_flows(s, Permutation::BitReversal);
    EXPECT_EQ(max_load(channel_loads(g, reversal, rearranged_routes(s, reversal))), 1) << n;
  }
  // The control: DEST routes on 256 PEs put 16 bit-reversal flows on one channel to the top (cs2.r10).
  const LayerShape s(256, Doubling::EightWayTop);
  const auto reversal = permutation_flows(s, Permutation::BitReversal);
  EXPECT_EQ(max_load(channel_loads(build_layer(s), reversal, dest_routes(s, Turn::Top))), 16);
}

TEST(Rearrange, EveryFlowGetsOneUpPortPerStageBelowTheTop) {
  const LayerShape s(64, Doubling::EightWayTop);
  const auto flows = random_permutation_flows(s, 3);
  const auto ups = rearranged_ups(s, flows);
  ASSERT_EQ(ups.size(), flows.size());
  for (const auto& u : ups) {
    ASSERT_EQ(static_cast<int>(u.size()), s.stages() - 1);
    for (const int p : u) EXPECT_TRUE(p >= 0 && p < 4);
  }
}

TEST(Rearrange, RefusesWhatIsNotAPermutationOfAWholeEvenLayer) {
  const LayerShape s(64, Doubling::EightWayTop);
  auto flows = random_permutation_flows(s, 1);
  flows.pop_back();
  EXPECT_THROW(rearranged_ups(s, flows), std::invalid_argument);
  flows = random_permutation_flows(s, 1);
  flows[1].dest = flows[0].dest;  // two flows to one PE
  EXPECT_THROW(rearranged_ups(s, flows), std::invalid_argument);
  EXPECT_THROW(rearranged_ups(LayerShape(128, Doubling::EightWayTop), flows), std::invalid_argument);
  EXPECT_THROW(rearranged_ups(LayerShape(48, Doubling::EightWayTop), flows), std::invalid_argument);
}

TEST(Rearrange, RandomPermutationsAreDeterministicPermutations) {
  const LayerShape s(64, Doubling::EightWayTop);
  const auto a = random_permutation_flows(s, 7);
  std::vector<int> hit(64, 0);
  for (const Flow& f : a) ++hit[static_cast<std::size_t>(f.dest)];
  for (const int h : hit) EXPECT_EQ(h, 1);
  const auto b = random_permutation_flows(s, 7);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].dest, b[i].dest);
}

}  // namespace
}  // namespace mppnet::machines::cs2
