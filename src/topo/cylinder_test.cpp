// topo/cylinder_test.cpp: meshes that wrap some dimensions (topology.wrap): the graph, dimension-order
// routes with dateline classes in the rings only, path multicast route sets, and check()'s rejections.
//
// The cylinder is the CNS-1's network (reference note 002 §3.7): an 8 x 8 mesh that wraps dimension 1.
// Router id = x + 8 y, x = dimension 0 (open), y = dimension 1 (a ring of 8).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/path_multicast.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo::cylinder_test {
namespace {

using ::testing::HasSubstr;
using namespace ::mppnet::topo::testing;

constexpr int kK = 8;
constexpr RouterId at(int x, int y) {
  return x + kK * y;
}

TEST(Cylinder, OnlyTheListedDimensionWraps) {
  const Graph g = build(cylinder(kK, 2, {1}));
  // y = 7 -> 0 through +1 in dimension 1, and back through -1.
  EXPECT_EQ(g.link(at(3, 7), plus_port(1)).kind, PeerKind::Router);
  EXPECT_EQ(g.link(at(3, 7), plus_port(1)).peer, at(3, 0));
  EXPECT_EQ(g.link(at(3, 0), minus_port(1)).peer, at(3, 7));
  // x = 7 has no +1 neighbour, x = 0 no -1 neighbour: dimension 0 is open.
  EXPECT_EQ(g.link(at(7, 2), plus_port(0)).kind, PeerKind::None);
  EXPECT_EQ(g.link(at(0, 2), minus_port(0)).kind, PeerKind::None);
}

TEST(Cylinder, RoutesTakeDatelineClassesOnlyInTheRing) {
  const TopologyParams p = cylinder(kK, 2, {1});
  const Graph g = build(p);
  const Routing routing(p, g, 2);
  EXPECT_TRUE(routing.uses_input_vc());
  const PortId node = cube_node_port(2);
  // Open dimension: every VC, as on a mesh.
  const RouteSet x = routing.route(at(0, 0), node, 0, at(5, 0));
  EXPECT_EQ(x.ports[0], plus_port(0));
  EXPECT_EQ(x.vc_lo, 0);
  EXPECT_EQ(x.vc_hi, 1);
  // Ring, 7 forward = 1 back: - over the wrap link 0 -> 7, class 1 from the start.
  const RouteSet back = routing.route(at(0, 0), node, 0, at(0, 7));
  EXPECT_EQ(back.ports[0], minus_port(1));
  EXPECT_EQ(back.vc_lo, 1);
  EXPECT_EQ(back.vc_hi, 1);
  // Ring, 4 each way: the tie goes +, class 0 until the wrap link.
  const RouteSet tie = routing.route(at(0, 0), node, 0, at(0, 4));
  EXPECT_EQ(tie.ports[0], plus_port(1));
  EXPECT_EQ(tie.vc_lo, 0);
  EXPECT_EQ(tie.vc_hi, 0);
  // Routers on a route: |dx| + the shorter way round + 1.
  EXPECT_EQ(routing.router_hops(at(0, 0), at(7, 5)), 7 + 3 + 1);
  EXPECT_EQ(max_router_hops(p), 7 + 4 + 1);
}

TEST(Cylinder, NeedsTwoVcsForItsDatelineUnlessTurnedOff) {
  EXPECT_EQ(Routing::min_vcs(cylinder(kK, 2, {1})), 2);
  TopologyParams off = cylinder(kK, 2, {1});
  off.values["dateline"] = false;
  EXPECT_EQ(Routing::min_vcs(off), 1);
  EXPECT_EQ(Routing::min_vcs(mesh(kK, 2)), 1);
  const auto problems = check(cylinder(kK, 2, {1}), 1);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].key, "router.vcs");
  EXPECT_EQ(problems[0].reason,
            "a mesh with wrapped dimensions (topology.wrap) needs at least 2 VCs per port for their dateline "
            "classes (got 1)");
}

// The single problem check() reports with 2 VCs; fails the test when there is not exactly one.
Problem only_problem(const TopologyParams& p) {
  const auto problems = check(p, 2);
  if (problems.size() != 1) {
    for (const auto& q : problems) ADD_FAILURE() << q.key << ": " << q.reason;
    return {};
  }
  return problems.front();
}

