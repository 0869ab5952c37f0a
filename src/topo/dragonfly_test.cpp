// topo/dragonfly_test.cpp: the dragonfly's wiring, checks, and both routings walked over every pair (and,
// for Valiant, every intermediate group), with their channel dependencies shown acyclic.
#include "topo/dragonfly.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/route_walk_for_test.hpp"

namespace mppnet::topo {
namespace {

using ::testing::HasSubstr;
using namespace ::mppnet::topo::testing;
constexpr auto kValiant = DragonflyRouting::Valiant;

TEST(Dragonfly, SizesOfThePresets) {
  // p = 2, a = 4, h = 2: g = 4 * 2 + 1 = 9 groups, 36 routers, 72 nodes, 2 + 3 + 2 = 7 ports.
  const Graph g = build(dragonfly(2, 4, 2));
  EXPECT_EQ(g.num_nodes, 72);
  EXPECT_EQ(g.num_routers(), 36);
  EXPECT_EQ(g.max_ports(), 7);
  // p = 4, a = 8, h = 4: g = 33 groups, 264 routers, 1,056 nodes.
  EXPECT_EQ(node_count(dragonfly(4, 8, 4)), 1056);
  EXPECT_EQ(build(dragonfly(4, 8, 4)).num_routers(), 264);
}

TEST(Dragonfly, EveryPairOfGroupsIsJoinedByExactlyOneGlobalLinkBothWays) {
  for (const auto& [pp, a, h] :
       {std::tuple{2, 4, 2}, std::tuple{1, 3, 1}, std::tuple{1, 1, 3}, std::tuple{3, 2, 5}}) {
    const DragonflyParams d{.p = pp, .a = a, .h = h};
    const Graph g = build_dragonfly(d);
    std::map<std::pair<int, int>, int> links;  // (group, other group) -> global links
    for (RouterId r = 0; r < g.num_routers(); ++r) {
      ASSERT_EQ(g.num_ports(r), pp + a - 1 + h);
      for (PortId port = 0; port < g.num_ports(r); ++port) {
        const PortLink& l = g.link(r, port);
        if (port < pp) {
          // Node port j of router r holds node r * p + j, whose only link comes back here.
          EXPECT_EQ(l.kind, PeerKind::Node);
          EXPECT_EQ(l.peer, r * pp + port);
          EXPECT_EQ(g.node_links[l.peer].router, r);
          EXPECT_EQ(g.node_links[l.peer].port, port);
          continue;
        }
        ASSERT_EQ(l.kind, PeerKind::Router) << "router " << r << " port " << port;
        // Symmetric: the peer's port comes back to this one.
        EXPECT_EQ(g.link(l.peer, l.peer_port).peer, r);
        EXPECT_EQ(g.link(l.peer, l.peer_port).peer_port, port);
        const bool global = port >= pp + a - 1;
        EXPECT_EQ(global, l.peer_port >= pp + a - 1) << "a global port leads to a global port";
        if (!global) {
          EXPECT_EQ(l.peer / a, r / a) << "a local link stays in its group";
          continue;
        }
        EXPECT_NE(l.peer / a, r / a) << "a global link leaves its group";
        ++links[{r / a, l.peer / a}];
      }
      // Local links: one to each other router of the group.
      std::set<RouterId> local;
      for (PortId port = pp; port < pp + a - 1; ++port) local.insert(g.link(r, port).peer);
      EXPECT_EQ(static_cast<int>(local.size()), a - 1);
    }
    const int groups = a * h + 1;
    EXPECT_EQ(static_cast<int>(links.size()), groups * (groups - 1));
    for (const auto& [pair, count] : links) EXPECT_EQ(count, 1) << pair.first << " - " << pair.second;
  }
}

TEST(Dragonfly, GroupZeroReachesTheOtherGroupsInOrder) {
  // The absolute arrangement: router i's c-th global port is link t = i * h + c, to group t + 1 from
  // group 0; from group 5 link t goes to group t for t < 5 and t + 1 beyond.
  const DragonflyParams d{.p = 2, .a = 4, .h = 2};
  const Graph g = build_dragonfly(d);
  EXPECT_EQ(g.link(0, d.global_port(0)).peer / 4, 1);
  EXPECT_EQ(g.link(0, d.global_port(1)).peer / 4, 2);
  EXPECT_EQ(g.link(3, d.global_port(1)).peer / 4, 8);
  EXPECT_EQ(g.link(5 * 4 + 2, d.global_port(0)).peer / 4, 4);  // t = 4 < 5
  EXPECT_EQ(g.link(5 * 4 + 2, d.global_port(1)).peer / 4, 6);  // t = 5: skips group 5
}

TEST(Dragonfly, CheckNamesTheKeyOfEachImpossibleValue) {
  for (const auto& [p, key] : {std::pair{dragonfly(0, 4, 2), "topology.dragonfly_p"},
                               std::pair{dragonfly(2, 0, 2), "topology.dragonfly_a"},
                               std::pair{dragonfly(2, 4, 0), "topology.dragonfly_h"},
                               std::pair{dragonfly(2, 65, 2), "topology.dragonfly_a"},
                               std::pair{dragonfly(2, 4, 65), "topology.dragonfly_h"}}) {
    const auto problems = check(p, 2);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].key, key);
    EXPECT_THAT(problems[0].reason, HasSubstr("got "));
  }
  // 64 * 64 * (64 * 64 + 1) nodes is far beyond 2^22.
  const auto big = check(dragonfly(64, 64, 64), 2);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].key, "topology.dragonfly_a");
  EXPECT_THAT(big[0].reason, HasSubstr("at most 4194304"));
}

