// topo/deadlock_test.cpp: the channel-dependency graphs that route() induces are acyclic (Dally and
// Seitz: acyclic dependencies between (channel, VC class) pairs imply deadlock-free routing).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/route_walk_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::topo {
namespace {

using namespace ::mppnet::topo::testing;

enum class Classes { Dateline, OneClass };

// Vertices are (router-to-router channel, VC class): channel = global port index of its output end,
// class = 1 when the hop's VC range lies in the upper half [vcs/2, vcs-1]. An edge joins two consecutive
// router-to-router hops of a path route() allows. With Classes::OneClass every hop counts as class 0.
std::vector<std::vector<int>> dependencies(const TopologyParams& p, int vcs, Classes classes) {
  const Graph g = build(p);
  const Routing routing(p, g, vcs);
  RouteWalker walker(g, routing, vcs);
  std::vector<std::vector<int>> next(2 * g.ports.size());
  auto vertex = [&](const Hop& h) {
    const int cls = classes == Classes::Dateline && vcs >= 2 && h.vc_lo >= vcs / 2 ? 1 : 0;
    return 2 * (g.port_base[h.router] + h.out_port) + cls;
  };
  for (NodeId s = 0; s < g.num_nodes; ++s) {
    for (NodeId d = 0; d < g.num_nodes; ++d) {
      for (int link = 0; link < g.links_per_node; ++link) {
        const auto error = walker.walk(s, link, d, Branches::All, [&](const std::vector<Hop>& path) {
          // The last hop ejects to the node, which always drains: it closes no cycle.
          for (std::size_t i = 0; i + 2 < path.size(); ++i)
            next[vertex(path[i])].push_back(vertex(path[i + 1]));
        });
        EXPECT_EQ(error, "");
      }
    }
  }
  for (auto& out : next) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return next;
}

// Iterative three-colour depth-first search.
bool has_cycle(const std::vector<std::vector<int>>& next) {
  enum : char { White, Grey, Black };
  std::vector<char> colour(next.size(), White);
  std::vector<std::pair<int, std::size_t>> stack;
  for (int root = 0; root < static_cast<int>(next.size()); ++root) {
    if (colour[root] != White) continue;
    stack.push_back({root, 0});
    colour[root] = Grey;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i == next[v].size()) {
        colour[v] = Black;
        stack.pop_back();
        continue;
      }
      const int w = next[v][i++];
      if (colour[w] == Grey) return true;
      if (colour[w] == White) {
        colour[w] = Grey;
        stack.push_back({w, 0});
      }
    }
  }
  return false;
}

int edge_count(const std::vector<std::vector<int>>& next) {
  int edges = 0;
  for (const auto& out : next) edges += static_cast<int>(out.size());
  return edges;
}

TEST(Deadlock, CycleCheckFindsARing) {
  // 0 -> 1 -> 2 -> 0 is a cycle; dropping 2 -> 0 leaves a chain.
  EXPECT_TRUE(has_cycle({{1}, {2}, {0}}));
  EXPECT_FALSE(has_cycle({{1}, {2}, {}}));
}

TEST(Deadlock, TorusDatelineClassesAreAcyclic) {
  for (const auto& [p, vcs] :
       {std::pair{torus(4, 2), 2}, std::pair{torus(5, 2), 2}, std::pair{torus(3, 3), 2},
        std::pair{torus(4, 3), 4}, std::pair{torus(5, 3), 2}, std::pair{torus(8, 1), 3}}) {
    const auto next = dependencies(p, vcs, Classes::Dateline);
    EXPECT_GT(edge_count(next), 0);
    EXPECT_FALSE(has_cycle(next)) << describe(p) << " vcs=" << vcs;
  }
}

TEST(Deadlock, TorusWithoutClassesHasACycle) {
  // The same routes with every VC in one class: each ring's dependencies close on themselves, which
  // is why a torus needs its dateline (and why check() asks for 2 VCs).
  for (const auto& p : {torus(4, 2), torus(5, 2), torus(4, 3), torus(5, 3)}) {
    EXPECT_TRUE(has_cycle(dependencies(p, 2, Classes::OneClass))) << describe(p);
  }
}

TEST(Deadlock, PartlyWrappedMeshDatelineClassesAreAcyclic) {
  // Dateline classes in the rings only; the open dimensions offer every VC (class 0 here) and close no
  // cycle of their own.
  for (const auto& [p, vcs] : {std::pair{cylinder(8, 2, {1}), 2}, std::pair{cylinder(5, 2, {0}), 2},
                               std::pair{cylinder(4, 3, {0, 2}), 4}, std::pair{cylinder(3, 3, {1}), 2}}) {
    const auto next = dependencies(p, vcs, Classes::Dateline);
    EXPECT_GT(edge_count(next), 0);
    EXPECT_FALSE(has_cycle(next)) << describe(p) << " vcs=" << vcs;
  }
}

TEST(Deadlock, CylinderWithoutClassesHasACycle) {
  // The ring of a cylinder needs its dateline as a torus's rings do.
  for (const auto& p : {cylinder(4, 2, {1}), cylinder(5, 2, {0})})
    EXPECT_TRUE(has_cycle(dependencies(p, 2, Classes::OneClass))) << describe(p);
}

TEST(Deadlock, MeshDimensionOrderIsAcyclic) {
  for (const auto& p : {mesh(4, 2), mesh(5, 2), mesh(3, 3), mesh(2, 4)}) {
    EXPECT_FALSE(has_cycle(dependencies(p, 1, Classes::OneClass))) << describe(p);
  }
}

TEST(Deadlock, HypercubeECubeIsAcyclic) {
  for (const auto& p : {hypercube(3), hypercube(6)}) {
    EXPECT_FALSE(has_cycle(dependencies(p, 1, Classes::OneClass))) << describe(p);
  }
}

TEST(Deadlock, FatTreeUpDownIsAcyclic) {
  const TopologyParams two_links = topology_of(FatTreeParams{.n = 2, .children = 4, .leaf_links = 2});
  for (const auto& p : {k_ary_n_tree(4, 3), k_ary_n_tree(2, 4), k_ary_n_tree(4, 3, UpRouting::Deterministic),
                        cm5(3), two_links}) {
    const auto next = dependencies(p, 1, Classes::OneClass);
    EXPECT_GT(edge_count(next), 0);
    EXPECT_FALSE(has_cycle(next)) << describe(p);
  }
}

}  // namespace
}  // namespace mppnet::topo
