// topo/cmesh_test.cpp: the concentrated mesh's numbering, wiring, checks and XY routing over every pair.
#include "topo/cmesh.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "topo/build.hpp"
#include "topo/route_walk_for_test.hpp"

namespace mppnet::topo {
namespace {

using namespace ::mppnet::topo::testing;

const CmeshParams kBooksims{.k = 4, .concentration_x = 2, .concentration_y = 2};  // booksim2's cmesh example

TEST(Cmesh, SizesAndDegrees) {
  // 4 x 4 routers of 2 x 2 nodes: 64 nodes, 16 routers of 4 node ports and 4 router ports.
  const Graph g = build(topology_of(kBooksims));
  EXPECT_EQ(g.num_nodes, 64);
  EXPECT_EQ(g.num_routers(), 16);
  EXPECT_EQ(g.max_ports(), 8);
  // A mesh of k x k routers has 2 k (k - 1) links, each two channels: 48 for k = 4.
  EXPECT_EQ(g.num_router_channels(), 2 * 2 * 4 * 3);
  // Router degree: corners 2, edges 3, the 4 inner routers 4.
  std::vector<int> routers_of_degree(5, 0);
  for (RouterId r = 0; r < g.num_routers(); ++r) {
    int degree = 0, nodes = 0;
    for (PortId p = 0; p < g.num_ports(r); ++p) {
      degree += g.link(r, p).kind == PeerKind::Router;
      nodes += g.link(r, p).kind == PeerKind::Node;
    }
    EXPECT_EQ(nodes, 4);
    ++routers_of_degree[degree];
  }
  EXPECT_EQ(routers_of_degree[2], 4);
  EXPECT_EQ(routers_of_degree[3], 8);
  EXPECT_EQ(routers_of_degree[4], 4);
}

TEST(Cmesh, NodesAreNumberedOnTheGridAsBooksimNumbersThem) {
  // Grid of k cx = 8 columns: nodes 0, 1, 8, 9 share router 0 (BookSim's "the first node has 0,1,8,9");
  // node 2 is on router 1; node 16 (row 2) on router 4 = (0, 1); node 63 on router 15, port 3.
  for (NodeId v : {0, 1, 8, 9}) EXPECT_EQ(cmesh_attachment(kBooksims, v).router, 0) << v;
  EXPECT_EQ(cmesh_attachment(kBooksims, 9).port, 3);
  EXPECT_EQ(cmesh_attachment(kBooksims, 2).router, 1);
  EXPECT_EQ(cmesh_attachment(kBooksims, 16).router, 4);
  EXPECT_EQ(cmesh_attachment(kBooksims, 63).router, 15);
  EXPECT_EQ(cmesh_attachment(kBooksims, 63).port, 3);
  const Graph g = build(topology_of(kBooksims));
  for (NodeId v = 0; v < g.num_nodes; ++v) {
    const NodeLink& l = g.node_links[v];
    EXPECT_EQ(g.link(l.router, l.port).kind, PeerKind::Node);
    EXPECT_EQ(g.link(l.router, l.port).peer, v);
  }
}

TEST(Cmesh, EveryPairIsRoutedInXyOrderThroughManhattanDistancePlusOneRouters) {
  const CmeshParams p{.k = 4, .concentration_x = 2, .concentration_y = 3};  // asymmetric on purpose
  const TopologyParams t = topology_of(p);
  const Graph g = build(t);
  const Routing routing(t, g, 2);
  RouteWalker walker(g, routing, 2);
  int longest = 0;
  for (NodeId s = 0; s < g.num_nodes; ++s) {
    for (NodeId d = 0; d < g.num_nodes; ++d) {
      const RouterId a = cmesh_attachment(p, s).router, b = cmesh_attachment(p, d).router;
      const int expected = std::abs(a % 4 - b % 4) + std::abs(a / 4 - b / 4) + 1;
      int paths = 0;
      const std::string error = walker.walk(s, 0, d, Branches::All, [&](const std::vector<Hop>& path) {
        ++paths;
        EXPECT_EQ(static_cast<int>(path.size()), expected) << s << " -> " << d;
        // XY: once the packet moves in y (ports c+2, c+3) it never moves in x again.
        bool in_y = false;
        for (const Hop& h : path) {
          const bool y = h.out_port == cmesh_direction_port(p, 1, true) ||
                         h.out_port == cmesh_direction_port(p, 1, false);
          const bool x = h.out_port == cmesh_direction_port(p, 0, true) ||
                         h.out_port == cmesh_direction_port(p, 0, false);
          EXPECT_FALSE(in_y && x) << s << " -> " << d;
          in_y = in_y || y;
          EXPECT_EQ(h.vc_lo, 0);
          EXPECT_EQ(h.vc_hi, 1);  // every VC, as BookSim's dor_no_express_cmesh
        }
      });
      ASSERT_EQ(error, "");
      EXPECT_EQ(paths, 1);
      EXPECT_EQ(routing.router_hops(s, d), expected);
      longest = std::max(longest, expected);
    }
  }
  EXPECT_EQ(longest, max_router_hops(t));
}

TEST(Cmesh, ChecksNameTheKeyAtFault) {
  const std::vector<Problem> small = check(topology_of(CmeshParams{.k = 1}), 1);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].key, "topology.k");
  const std::vector<Problem> wide =
      check(topology_of(CmeshParams{.k = 4, .concentration_x = 8, .concentration_y = 8}), 1);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].key, "topology.concentration_x");
  const std::vector<Problem> huge =
      check(topology_of(CmeshParams{.k = 1024, .concentration_x = 16, .concentration_y = 2}), 1);
  ASSERT_EQ(huge.size(), 1u);
  EXPECT_EQ(huge[0].key, "topology.k");
}

}  // namespace
}  // namespace mppnet::topo
