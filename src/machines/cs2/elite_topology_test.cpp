// machines/cs2/elite_topology_test.cpp: the CS-2 layer's shape and graph.
#include "machines/cs2/elite_topology.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cs2 {
namespace {

// Every port's link is symmetric and every PE is on one port.
void expect_consistent(const topo::Graph& g) {
  for (RouterId r = 0; r < g.num_routers(); ++r)
    for (int p = 0; p < g.num_ports(r); ++p) {
      const topo::PortLink& l = g.link(r, p);
      if (l.kind == topo::PeerKind::Router) {
        const topo::PortLink& back = g.link(l.peer, l.peer_port);
        EXPECT_EQ(back.peer, r);
        EXPECT_EQ(back.peer_port, p);
      } else if (l.kind == topo::PeerKind::Node) {
        EXPECT_EQ(g.node_links[l.peer].router, r);
        EXPECT_EQ(g.node_links[l.peer].port, p);
      }
    }
}

int unconnected(const topo::Graph& g) {
  int n = 0;
  for (const topo::PortLink& l : g.ports) n += l.kind == topo::PeerKind::None;
  return n;
}

TEST(EliteTopology, CompleteEvenSizesHaveKNOver4SwitchesAndNFreeTopLinks) {
  // k N / 4 switches (L229-L241); (k-1) N inter-switch links; N top links left for expansion (L215-L216).
  int k = 1;
  for (int n : {4, 16, 64, 256, 1024}) {
    const LayerShape s(n, Doubling::EightWayTop);
    EXPECT_EQ(s.stages(), k);
    EXPECT_EQ(s.size(), 2 * k);
    const topo::Graph g = build_layer(s);
    EXPECT_EQ(g.num_routers(), k * n / 4);
    EXPECT_EQ(g.num_router_channels(), 2 * (k - 1) * n) << "two directions per link";
    EXPECT_EQ(unconnected(g), n);
    expect_consistent(g);
    ++k;
  }
}

TEST(EliteTopology, EightWayTopUsesEveryTopPortAsADownLink) {
  // Reading B (note §2.4.3): 2N PEs under N/4 top switches of 8 down-links, no expansion ports.
  const LayerShape s(128, Doubling::EightWayTop);
  EXPECT_EQ(s.size(), 7);
  EXPECT_EQ(s.stages(), 3);
  EXPECT_EQ(s.radix(2), 8);
  const topo::Graph g = build_layer(s);
  EXPECT_EQ(g.num_routers(), 2 * 128 / 4 + 128 / 8);
  EXPECT_EQ(unconnected(g), 0);
  expect_consistent(g);
  const LayerShape eight(8, Doubling::EightWayTop);
  EXPECT_EQ(build_layer(eight).num_routers(), 1) << "size 3: 8 PEs on one Elite";
}

TEST(EliteTopology, BackToBackJoinsTwoHalvesAtTheirTops) {
  // Reading C: two 64-PE networks (48 switches each), their 64 free top links joined pairwise.
  const LayerShape s(128, Doubling::BackToBack);
  const topo::Graph g = build_layer(s);
  EXPECT_EQ(g.num_routers(), 96);
  EXPECT_EQ(unconnected(g), 0);
  EXPECT_EQ(s.level(3), 1) << "the per-stage formula holds: the top stage is level size - 2k = 1";
  expect_consistent(g);
  const topo::PortLink& across = g.link(s.router({3, 0, 5}), 6);
  EXPECT_EQ(across.peer, s.router({3, 1, 5}));
  EXPECT_EQ(across.peer_port, 6);
}

TEST(EliteTopology, UpPortUReachesThePlaneWithDigitU) {
  // Note §2.4.1: up-port u of (st, P, Q) reaches (st+1, P/4, Q + u 4^(st-1)) on down-port P mod 4.
  const LayerShape s(256, Doubling::EightWayTop);
  const topo::Graph g = build_layer(s);
  const topo::PortLink& l = g.link(s.router({2, 5, 3}), 4 + 2);
  EXPECT_EQ(s.switch_of(l.peer), (SwitchId{3, 1, 3 + 2 * 4}));
  EXPECT_EQ(l.peer_port, 5 % 4);
}

TEST(EliteTopology, AnIncompleteNetworkHasTheSwitchesAboveItsPes) {
  // 100 PEs: size 7 (33..128 PEs, L304-L305), an 8-way top; bottom switches for 25 groups of 4, 7 stage-2
  // identifiers of 16 PEs with 4 planes each, and the whole top stage of 16 planes (every top switch
  // serves every subtree).
  const LayerShape s(100, Doubling::EightWayTop);
  EXPECT_EQ(s.size(), 7);
  EXPECT_EQ(s.switches(1), 25);
  EXPECT_EQ(s.switches(2), 7 * 4);
  EXPECT_EQ(s.switches(3), 16);
  const topo::Graph g = build_layer(s);
  EXPECT_EQ(g.num_nodes, 100);
  EXPECT_EQ(g.num_routers(), 25 + 28 + 16);
  expect_consistent(g);
  EXPECT_FALSE(s.exists({2, 7, 0}));
  // Size 8 from 129 PEs up.
  EXPECT_EQ(LayerShape(129, Doubling::EightWayTop).size(), 8);
}

TEST(EliteTopology, RoutersAndSwitchIdsAreInverse) {
  const LayerShape s(512, Doubling::BackToBack);
  for (RouterId r = 0; r < s.switches(); ++r) EXPECT_EQ(s.router(s.switch_of(r)), r);
}

TEST(EliteTopology, LayerProblemsNameTheCount) {
  EXPECT_EQ(layer_problem(1), "the CS-2 needs at least 2 PEs (got 1)");
  EXPECT_EQ(layer_problem(16385), "at most 16384 PEs (size 14, 7 stages) are modelled (got 16385)");
  EXPECT_EQ(layer_problem(5), "");
}

}  // namespace
}  // namespace mppnet::machines::cs2
