// machines/cm5/diagnostic_geography_test.cpp: the data network's boards in the diagnostic tree and the
// cost of selecting one level as the machine doubles (note V30), against layouts derived by hand.
#include "machines/cm5/diagnostic_geography.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cm5 {
namespace {

FatTreeShape cm5(int nodes) {
  return FatTreeShape(nodes, {2, 2, 4});
}

TEST(DiagnosticGeography, A1024NodeMachineHas288PodsInATreeOfHeight9) {
  // Per side: level 1 has 256 chips (64 boards, subtree 128 for both sides), level 2 has 64 nodes x 2 =
  // 128 chips (32 boards, 64), levels 3-5 have 64 chips each (16 boards, 32 each): 128 + 64 + 96 = 288
  // leaves, all present, in a tree of height 9 (512 leaves).
  const FatTreeShape shape = cm5(1024);
  const DiagnosticGeography geo(shape);
  EXPECT_EQ(geo.pods(), 288);
  EXPECT_EQ(geo.height(), 9);
  // Levels at 0 (size 128), 128 (64), 192, 224, 256 (32 each). Level 5's subtree 256..287 is followed
  // by absent leaves only, so "1BBBBBBBB" names it.
  const std::vector<std::string> expect = {"",          "00BBBBBBB", "010BBBBBB",
                                           "0110BBBBB", "0111BBBBB", "1BBBBBBBB"};
  for (int level = 1; level <= 5; ++level) {
    const auto a = geo.level_addresses(level);
    ASSERT_EQ(a.size(), 1u) << level;
    EXPECT_EQ(a[0].str(), expect[static_cast<std::size_t>(level)]);
  }
}

TEST(DiagnosticGeography, EveryChipIsOnExactlyOneBoardOfItsLevelAndSide) {
  for (const int nodes : {32, 96, 1024, 2080}) {
    const FatTreeShape shape = cm5(nodes);
    const DiagnosticGeography geo(shape);
    for (ChipId c = 0; c < shape.chips(); ++c) {
      const PodPlace at = geo.where(c);
      ASSERT_GE(at.pod, 0);
      EXPECT_EQ(geo.chip(at.pod, at.slot), c);
      // The level's addresses select its pod, and no other level's do.
      DiagnosticTree tree = geo.make_tree();
      for (int level = 1; level <= shape.height(); ++level)
        EXPECT_EQ(geo.pods_at_level(level)[static_cast<std::size_t>(at.pod)], level == shape.place(c).level);
    }
    // Each level's addresses select exactly its pods.
    for (int level = 1; level <= shape.height(); ++level) {
      DiagnosticTree tree = geo.make_tree();
      const auto a = geo.level_addresses(level);
      EXPECT_LE(static_cast<int>(a.size()), geo.height());
      tree.erase();
      for (const DiagnosticAddress& x : a) tree.apply(x);
      std::vector<int> expect;
      const auto wanted = geo.pods_at_level(level);
      for (int p = 0; p < geo.leaves(); ++p)
        if (wanted[static_cast<std::size_t>(p)]) expect.push_back(p);
      EXPECT_EQ(tree.selected_pods(), expect) << nodes << " nodes, level " << level;
    }
  }
}

TEST(DiagnosticGeography, SelectingALevelGrowsByAtMostTwoCyclesPerDoubling) {
  // Leaves used, derived level by level as in the 1,024-node test: 64 nodes 8+4+2 = 14 (h 4); 128: 16+8+
  // 4+8 = 36 (h 6); 256: 32+16+8+8 = 64 (6); 512: 64+32+16+16+32 = 160 (8); 1,024: 288 (9); 2,048: 704
  // (10); 4,096: 1,280 (11); 8,192: 3,072 (12); 16,384: 5,632 (13). Every level is one address of h
  // digits: erase 1 + h + 2 cycles.
  const std::vector<int> heights = {4, 6, 6, 8, 9, 10, 11, 12, 13};
  int i = 0;
  for (int nodes = 64; nodes <= 16384; nodes *= 2, ++i) {
    const FatTreeShape shape = cm5(nodes);
    const DiagnosticGeography geo(shape);
    EXPECT_EQ(geo.height(), heights[static_cast<std::size_t>(i)]) << nodes;
    for (int level = 1; level <= shape.height(); ++level) {
      const auto a = geo.level_addresses(level);
      ASSERT_EQ(a.size(), 1u);
      EXPECT_EQ(selection_cycles(a), 1 + heights[static_cast<std::size_t>(i)] + 2) << nodes << " " << level;
    }
  }
}

}  // namespace
}  // namespace mppnet::machines::cm5
