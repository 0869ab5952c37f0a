// machines/cm5/fat_tree_shape_test.cpp: the wiring of note 000 §2.3.2, counted and walked.
#include "machines/cm5/fat_tree_shape.hpp"

#include <gtest/gtest.h>

#include <set>

namespace mppnet::machines::cm5 {
namespace {

const std::vector<int> kCm5Parents = {2, 2, 4};

int chips_at(const FatTreeShape& s, int level) {
  int n = 0;
  for (ChipId c = 0; c < s.chips(); ++c) n += s.place(c).level == level ? 1 : 0;
  return n;
}

TEST(FatTreeShape, A16KMachineHasTheChipsOfNote000) {
  // Note 000 §2.3.2: chips per node (both sides) 2, 4, 8, 32, 128, 512, 2048 at levels 1..7 and
  // 8192 + 4096 + 5 * 2048 = 22,528 chips in all.
  const FatTreeShape s(16384, kCm5Parents);
  EXPECT_EQ(s.height(), 7);
  const int per_node[] = {0, 2, 4, 8, 32, 128, 512, 2048};
  for (int k = 1; k <= 7; ++k) {
    EXPECT_EQ(s.chips_per_node(k) * kSides, per_node[k]) << "level " << k;
    EXPECT_EQ(chips_at(s, k), per_node[k] * s.level_nodes(k)) << "level " << k;
  }
  EXPECT_EQ(s.chips(), 22528);
}

TEST(FatTreeShape, UplinksGiveTheBandwidthsThePaperStates) {
  // Raw bandwidth out of a subtree = uplinks (both sides) * 20 MB/s: 160 MB/s out of 16 nodes
  // (paper L206-207) and 10.24 GB/s out of each 1K half of a 2K machine (L208-209).
  const FatTreeShape s(2048, kCm5Parents);
  EXPECT_EQ(s.uplinks(2) * kSides * 20, 160);
  EXPECT_EQ(s.uplinks(5) * kSides * 20, 10240);
  EXPECT_EQ(s.uplinks(1) * kSides * 20, 80);
}

TEST(FatTreeShape, EveryWireIsOneLinkBothWaysAndTheSidesShareNothing) {
  for (const int n : {32, 64, 544, 1024, 2048}) {
    const FatTreeShape s(n, kCm5Parents);
    std::set<std::pair<ChipId, int>> inputs_fed;
    for (ChipId c = 0; c < s.chips(); ++c) {
      for (int p = 0; p < kChipPorts; ++p) {
        const PortPeer to = s.peer(c, p);
        if (to.chip == kNoChip) continue;
        EXPECT_EQ(s.place(to.chip).side, s.place(c).side);
        // The peer's port leads back: the same link's other direction.
        const PortPeer back = s.peer(to.chip, to.port);
        EXPECT_EQ(back.chip, c) << "n=" << n << " chip " << c << " port " << p;
        EXPECT_EQ(back.port, p);
        EXPECT_TRUE(inputs_fed.insert({to.chip, to.port}).second) << "one sender per input";
        EXPECT_EQ(s.place(to.chip).level, s.place(c).level + (p < kChildPorts ? -1 : 1));
      }
    }
  }
}

TEST(FatTreeShape, EveryChipReachesEveryLeafBelowItByItsUniqueDownPath) {
  for (const int n : {32, 544, 1024}) {
    const FatTreeShape s(n, kCm5Parents);
    for (ChipId c = 0; c < s.chips(); ++c) {
      const ChipPlace at = s.place(c);
      const NodeId first = at.node << (2 * at.level);
      for (NodeId dest = first; dest < std::min(n, first + (1 << (2 * at.level))); ++dest) {
        ChipId here = c;
        PortPeer to{};
        for (int level = at.level; level >= 1; --level) {
          to = s.peer(here, FatTreeShape::down_port(dest, level));
          here = to.chip;
        }
        EXPECT_EQ(to.node, dest);
      }
    }
  }
}

TEST(FatTreeShape, APartlyPopulatedTopHasItsChipsButNoPortsToMissingSubtrees) {
  // 32 nodes: two 16-node subtrees under a level-3 node of 4 chips per side, each using 2 child ports.
  const FatTreeShape s(32, kCm5Parents);
  EXPECT_EQ(s.height(), 3);
  EXPECT_EQ(s.level_nodes(3), 1);
  EXPECT_EQ(s.chips_per_node(3), 4);
  const ChipId top = s.chip(0, 3, 0, 0);
  EXPECT_TRUE(s.peer(top, 0).is_used());
  EXPECT_TRUE(s.peer(top, 1).is_used());
  EXPECT_FALSE(s.peer(top, 2).is_used());
  EXPECT_EQ(s.parent_ports(3), 0);
}

TEST(FatTreeShape, LeastCommonAncestorHeights) {
  EXPECT_EQ(FatTreeShape::lca_height(5, 5), 1);  // a self-send turns at its level-1 chip (A31)
  EXPECT_EQ(FatTreeShape::lca_height(0, 3), 1);
  EXPECT_EQ(FatTreeShape::lca_height(0, 4), 2);
  EXPECT_EQ(FatTreeShape::lca_height(15, 16), 3);
  EXPECT_EQ(FatTreeShape::lca_height(0, 1023), 5);
  EXPECT_EQ(FatTreeShape::lca_height(0, 16383), 7);
}

}  // namespace
}  // namespace mppnet::machines::cm5