TEST(Dragonfly, MinimalNeedsTwoVcsAndValiantThree) {
  EXPECT_EQ(Routing::min_vcs(dragonfly(2, 4, 2)), 2);
  EXPECT_EQ(Routing::min_vcs(dragonfly(2, 4, 2, kValiant)), 3);
  EXPECT_TRUE(check(dragonfly(2, 4, 2), 2).empty());
  const auto minimal = check(dragonfly(2, 4, 2), 1);
  ASSERT_EQ(minimal.size(), 1u);
  EXPECT_EQ(minimal[0].key, "router.vcs");
  EXPECT_THAT(minimal[0].reason, HasSubstr("minimal routing needs at least 2 VCs per port"));
  const auto valiant = check(dragonfly(2, 4, 2, kValiant), 2);
  ASSERT_EQ(valiant.size(), 1u);
  EXPECT_THAT(valiant[0].reason, HasSubstr("Valiant routing needs at least 3 VCs per port"));
  EXPECT_THAT(valiant[0].reason, HasSubstr("(got 2)"));
}

TEST(Dragonfly, NameAndRegistration) {
  EXPECT_EQ(&topology("dragonfly"), &kDragonflyTopology);
  // Every registered topology has a summary and declares its keys.
  for (const TopologyInfo* t : topologies()) {
    EXPECT_STRNE(t->summary, "") << t->name;
    EXPECT_FALSE(t->keys().empty()) << t->name;
  }
}

int routers_via(const Graph& g, const DragonflyParams& d, RouterId from, RouterId to, int via) {
  return dragonfly_routers_via(g, d, from, to, via);
}

TEST(Dragonfly, MinimalRoutesEveryPairInRouterHopsRoutersThroughAtMostOneGlobalLink) {
  const TopologyParams p = dragonfly(2, 4, 2);
  const DragonflyParams d = dragonfly_params(p);
  const Graph g = build(p);
  const Routing routing(p, g, 2);
  RouteWalker walker(g, routing, 2);
  int longest = 0;
  for (NodeId s = 0; s < g.num_nodes; ++s) {
    for (NodeId t = 0; t < g.num_nodes; ++t) {
      int paths = 0;
      const auto error = walker.walk(s, 0, t, Branches::All, [&](const std::vector<Hop>& path) {
        ++paths;
        const int expected = routers_via(g, d, s / d.p, t / d.p, s / d.p / d.a);
        EXPECT_EQ(static_cast<int>(path.size()), expected) << s << " -> " << t;
        EXPECT_EQ(static_cast<int>(path.size()), routing.router_hops(s, t));
        longest = std::max(longest, static_cast<int>(path.size()));
      });
      ASSERT_EQ(error, "");
      EXPECT_EQ(paths, 1);
    }
  }
  EXPECT_EQ(longest, max_router_hops(p));
  EXPECT_EQ(longest, 4);
}

