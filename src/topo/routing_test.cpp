// topo/routing_test.cpp: route() walked from every source to every destination, hop counts, diameters,
// torus VC classes and fat-tree up-routing choices.
#include "topo/routing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "topo/build.hpp"
#include "topo/fat_tree.hpp"
#include "topo/params_for_test.hpp"
#include "topo/route_walk_for_test.hpp"

namespace mppnet::topo {
namespace {

using namespace ::mppnet::topo::testing;

struct WalkCase {
  std::string name;
  TopologyParams params;
  int vcs = 2;
  long long max_pairs = 1LL << 20;  // all pairs up to 1024 nodes, a fixed sample above
  Branches branches = Branches::All;
};

// Paths route() allows from src to dest: 1 except for RandomFree fat trees, where each level k below the
// LCA offers P(k) parents and every choice leads to a distinct path: prod_{k < H} P(k).
long long expected_paths(const TopologyParams& p, const Routing& routing, NodeId src, NodeId dest,
                         Branches branches) {
  if (p.kind != kFatTreeTopology.name || fat_tree_params(p).up_routing == UpRouting::Deterministic ||
      branches != Branches::All) {
    return 1;
  }
  const int height = (routing.router_hops(src, dest) + 1) / 2;
  long long paths = 1;
  for (int k = 1; k < height; ++k) paths *= parents_at_level(p, k);
  return paths;
}

class RouteWalk : public ::testing::TestWithParam<WalkCase> {};

TEST_P(RouteWalk, EveryPairReachesItsDestinationInRouterHopsRouters) {
  const WalkCase& c = GetParam();
  ASSERT_TRUE(check(c.params, c.vcs).empty());
  const Graph g = build(c.params);
  const Routing routing(c.params, g, c.vcs);
  RouteWalker walker(g, routing, c.vcs);
  long long walks = 0;
  for (const auto& [src, dest] : node_pairs(g.num_nodes, c.max_pairs)) {
    for (int link = 0; link < g.links_per_node; ++link) {
      const int hops = routing.router_hops(src, dest);
      long long paths = 0;
      std::string wrong_length;
      const std::string error = walker.walk(src, link, dest, c.branches, [&](const std::vector<Hop>& path) {
        ++paths;
        if (static_cast<int>(path.size()) != hops && wrong_length.empty()) {
          wrong_length = std::to_string(path.size()) + " routers, router_hops says " + std::to_string(hops);
        }
      });
      ASSERT_EQ(error, "") << "link " << link;
      ASSERT_EQ(wrong_length, "") << src << " -> " << dest << " link " << link;
      ASSERT_EQ(paths, expected_paths(c.params, routing, src, dest, c.branches))
          << src << " -> " << dest << " link " << link;
      ++walks;
    }
  }
  EXPECT_GT(walks, 0);
}

TopologyParams with_leaf_links(const TopologyParams& p, int links) {
  FatTreeParams f = fat_tree_params(p);
  f.leaf_links = links;
  return topology_of(f);
}

const WalkCase kWalkCases[] = {
    {"mesh_4x4", mesh(4, 2), 1},
    {"mesh_8x8", mesh(8, 2), 1},
    {"mesh_3x3x3", mesh(3, 3), 2},
    {"mesh_2x2x2x2", mesh(2, 4), 1},
    {"torus_4x4", torus(4, 2), 2},
    {"torus_8x8", torus(8, 2), 4},
    {"torus_4x4x4", torus(4, 3), 2},
    {"torus_5x5", torus(5, 2), 3},
    {"torus_3x3x3", torus(3, 3), 2},
    {"torus_16x16x16_sampled", torus(16, 3), 2, 20000},
    {"cylinder_8x8_wrap1", cylinder(8, 2, {1}), 2},
    {"cylinder_5x5_wrap0", cylinder(5, 2, {0}), 2},
    {"mesh_4x4x4_wrap02", cylinder(4, 3, {0, 2}), 4},
    {"hypercube_1", hypercube(1), 1},
    {"hypercube_2", hypercube(2), 1},
    {"hypercube_3", hypercube(3), 1},
    {"hypercube_4", hypercube(4), 1},
    {"hypercube_5", hypercube(5), 2},
    {"hypercube_6", hypercube(6), 1},
    {"hypercube_12_sampled", hypercube(12), 1, 20000},
    {"tree_4ary_2", k_ary_n_tree(4, 2), 1},
    {"tree_4ary_3", k_ary_n_tree(4, 3), 2},
    {"tree_4ary_3_deterministic", k_ary_n_tree(4, 3, UpRouting::Deterministic), 1},
    {"tree_2ary_5", k_ary_n_tree(2, 5), 1},
    {"tree_4ary_2_two_leaf_links", with_leaf_links(k_ary_n_tree(4, 2), 2), 1},
    {"tree_2ary_4_three_leaf_links", with_leaf_links(k_ary_n_tree(2, 4), 3), 1},
    {"cm5_64", cm5(3), 1},
    {"cm5_64_deterministic", cm5(3, UpRouting::Deterministic), 1},
    // 1024 nodes: every pair on the deterministic (single) path; every branch on a sample of pairs,
    // since each pair through the root has 2 x 2 x 4 x 4 = 64 up-paths per link.
    {"cm5_1024_deterministic", cm5(5, UpRouting::Deterministic), 1},
    {"cm5_1024_sampled_pairs", cm5(5), 1, 8192},
    {"cm5_16k_sampled", cm5(7), 1, 4096, Branches::OneSampled},
};

INSTANTIATE_TEST_SUITE_P(AllTopologies, RouteWalk, ::testing::ValuesIn(kWalkCases),
                         [](const auto& info) { return info.param.name; });

// Routers on a shortest path from any router src attaches to, to any router dest attaches to (BFS).
int shortest_router_path(const Graph& g, NodeId src, NodeId dest) {
  std::vector<int> dist(g.num_routers(), -1);
  std::queue<RouterId> todo;
  for (int link = 0; link < g.links_per_node; ++link) {
    const RouterId r = g.node_links[src * g.links_per_node + link].router;
    if (dist[r] < 0) todo.push(r);
    dist[r] = 1;
  }
  while (!todo.empty()) {
    const RouterId r = todo.front();
    todo.pop();
    for (PortId p = 0; p < g.num_ports(r); ++p) {
      const PortLink& l = g.link(r, p);
      if (l.kind == PeerKind::Node && l.peer == dest) return dist[r];
      if (l.kind != PeerKind::Router || dist[l.peer] >= 0) continue;
      dist[l.peer] = dist[r] + 1;
      todo.push(l.peer);
    }
  }
  return -1;
}

TEST(RouterHops, IsTheShortestPathInTheGraph) {
  for (const auto& p : {mesh(4, 2), mesh(3, 3), torus(5, 2), torus(4, 3), hypercube(5), k_ary_n_tree(4, 3),
                        k_ary_n_tree(2, 4), cm5(3)}) {
    const Graph g = build(p);
    const Routing routing(p, g, 2);
    for (NodeId s = 0; s < g.num_nodes; ++s) {
      for (NodeId d = 0; d < g.num_nodes; ++d) {
        ASSERT_EQ(routing.router_hops(s, d), shortest_router_path(g, s, d))
            << describe(p) << " " << s << "->" << d;
      }
    }
  }
}

int diameter(const TopologyParams& p) {
  const Graph g = build(p);
  const Routing routing(p, g, Routing::min_vcs(p));
  int most = 0;
  for (NodeId s = 0; s < g.num_nodes; ++s) {
    for (NodeId d = 0; d < g.num_nodes; ++d) most = std::max(most, routing.router_hops(s, d));
  }
  return most;
}

TEST(RouterHops, Diameters) {
  EXPECT_EQ(diameter(mesh(8, 2)), 15);           // 2 x (8 - 1) hops + 1
  EXPECT_EQ(diameter(torus(8, 2)), 9);           // 2 x 8/2 hops + 1
  EXPECT_EQ(diameter(hypercube(10)), 11);        // 10 bits + 1
  EXPECT_EQ(diameter(k_ary_n_tree(4, 3)), 5);    // up 3 levels and down: 2 x 3 - 1
  EXPECT_EQ(diameter(torus(5, 3)), 7);           // 3 x floor(5/2) + 1
  EXPECT_EQ(diameter(cylinder(8, 2, {1})), 12);  // (8 - 1) open + 8/2 round the ring + 1
}

TEST(RouterHops, SelfAndNeighbours) {
  const TopologyParams p = cm5(3);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  EXPECT_EQ(routing.router_hops(5, 5), 1);   // turns at level 1
  EXPECT_EQ(routing.router_hops(4, 7), 1);   // same level-1 subtree
  EXPECT_EQ(routing.router_hops(0, 15), 3);  // LCA at level 2
  EXPECT_EQ(routing.router_hops(0, 63), 5);  // LCA at the root, level 3
}

TEST(Routing, MinVcs) {
  EXPECT_EQ(Routing::min_vcs(torus(4, 2)), 2);
  EXPECT_EQ(Routing::min_vcs(mesh(4, 2)), 1);
  EXPECT_EQ(Routing::min_vcs(hypercube(4)), 1);
  EXPECT_EQ(Routing::min_vcs(cm5(5)), 1);
}

TEST(Routing, MeshGoesLowestDimensionFirstAndEjectsAtTheNodePort) {
  // 4x4 mesh, router 5 = (1, 1) to node 14 = (2, 3): x first, so +x (port 0); at 14 itself, port 4.
  const Graph g = build(mesh(4, 2));
  const Routing routing(mesh(4, 2), g, 3);
  const RouteSet rs = routing.route(5, 4, 0, 14);
  ASSERT_EQ(rs.count, 1);
  EXPECT_EQ(rs.ports[0], 0);
  EXPECT_EQ(rs.vc_lo, 0);
  EXPECT_EQ(rs.vc_hi, 2);
  EXPECT_EQ(routing.route(6, 1, 0, 14).ports[0], 2);  // (2, 1): x done, +y
  EXPECT_EQ(routing.route(14, 3, 0, 14).ports[0], 4);
}

TEST(Routing, HypercubeCorrectsTheLowestDifferingBitFirst) {
  const Graph g = build(hypercube(4));
  const Routing routing(hypercube(4), g, 1);
  EXPECT_EQ(routing.route(0b0010, 4, 0, 0b1100).ports[0], 1);  // 0010 ^ 1100 = 1110: bit 1
  EXPECT_EQ(routing.route(0b1100, 1, 0, 0b1100).ports[0], 4);  // arrived: the node port
}

TEST(Routing, TorusDatelineClasses) {
  // 8-ary 1-cube, 4 VCs: class 0 = [0, 1], class 1 = [2, 3]. Port 0 = +, 1 = -, 2 = node.
  const TopologyParams p = torus(8, 1);
  const Graph g = build(p);
  const Routing routing(p, g, 4);
  auto range = [&](RouterId r, PortId in, VcId vc, NodeId dest) {
    const RouteSet rs = routing.route(r, in, vc, dest);
    return std::vector<int>{rs.ports[0], rs.vc_lo, rs.vc_hi};
  };
  // 6 -> 1 is 3 hops forward (5 back): +, class 0 until the wrap link 7 -> 0.
  EXPECT_EQ(range(6, 2, 0, 1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(range(7, 1, 0, 1), (std::vector<int>{0, 2, 3}));  // the wrap link itself is class 1
  EXPECT_EQ(range(0, 1, 2, 1), (std::vector<int>{0, 2, 3}));  // continuing + in class 1 stays there
  EXPECT_EQ(range(1, 1, 2, 1), (std::vector<int>{2, 0, 3}));  // ejection may use every VC
  // 1 -> 6 goes - and wraps on 0 -> 7.
  EXPECT_EQ(range(1, 2, 0, 6), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(range(0, 0, 0, 6), (std::vector<int>{1, 2, 3}));
  // A tie (4 hops either way, k/2) goes +: 0 -> 4 and 4 -> 0 both leave on port 0.
  EXPECT_EQ(range(0, 2, 0, 4)[0], 0);
  EXPECT_EQ(range(4, 2, 0, 0)[0], 0);
}

TEST(Routing, TorusNewDimensionStartsInClass0) {
  // 4x4 torus, 2 VCs. Router 3 = (3, 0) to node 4 = (0, 1): x wraps 3 -> 0 in class 1; at router 0,
  // having arrived on -x (port 1) in VC 1, it turns to +y (port 2) and starts again in class 0.
  const TopologyParams p = torus(4, 2);
  const Graph g = build(p);
  const Routing routing(p, g, 2);
  const RouteSet wrap = routing.route(3, 4, 0, 4);
  EXPECT_EQ(wrap.ports[0], 0);
  EXPECT_EQ(wrap.vc_lo, 1);
  const RouteSet turn = routing.route(0, 1, 1, 4);
  EXPECT_EQ(turn.ports[0], 2);
  EXPECT_EQ(turn.vc_lo, 0);
  EXPECT_EQ(turn.vc_hi, 0);
}

TEST(Routing, FatTreeRandomFreeOffersEveryParent) {
  // CM-5, 64 nodes. Level-1 router 0 serves nodes 0..3: to node 63 it may take either of its 2 parents
  // (ports 4, 5); to node 2 it goes down child port 2. A level-2 chip (router 32) serves nodes 0..15 and
  // also has 2 parents.
  const TopologyParams p = cm5(3);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  const RouteSet up = routing.route(0, 0, 0, 63);
  ASSERT_EQ(up.count, 2);
  EXPECT_EQ(up.ports[0], 4);
  EXPECT_EQ(up.ports[1], 5);
  EXPECT_EQ(routing.route(0, 0, 0, 2).ports[0], 2);
  EXPECT_EQ(routing.route(32, 1, 0, 63).count, 2);
  // 16-node 4-ary 2-tree with 4 parents: all four offered.
  const Graph t = build(k_ary_n_tree(4, 2));
  EXPECT_EQ(Routing(k_ary_n_tree(4, 2), t, 1).route(0, 0, 0, 15).count, 4);
}

TEST(Routing, FatTreeDeterministicUpRoutingIsBalanced) {
  // 4-ary 3-tree: level-1 router 0 serves nodes 0..3 and sends every other destination up parent
  // 4 + dest % 4. The 48 destinations 16..63 outside its level-2 subtree give each parent 48 / 4 = 12;
  // all 60 destinations 4..63 outside its own subtree give each 60 / 4 = 15.
  const TopologyParams p = k_ary_n_tree(4, 3, UpRouting::Deterministic);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  auto tally = [&](NodeId first) {
    std::map<int, int> per_parent;
    for (NodeId dest = first; dest < 64; ++dest) {
      const RouteSet rs = routing.route(0, 0, 0, dest);
      EXPECT_EQ(rs.count, 1);
      ++per_parent[rs.ports[0]];
    }
    return per_parent;
  };
  EXPECT_EQ(tally(16), (std::map<int, int>{{4, 12}, {5, 12}, {6, 12}, {7, 12}}));
  EXPECT_EQ(tally(4), (std::map<int, int>{{4, 15}, {5, 15}, {6, 15}, {7, 15}}));
}

TEST(Routing, Cm5DeterministicUpRoutingIsBalanced) {
  // CM-5, 64 nodes: level-1 chips have P(1) = 2 parents, chosen by dest % 2; the 60 destinations
  // outside subtree 0 split 30 / 30.
  const TopologyParams p = cm5(3, UpRouting::Deterministic);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  std::map<int, int> per_parent;
  for (NodeId dest = 4; dest < 64; ++dest) ++per_parent[routing.route(0, 0, 0, dest).ports[0]];
  EXPECT_EQ(per_parent, (std::map<int, int>{{4, 30}, {5, 30}}));
}

TEST(Routing, FatTreeDeterministicUpRoutingIsDestinationBased) {
  // The chip reached at level k+1 is chip x P(k) + parent, a function of dest alone (one link per node),
  // so every source whose LCA with dest is the root passes the same root chip for that dest, and the 16
  // root chips each serve 64 / 16 = 4 destinations.
  const TopologyParams p = k_ary_n_tree(4, 3, UpRouting::Deterministic);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  RouteWalker walker(g, routing, 1);
  std::map<int, std::set<RouterId>> roots;  // dest -> root chips used
  for (NodeId s = 0; s < 64; ++s) {
    for (NodeId d = 0; d < 64; ++d) {
      if (routing.router_hops(s, d) != 5) continue;
      const std::string error = walker.walk(
          s, 0, d, Branches::All, [&](const std::vector<Hop>& path) { roots[d].insert(path[2].router); });
      ASSERT_EQ(error, "");
    }
  }
  std::map<RouterId, int> dests_per_root;
  for (const auto& [d, chips] : roots) {
    ASSERT_EQ(chips.size(), 1u) << "dest " << d;
    ++dests_per_root[*chips.begin()];
  }
  EXPECT_EQ(dests_per_root.size(), 16u);
  for (const auto& [chip, count] : dests_per_root) EXPECT_EQ(count, 4) << "root chip " << chip;
}

TEST(RoutingDeathTest, FatTreeNeverRoutesParentToParent) {
  // A packet that arrived at level-1 router 0 from parent port 4 is on its way down; asking it to climb
  // again (dest 63 lies outside) is a bug in the caller.
  const TopologyParams p = k_ary_n_tree(4, 3);
  const Graph g = build(p);
  const Routing routing(p, g, 1);
  EXPECT_DEATH(routing.route(0, 4, 0, 63), "came down from a parent");
}

}  // namespace
}  // namespace mppnet::topo