TEST(Cylinder, CheckRejectsADimensionThatDoesNotExist) {
  const Problem q = only_problem(cylinder(kK, 2, {2}));
  EXPECT_EQ(q.key, "topology.wrap");
  EXPECT_EQ(q.reason, "wrap[0] = 2: a 2-dimensional mesh has dimensions 0 to 1");
}

TEST(Cylinder, CheckRejectsADimensionListedTwice) {
  const Problem q = only_problem(cylinder(kK, 2, {1, 0, 1}));
  EXPECT_EQ(q.key, "topology.wrap");
  EXPECT_EQ(q.reason, "wrap[2] = 1: dimension 1 is listed twice");
}

TEST(Cylinder, CheckRejectsARingOfTwo) {
  const Problem q = only_problem(cylinder(2, 2, {0}));
  EXPECT_EQ(q.key, "topology.k");
  EXPECT_EQ(q.reason, "a mesh with wrapped dimensions (topology.wrap) needs k >= 3 (got 2)");
  EXPECT_TRUE(check(cylinder(3, 2, {0}), 2).empty());
}

TEST(Cylinder, ATorusHasNoWrapKey) {
  TopologyParams t = torus(kK, 2);
  t.values["wrap"] = std::vector<std::int64_t>{1};
  const Problem q = only_problem(t);
  EXPECT_EQ(q.key, "topology.wrap");
  EXPECT_THAT(q.reason, HasSubstr("a torus has no key wrap"));
}

TEST(Cylinder, EveryDimensionWrappedIsATorus) {
  // The same graph and routes as the torus: the mesh's wrap list names every dimension.
  const Graph a = build(cylinder(5, 2, {0, 1}));
  const Graph b = build(torus(5, 2));
  ASSERT_EQ(a.ports.size(), b.ports.size());
  for (std::size_t i = 0; i < a.ports.size(); ++i) {
    EXPECT_EQ(a.ports[i].kind, b.ports[i].kind) << i;
    EXPECT_EQ(a.ports[i].peer, b.ports[i].peer) << i;
  }
}

// Path multicast: the route set at each router of a packet whose routing word is kPathMulticast.
struct McastRig {
  TopologyParams p = cylinder(kK, 2, {1}, true);
  Graph g = build(p);
  Routing routing{p, g, 2};
};

TEST(PathMulticast, SourceForwardsOnlyMiddleRoutersAlsoDeliverDestinationOnlyDelivers) {
  McastRig rig;
  EXPECT_TRUE(rig.routing.may_multicast());
  EXPECT_TRUE(rig.routing.needs_header());
  const PortId node = cube_node_port(2);
  PacketHead head{.dest = at(5, 3), .header = kPathMulticast};
  const RouteSet src = rig.routing.route(at(0, 3), node, 0, head);
  EXPECT_FALSE(src.multicast) << "the source gets no copy";
  EXPECT_EQ(src.ports[0], plus_port(0));
  const RouteSet mid = rig.routing.route(at(2, 3), minus_port(0), 0, head);
  EXPECT_TRUE(mid.multicast);
  ASSERT_EQ(mid.count, 2);
  EXPECT_EQ(mid.ports[0], plus_port(0));
  EXPECT_EQ(mid.ports[1], node);
  const RouteSet dest = rig.routing.route(at(5, 3), minus_port(0), 0, head);
  EXPECT_FALSE(dest.multicast);
  EXPECT_EQ(dest.ports[0], node);
  // A unicast (routing word 0) on the same network is plain dimension order.
  PacketHead unicast{.dest = at(5, 3)};
  EXPECT_FALSE(rig.routing.route(at(2, 3), minus_port(0), 0, unicast).multicast);
}

TEST(PathMulticast, RingBranchesKeepTheDatelineClass) {
  McastRig rig;
  // (0, 6) -> (0, 1): 3 hops + over the wrap link 7 -> 0; at router (0, 7) the onward hop is class 1
  // and so is the node's copy.
  PacketHead head{.dest = at(0, 1), .header = kPathMulticast};
  const RouteSet rs = rig.routing.route(at(0, 7), minus_port(1), 0, head);
  ASSERT_TRUE(rs.multicast);
  EXPECT_EQ(rs.ports[0], plus_port(1));
  EXPECT_EQ(rs.vc_lo, 1);
  EXPECT_EQ(rs.vc_hi, 1);
}

}  // namespace
}  // namespace mppnet::topo::cylinder_test