TEST(Dragonfly, ValiantGoesThroughItsIntermediateGroup) {
  const TopologyParams p = dragonfly(2, 4, 2, kValiant);
  const DragonflyParams d = dragonfly_params(p);
  const Graph g = build(p);
  const Routing routing(p, g, 3);
  EXPECT_TRUE(routing.needs_header());
  RouteWalker walker(g, routing, 3);
  int longest = 0;
  for (int via = 0; via < d.groups(); ++via) {
    // PacketHead::random = via / groups in 32-bit fixed point (plus half a step), drawn as group `via`.
    walker.set_random(((static_cast<std::uint64_t>(via) << 32) + (std::uint64_t{1} << 31)) / d.groups()
                      << 32);
    for (NodeId s = 0; s < g.num_nodes; s += 3) {
      for (NodeId t = 0; t < g.num_nodes; ++t) {
        const auto error = walker.walk(s, 0, t, Branches::All, [&](const std::vector<Hop>& path) {
          // A packet for its own group goes minimally, whatever it drew.
          const int expected_via = s / d.p / d.a == t / d.p / d.a ? s / d.p / d.a : via;
          EXPECT_EQ(static_cast<int>(path.size()), routers_via(g, d, s / d.p, t / d.p, expected_via))
              << s << " -> " << t << " via " << via;
          std::set<int> groups;
          for (const Hop& h : path) groups.insert(h.router / d.a);
          EXPECT_TRUE(groups.count(expected_via)) << s << " -> " << t << " via " << via;
          longest = std::max(longest, static_cast<int>(path.size()));
        });
        ASSERT_EQ(error, "");
      }
    }
  }
  EXPECT_EQ(longest, max_router_hops(p));
  EXPECT_EQ(longest, 6);
}

// Channel dependencies (Dally and Seitz): vertices are (router-to-router output port, lowest VC of the
// hop's range), which tells the classes apart; edges join consecutive router-to-router hops.
bool dependencies_have_cycle(const TopologyParams& p, int vcs) {
  const Graph g = build(p);
  const Routing routing(p, g, vcs);
  const DragonflyParams d = dragonfly_params(p);
  RouteWalker walker(g, routing, vcs);
  std::vector<std::set<int>> next(g.ports.size() * vcs);
  auto vertex = [&](const Hop& h) { return (g.port_base[h.router] + h.out_port) * vcs + h.vc_lo; };
  const int draws = d.routing == kValiant ? d.groups() : 1;
  for (int via = 0; via < draws; ++via) {
    walker.set_random(((static_cast<std::uint64_t>(via) << 32) + (std::uint64_t{1} << 31)) / d.groups()
                      << 32);
    for (NodeId s = 0; s < g.num_nodes; ++s)
      for (NodeId t = 0; t < g.num_nodes; ++t) {
        const auto error = walker.walk(s, 0, t, Branches::All, [&](const std::vector<Hop>& path) {
          for (std::size_t i = 0; i + 2 < path.size(); ++i) next[vertex(path[i])].insert(vertex(path[i + 1]));
        });
        EXPECT_EQ(error, "");
      }
  }
  // Kahn's algorithm: a cycle leaves vertices that never reach in-degree 0.
  std::vector<int> in(next.size(), 0);
  for (const auto& out : next)
    for (int w : out) ++in[w];
  std::vector<int> ready;
  for (std::size_t v = 0; v < next.size(); ++v)
    if (in[v] == 0) ready.push_back(static_cast<int>(v));
  std::size_t removed = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++removed;
    for (int w : next[v])
      if (--in[w] == 0) ready.push_back(w);
  }
  return removed != next.size();
}

TEST(Dragonfly, MinimalAndValiantChannelDependenciesAreAcyclic) {
  EXPECT_FALSE(dependencies_have_cycle(dragonfly(1, 4, 2), 2));
  EXPECT_FALSE(dependencies_have_cycle(dragonfly(1, 3, 1), 4));
  EXPECT_FALSE(dependencies_have_cycle(dragonfly(1, 4, 2, kValiant), 3));
  EXPECT_FALSE(dependencies_have_cycle(dragonfly(1, 2, 3, kValiant), 5));
}

TEST(Dragonfly, OneVcClassWouldCloseACycle) {
  // The same minimal routes with the classes ignored (vertices are channels alone): a local hop in one
  // group feeds the global link out of it, which feeds a local hop in the next group, and around the
  // groups this closes: the classes are what breaks the cycle.
  const TopologyParams p = dragonfly(1, 4, 2);
  const Graph g = build(p);
  const Routing routing(p, g, 2);
  RouteWalker walker(g, routing, 2);
  std::vector<std::set<int>> next(g.ports.size());
  for (NodeId s = 0; s < g.num_nodes; ++s)
    for (NodeId t = 0; t < g.num_nodes; ++t)
      walker.walk(s, 0, t, Branches::All, [&](const std::vector<Hop>& path) {
        for (std::size_t i = 0; i + 2 < path.size(); ++i)
          next[g.port_base[path[i].router] + path[i].out_port].insert(g.port_base[path[i + 1].router] +
                                                                      path[i + 1].out_port);
      });
  std::vector<int> colour(next.size(), 0);
  bool cycle = false;
  auto dfs = [&](auto&& self, int v) -> void {
    colour[v] = 1;
    for (int w : next[v]) {
      if (colour[w] == 1) cycle = true;
      if (colour[w] == 0) self(self, w);
    }
    colour[v] = 2;
  };
  for (std::size_t v = 0; v < next.size() && !cycle; ++v)
    if (colour[v] == 0) dfs(dfs, static_cast<int>(v));
  EXPECT_TRUE(cycle);
}

