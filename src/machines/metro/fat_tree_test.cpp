// machines/metro/fat_tree_test.cpp: fat trees and hybrid fat trees against counts derived by hand.
#include "machines/metro/fat_tree.hpp"

#include <gtest/gtest.h>

#include "machines/metro/graph_completeness.hpp"
#include "machines/metro/metro_network.hpp"

namespace mppnet::machines::metro::fat_tree_test {
namespace {

// A tree of radix 4 and dilation 2 (a fat tree unless P says otherwise).
template <class P = MetroFatTreeParams>
P tree(int levels, int ni, int final_dilation) {
  P p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = levels;
  p.node_inputs = p.node_outputs = ni;
  p.final_dilation = final_dilation;
  return p;
}

template <class P>
bool has_problem_at(const P& p, const std::string& key) {
  for (const auto& pr : check(p))
    if (pr.key == key) return true;
  return false;
}

// Table 7.4 (§7.5.4): the RN1 unit trees (r = 4, d = 2, c_l = ni = no at the leaves) hold
// up / final-down / middle-down / initial-down routers 16/16/12/8 (UT64x2) and 64/64/48/32 (UT64x8).
// A 64-node fat tree is one unit tree whose up direction turns around into the root stage, so the
// root stage takes the c_r = c_l * r^(r-2) root channels of Eq 7.2 from the turnaround.
TEST(FatTree, SixtyFourNodeTreeHasTheUnitTreeCountsOfTable74) {
  for (const auto& [ni, up, fin, mid, init] : {std::tuple{2, 16, 16, 12, 8}, std::tuple{8, 64, 64, 48, 32}}) {
    const NetworkGraph g = build_fat_tree(tree(3, ni, 2));
    EXPECT_EQ(g.count_role("up level 1"), up) << ni;
    EXPECT_EQ(g.count_role("down height 1"), fin) << ni;
    EXPECT_EQ(g.count_role("down height 2"), mid) << ni;
    EXPECT_EQ(g.count_role("down height 3"), init) << ni;
    EXPECT_EQ(g.routers(), up + fin + mid + init);
  }
}

// Fig 3.30 / line 453: an up router crosses over into 3 successive heights, so the route climbs
// ceil(L/3) up routers and descends L down routers: (1/3 + 1) log4 N = 4 for N = 64 and 8 for N = 4096
// (pairs whose top digits differ), and 2 for two nodes of one 4-node group (1 up + 1 down router).
TEST(FatTree, WorstCaseSwitchingIsFourThirdsLog4N) {
  const GraphPaths p64 = graph_paths(build_fat_tree(tree(3, 4, 2)));
  EXPECT_EQ(p64.max_hops, 4);
  EXPECT_EQ(p64.min_hops, 2);
  const GraphPaths p4096 = graph_paths(build_fat_tree(tree(6, 2, 2)), 1023);
  EXPECT_EQ(p4096.max_hops, 8);
}

// A partial top level (L = 4 is not a multiple of 3): 2 up levels + 4 down = 6 routers worst case.
TEST(FatTree, PartialTopLevelAddsOneUpRouter) {
  EXPECT_EQ(graph_paths(build_fat_tree(tree(4, 4, 2))).max_hops, 6);
}

// N = 64, ni = 4, d = 2, final dilation 2. A route that crosses over at height h after one up router
// multiplies ni ports by d copies at the up router, d at each of the h-1 dilated down stages and d_F into
// the node: ni*d^h*d_F = 16, 32, 64 for h = 1, 2, 3; the up direction turns around into height 3 with d
// copies as well (another 64). So a pair in one 4-node group has 16 + 32 + 64 + 64 = 176 routes (16
// shortest, 2 routers); a pair in one 16-node subtree but not one group 32 + 128 = 160 (32 shortest, 3
// routers); a pair in different 16-node subtrees 128 (all shortest, 4 routers).
TEST(FatTree, PathCountsFollowTheCopiesAlongEachRoute) {
  const NetworkGraph g = build_fat_tree(tree(3, 4, 2));
  const PairPaths same_group = pair_paths(g, 0, 3), same_16 = pair_paths(g, 0, 5), far = pair_paths(g, 0, 63);
  EXPECT_EQ(same_group.paths, 176);
  EXPECT_EQ(same_group.shortest, 16);
  EXPECT_EQ(same_group.hops, 2);
  EXPECT_EQ(same_16.paths, 160);
  EXPECT_EQ(same_16.shortest, 32);
  EXPECT_EQ(same_16.hops, 3);
  EXPECT_EQ(far.paths, 128);
  EXPECT_EQ(far.shortest, 128);
  EXPECT_EQ(far.hops, 4);
  EXPECT_EQ(pair_paths(g, 7, 7).paths, 176);  // a node to itself: as any pair of its group
}

// up_directions = 2: an up router crosses over into 2 heights, so L = 4 needs 2 up levels: 2 + 4 = 6.
// The wires leaving a level-1 group grow to u/r = 1/2 of its inputs (16 of 32 for r = 4, ni = 8).
TEST(FatTree, MoreUpDirectionsMeanMoreCapacityAndFewerShortCuts) {
  MetroFatTreeParams p = tree(4, 8, 2);
  p.up_directions = 2;
  const TreeShape sh = tree_shape(p);
  EXPECT_EQ(sh.up_levels, 2);
  EXPECT_EQ(sh.group_inputs[0], 32);       // 4 nodes x 8 ports
  EXPECT_EQ(sh.group_inputs[1], 16 * 16);  // r^2 = 16 groups below, 16 wires up each
  EXPECT_EQ(graph_paths(build_fat_tree(p)).max_hops, 6);
}

// Eq 7.2 channel growth for u = 1: a height-3 subtree sends c_r = c_l * 16 wires up, i.e. the level-2
// groups (height-4 subtrees: four height-3 subtrees) take 4 * 16 * ni.
TEST(FatTree, UpChannelsGrowAsEquation72) {
  const TreeShape sh = tree_shape(tree(6, 2, 2));
  EXPECT_EQ(sh.group_inputs[0], 8);
  EXPECT_EQ(sh.group_inputs[1], 4 * 16 * 2);
}

// Fig 3.33: a cluster of (r-1)*r^(cs-1) = 12 nodes (cs = 2); its first stage has 4 routers of 8 inputs,
// (r-1)*d = 6 from nodes and d = 2 (1/r) from the tree; 1 of its 4 directions goes up.
TEST(HybridFatTree, ClusterFirstStageTakesOneRthFromTheTreeAndSendsOneDirectionUp) {
  const HybridFatTreeParams p = tree<HybridFatTreeParams>(1, 2, 1);
  const NetworkGraph g = build_fat_tree(p);
  EXPECT_EQ(g.nodes, 48);
  EXPECT_EQ(g.count_role("cluster stage 1"), 4 * 4);
  EXPECT_EQ(g.count_role("cluster stage 2"), 4 * 3 * 2);  // 3 sub-clusters of 4 nodes, no/d_F = 2 each
  int from_tree = 0, inputs = 0, up = 0, outputs = 0;
  for (int u = 0; u < g.routers(); ++u) {
    if (g.role_names[g.role[u]] != "cluster stage 1") continue;
    for (int i = g.in_first[u]; i < g.in_first[u + 1]; ++i, ++inputs)
      from_tree += !is_node_source(g.in[i]) ? 1 : 0;
    for (int o = g.out_first[u]; o < g.out_first[u + 1]; ++o, ++outputs)
      up += g.role_names[g.role[g.out[o]]] == "up level 1" ? 1 : 0;
  }
  EXPECT_EQ(from_tree * 4, inputs);
  EXPECT_EQ(up * 4, outputs);
}

// Within a cluster: first stage, final stage: ni * d * d_F = 2*2*1 = 4 routes of 2 routers. Between
// clusters (L = 1): up out of the first stage (d), the up router's 4 directions all reach the one height-1
// class (r*d: crossover, two folded crossovers and the turnaround), the down router (d), the first stage
// of the other cluster (d) and its final stage (d_F): 2*2*8*2*2*1 = 128 routes of 5 routers.
TEST(HybridFatTree, PathCountsInsideAndBetweenClusters) {
  const NetworkGraph g = build_fat_tree(tree<HybridFatTreeParams>(1, 2, 1));
  const PairPaths in = pair_paths(g, 0, 11), out = pair_paths(g, 0, 47);
  EXPECT_EQ(in.paths, 4);
  EXPECT_EQ(in.hops, 2);
  EXPECT_EQ(out.paths, 128);
  EXPECT_EQ(out.hops, 5);
}

// Between clusters of a two-level hybrid: first stage, one up router (3 crossovers cover both heights),
// 2 down routers, the other cluster's first stage and its final stage: 1 + 1 + 2 + 1 + 1 = 6 routers.
TEST(HybridFatTree, WorstCaseSwitchingAddsTheClusterStages) {
  EXPECT_EQ(graph_paths(build_fat_tree(tree<HybridFatTreeParams>(2, 4, 1))).max_hops, 6);
}

// With ni = 2d every node has 2 up routers and 2 final routers, and every class at least d routers, so
// no single router fault disconnects a pair.
TEST(FatTree, OneFaultNeverDisconnectsWhenEveryStageHasTwoChoices) {
  for (const MetroNetwork& p : {MetroNetwork{tree(3, 4, 2)}, MetroNetwork{tree(4, 4, 2)},
                                MetroNetwork{tree<HybridFatTreeParams>(1, 4, 2)}}) {
    const NetworkGraph g = build_network_graph(p, 1, 0);
    GraphCompletenessTracker t(g);
    for (int u = 0; u < g.routers(); ++u) {
      t.reset();
      t.fail_router(u);
      EXPECT_TRUE(t.complete()) << describe(p) << " router " << u;
    }
  }
}

TEST(FatTreeCheck, RejectsEachBadParameterAtItsKey) {
  // Extra stages and random wirings are not tree parameters: the config rejects them (metro_config_test).
  MetroFatTreeParams p = tree(3, 4, 2);
  p.up_directions = 4;
  EXPECT_TRUE(has_problem_at(p, "metro.up_directions"));
  p = tree(3, 3, 1);
  EXPECT_TRUE(has_problem_at(p, "metro.node_inputs"));  // 3 ports are not a multiple of d = 2
  p = tree(3, 4, 3);
  EXPECT_TRUE(has_problem_at(p, "metro.final_dilation"));
  p = tree(0, 4, 2);
  EXPECT_TRUE(has_problem_at(p, "metro.stages"));
  HybridFatTreeParams hybrid = tree<HybridFatTreeParams>(1, 4, 2);
  hybrid.cluster_stages = 1;
  EXPECT_TRUE(has_problem_at(hybrid, "metro.cluster_stages"));
  p = tree(3, 4, 2);
  p.node_outputs = 2;
  EXPECT_TRUE(has_problem_at(p, "metro.node_outputs"));
  EXPECT_TRUE(check(tree(3, 4, 2)).empty());
}

}  // namespace
}  // namespace mppnet::machines::metro::fat_tree_test
