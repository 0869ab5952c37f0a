// topo/fat_tree_test.cpp: fat-tree arithmetic and wiring (note 000 §2.3.2), checked against hand counts.
#include "topo/fat_tree.hpp"

#include <gtest/gtest.h>

#include <queue>
#include <vector>

#include "topo/build.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::topo {
namespace {

using namespace ::mppnet::topo::testing;

TEST(FatTree, ParentsPerLevelRepeatTheLastEntryAndStopAtTheTop) {
  // CM-5 schedule [2, 2, 4] on 7 levels: P = 2, 2, 4, 4, 4, 4 and none at the top.
  const TopologyParams p = cm5(7);
  const std::vector<int> expected = {2, 2, 4, 4, 4, 4, 0};
  for (int k = 1; k <= 7; ++k) EXPECT_EQ(parents_at_level(p, k), expected[k - 1]) << "level " << k;
  // Empty list: a k-ary n-tree, k parents below the top.
  EXPECT_EQ(parents_at_level(k_ary_n_tree(4, 3), 2), 4);
  EXPECT_EQ(parents_at_level(k_ary_n_tree(4, 3), 3), 0);
}

TEST(FatTree, Cm5With1024NodesHas1152Routers) {
  // C(1) = 2, C(k+1) = C(k) P(k): 2, 4, 8, 32, 128 chips per subtree; 256, 64, 16, 4, 1 subtrees;
  // 512 + 256 + 128 + 128 + 128 = 1152 routers.
  const FatTreeShape s = fat_tree_shape(cm5(5));
  EXPECT_EQ(s.nodes, 1024);
  const std::vector<long long> chips = {2, 4, 8, 32, 128};
  const std::vector<long long> per_level = {512, 256, 128, 128, 128};
  for (int k = 1; k <= 5; ++k) {
    EXPECT_EQ(s.chips[k], chips[k - 1]) << "level " << k;
    EXPECT_EQ(s.routers_at_level(k), per_level[k - 1]) << "level " << k;
  }
  EXPECT_EQ(s.routers(), 1152);
  EXPECT_EQ(build(cm5(5)).num_routers(), 1152);
}

TEST(FatTree, Cm5With16KNodesHas22528Routers) {
  // Note 000 §2.3.2: C = 2, 4, 8, 32, 128, 512, 2048 and 8192 + 4096 + 5 x 2048 = 22,528 chips.
  const FatTreeShape s = fat_tree_shape(cm5(7));
  const std::vector<long long> chips = {2, 4, 8, 32, 128, 512, 2048};
  for (int k = 1; k <= 7; ++k) EXPECT_EQ(s.chips[k], chips[k - 1]) << "level " << k;
  EXPECT_EQ(s.routers_at_level(1), 8192);
  EXPECT_EQ(s.routers_at_level(2), 4096);
  for (int k = 3; k <= 7; ++k) EXPECT_EQ(s.routers_at_level(k), 2048) << "level " << k;
  EXPECT_EQ(s.routers(), 22528);
  EXPECT_EQ(build(cm5(7)).num_routers(), 22528);
}

TEST(FatTree, KAryNTreeHasKToTheNMinus1RoutersPerLevel) {
  // 4-ary 3-tree: 16 per level, 48 in all. 2-ary 5-tree: 16 per level, 80 in all.
  const FatTreeShape s = fat_tree_shape(k_ary_n_tree(4, 3));
  for (int k = 1; k <= 3; ++k) EXPECT_EQ(s.routers_at_level(k), 16) << "level " << k;
  EXPECT_EQ(s.routers(), 48);
  EXPECT_EQ(fat_tree_shape(k_ary_n_tree(2, 5)).routers(), 80);
}

TEST(FatTree, RouterIdsAndUplinksFollowTheNote) {
  // 4-ary 2-tree: level-1 routers 0..3 (one chip per subtree), level-2 chips 4..7. Uplink p of subtree 0
  // is parent port 4 + p of its only chip, and reaches chip p of the root (router 4 + p) at child port 0.
  const Graph g = build(k_ary_n_tree(4, 2));
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(g.link(0, 4 + p).peer, 4 + p);
    EXPECT_EQ(g.link(0, 4 + p).peer_port, 0);
  }
  // Root chip 1 (router 5), child port 2: uplink 1 of subtree 2 = router 2, parent port 4 + 1.
  EXPECT_EQ(g.link(5, 2).peer, 2);
  EXPECT_EQ(g.link(5, 2).peer_port, 5);
}

TEST(FatTree, Cm5NodeLinksAttachToDifferentChips) {
  // Node v's link u goes to level-1 chip u of subtree v / 4 at port v % 4. Node 5, link 1: subtree 1,
  // router 1 x 2 + 1 = 3, port 1.
  const Graph g = build(cm5(3));
  EXPECT_EQ(g.node_links[5 * 2 + 1].router, 3);
  EXPECT_EQ(g.node_links[5 * 2 + 1].port, 1);
  EXPECT_EQ(g.node_links[5 * 2 + 0].router, 2);
}

TEST(FatTree, Cm5LeftAndRightLinksReachDisjointHalves) {
  // Note 000 §2.3.2: "the machine is two disjoint fat-trees", one per node link. So the routers reached
  // from node 0's link 0 without passing through a node are exactly half of them (1152 / 2 = 576 for
  // n = 5), and none of them is reached from link 1.
  const Graph g = build(cm5(5));
  auto reach = [&](int link) {
    std::vector<char> seen(g.num_routers(), 0);
    std::queue<RouterId> todo;
    todo.push(g.node_links[link].router);
    seen[todo.front()] = 1;
    while (!todo.empty()) {
      const RouterId r = todo.front();
      todo.pop();
      for (PortId p = 0; p < g.num_ports(r); ++p) {
        const PortLink& l = g.link(r, p);
        if (l.kind != PeerKind::Router || seen[l.peer]) continue;
        seen[l.peer] = 1;
        todo.push(l.peer);
      }
    }
    return seen;
  };
  const auto left = reach(0);
  const auto right = reach(1);
  int left_count = 0;
  int both = 0;
  for (RouterId r = 0; r < g.num_routers(); ++r) {
    left_count += left[r];
    both += left[r] && right[r];
  }
  EXPECT_EQ(left_count, 576);
  EXPECT_EQ(both, 0);
}

}  // namespace
}  // namespace mppnet::topo