TEST(Dragonfly, ValiantHeaderRecordsTheIntermediateGroupAndGlobalHops) {
  const DragonflyParams d{.p = 2, .a = 4, .h = 2, .routing = kValiant};
  const Routing routing = Routing::bind(DragonflyValiantRouting(d, 3), 3);
  // Node 0 (router 0, group 0) to node 71 (router 35, group 8), drawing group 4.
  PacketHead head{.dest = 71, .header = 0, .random = ((std::uint64_t{4} << 32) + (1u << 31)) / 9 << 32};
  const RouteSet first = routing.route(0, 0, 0, head);
  EXPECT_EQ(valiant_intermediate(head.header), 4);
  EXPECT_FALSE(valiant_reached(head.header));
  // Group 0 reaches group 4 on link t = 3: router 1's global port 1, so the first hop is local to it.
  EXPECT_EQ(first.ports[0], d.local_port(0, 1));
  EXPECT_EQ(first.vc_lo, 0);
  const RouteSet second = routing.route(1, d.local_port(1, 0), 0, head);
  EXPECT_EQ(second.ports[0], d.global_port(1));
  EXPECT_EQ(valiant_global_hops(head.header), 1);
}

// The loads of dragonfly_uniform_load() against loads counted by walking every route: each (source,
// destination) pair carries 1 / (N - 1) of its source's injection rate, and under Valiant each
// intermediate group 1 / g of that.
TEST(Dragonfly, UniformChannelLoadsMatchTheDerivation) {
  for (const auto routing : {DragonflyRouting::Minimal, kValiant}) {
    for (const auto& [pp, a, h] : {std::tuple{2, 4, 2}, std::tuple{1, 3, 2}, std::tuple{3, 2, 1}}) {
      const TopologyParams p = dragonfly(pp, a, h, routing);
      const DragonflyParams d = dragonfly_params(p);
      const Graph g = build(p);
      const Routing r(p, g, 3);
      RouteWalker walker(g, r, 3);
      std::vector<double> load(g.ports.size(), 0);
      const int draws = routing == kValiant ? d.groups() : 1;
      const double share = 1.0 / (g.num_nodes - 1) / draws;
      for (int via = 0; via < draws; ++via) {
        walker.set_random(((static_cast<std::uint64_t>(via) << 32) + (std::uint64_t{1} << 31)) / d.groups()
                          << 32);
        for (NodeId s = 0; s < g.num_nodes; ++s)
          for (NodeId t = 0; t < g.num_nodes; ++t) {
            if (s == t) continue;
            walker.walk(s, 0, t, Branches::All, [&](const std::vector<Hop>& path) {
              for (std::size_t i = 0; i + 1 < path.size(); ++i)
                load[g.port_base[path[i].router] + path[i].out_port] += share;
            });
          }
      }
      double local = 0, global = 0;
      for (RouterId x = 0; x < g.num_routers(); ++x)
        for (PortId port = d.p; port < d.ports(); ++port) {
          double& most = port >= d.global_port(0) ? global : local;
          most = std::max(most, load[g.port_base[x] + port]);
        }
      const DragonflyUniformLoad want = dragonfly_uniform_load(d);
      EXPECT_NEAR(global, want.global, 1e-9) << pp << " " << a << " " << h;
      EXPECT_NEAR(local, want.local, 1e-9) << pp << " " << a << " " << h;
    }
  }
  // The preset: minimal is bounded by the terminal channels (1.0), Valiant by its global ones.
  EXPECT_DOUBLE_EQ(dragonfly_uniform_load({.p = 2, .a = 4, .h = 2}).bound(), 1.0);
  EXPECT_DOUBLE_EQ(dragonfly_uniform_load({.p = 2, .a = 4, .h = 2, .routing = kValiant}).bound(),
                   639.0 / 1024);
}

}  // namespace
}  // namespace mppnet::topo
