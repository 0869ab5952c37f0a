// topo/graph_test.cpp: structure of every built topology: symmetric links, channel counts, port conventions.
#include "topo/graph.hpp"

#include <gtest/gtest.h>

#include <string>

#include "topo/build.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::topo {
namespace {

using namespace ::mppnet::topo::testing;

// "" when every port link is matched by its peer's link back, and every node link by its port; else
// the first mismatch.
std::string asymmetry(const Graph& g) {
  for (RouterId r = 0; r < g.num_routers(); ++r) {
    for (PortId p = 0; p < g.num_ports(r); ++p) {
      const PortLink& l = g.link(r, p);
      const std::string here = "router " + std::to_string(r) + " port " + std::to_string(p);
      if (l.kind == PeerKind::Router) {
        if (l.peer < 0 || l.peer >= g.num_routers() || l.peer_port < 0 ||
            l.peer_port >= g.num_ports(l.peer)) {
          return here + ": peer out of range";
        }
        const PortLink& back = g.link(l.peer, l.peer_port);
        if (back.kind != PeerKind::Router || back.peer != r || back.peer_port != p)
          return here + ": not mirrored";
      } else if (l.kind == PeerKind::Node) {
        if (l.peer < 0 || l.peer >= g.num_nodes || l.peer_port < 0 || l.peer_port >= g.links_per_node) {
          return here + ": node out of range";
        }
        const NodeLink& nl = g.node_links[l.peer * g.links_per_node + l.peer_port];
        if (nl.router != r || nl.port != p) return here + ": node link does not lead back";
      }
    }
  }
  if (static_cast<int>(g.node_links.size()) != g.num_nodes * g.links_per_node) return "node_links size";
  for (std::size_t i = 0; i < g.node_links.size(); ++i) {
    const NodeLink& nl = g.node_links[i];
    const PortLink& l = g.link(nl.router, nl.port);
    if (l.kind != PeerKind::Node || l.peer * g.links_per_node + l.peer_port != static_cast<int>(i)) {
      return "node link " + std::to_string(i) + " is not attached";
    }
  }
  return "";
}

int count_kind(const Graph& g, PeerKind kind) {
  int count = 0;
  for (const PortLink& l : g.ports) count += l.kind == kind;
  return count;
}

TEST(Graph, EveryTopologyHasSymmetricLinks) {
  for (const auto& p : {mesh(4, 2), mesh(8, 2), mesh(3, 3), mesh(2, 4), torus(4, 2), torus(8, 2), torus(4, 3),
                        torus(5, 2), torus(3, 3), hypercube(1), hypercube(6), hypercube(10),
                        k_ary_n_tree(4, 2), k_ary_n_tree(4, 3), k_ary_n_tree(2, 5), cm5(3), cm5(5), cm5(7)}) {
    EXPECT_EQ(asymmetry(build(p)), "") << describe(p);
  }
}

TEST(Graph, MeshChannelsAndOpenEdgePorts) {
  // 8x8 mesh: per dimension 8 rows of 7 links = 56 links, 2 dimensions -> 112 links, 224 channels.
  // Edge ports: 2 per row and dimension -> 2 * 2 * 8 = 32 lead nowhere.
  const Graph g = build(mesh(8, 2));
  EXPECT_EQ(g.num_routers(), 64);
  EXPECT_EQ(g.num_nodes, 64);
  EXPECT_EQ(g.num_router_channels(), 224);
  EXPECT_EQ(count_kind(g, PeerKind::None), 32);
  EXPECT_EQ(g.max_ports(), 5);  // 2n + 1
}

TEST(Graph, TorusChannels) {
  // 8x8 torus: 64 routers x 4 network ports = 256 channels, none open.
  const Graph g = build(torus(8, 2));
  EXPECT_EQ(g.num_router_channels(), 256);
  EXPECT_EQ(count_kind(g, PeerKind::None), 0);
  // 4x4x4 torus: 64 routers x 6 ports = 384.
  EXPECT_EQ(build(torus(4, 3)).num_router_channels(), 384);
}

TEST(Graph, HypercubeChannels) {
  // n = 10: 1024 routers x 10 neighbours = 10,240 channels.
  const Graph g = build(hypercube(10));
  EXPECT_EQ(g.num_router_channels(), 10240);
  EXPECT_EQ(g.max_ports(), 11);
}

TEST(Graph, MeshAndTorusPortConventions) {
  // Router 9 of an 8x8 mesh is (1, 1): +x -> 10, -x -> 8, +y -> 17, -y -> 1; each neighbour sees it on
  // the opposite port of the same dimension; port 4 attaches node 9.
  const Graph m = build(mesh(8, 2));
  EXPECT_EQ(m.link(9, 0).peer, 10);
  EXPECT_EQ(m.link(9, 0).peer_port, 1);
  EXPECT_EQ(m.link(9, 1).peer, 8);
  EXPECT_EQ(m.link(9, 2).peer, 17);
  EXPECT_EQ(m.link(9, 3).peer, 1);
  EXPECT_EQ(m.link(9, 3).peer_port, 2);
  EXPECT_EQ(m.link(9, 4).kind, PeerKind::Node);
  EXPECT_EQ(m.link(9, 4).peer, 9);
  EXPECT_EQ(m.node_links[9].port, 4);
  // Router 7 is (7, 0): on the mesh +x leads nowhere; on the torus it wraps to (0, 0) and -y to (7, 7) = 63.
  EXPECT_EQ(m.link(7, 0).kind, PeerKind::None);
  const Graph t = build(torus(8, 2));
  EXPECT_EQ(t.link(7, 0).peer, 0);
  EXPECT_EQ(t.link(7, 0).peer_port, 1);
  EXPECT_EQ(t.link(7, 3).peer, 63);
}

TEST(Graph, HypercubePortConventions) {
  // n = 4: port 2 of router 5 (0101) goes to 0001 = 1 at its port 2; port 4 attaches the node.
  const Graph g = build(hypercube(4));
  EXPECT_EQ(g.link(5, 2).peer, 1);
  EXPECT_EQ(g.link(5, 2).peer_port, 2);
  EXPECT_EQ(g.link(5, 4).kind, PeerKind::Node);
}

TEST(Graph, KAryNTreeChannels) {
  // Between each pair of adjacent levels: k^(n-1) routers x k parent links = k^n links, 2 channels each.
  EXPECT_EQ(build(k_ary_n_tree(4, 2)).num_router_channels(), 2 * 1 * 16);  // 32
  EXPECT_EQ(build(k_ary_n_tree(4, 3)).num_router_channels(), 2 * 2 * 64);  // 256
  EXPECT_EQ(build(k_ary_n_tree(2, 5)).num_router_channels(), 2 * 4 * 32);  // 256
}

TEST(Graph, Cm5Channels) {
  // Up-links out of each level = routers at that level x P(k), from the chip counts of note 000 §2.3.2:
  //   n = 3 (64 nodes):   32 x 2 + 16 x 2                     =    96 links ->    192 channels
  //   n = 5 (1024 nodes): 512 x 2 + 256 x 2 + 128 x 4 + 128 x 4 = 2560 links ->   5120 channels
  //   n = 7 (16K nodes):  8192 x 2 + 4096 x 2 + 4 x (2048 x 4) = 57344 links -> 114688 channels
  EXPECT_EQ(build(cm5(3)).num_router_channels(), 192);
  EXPECT_EQ(build(cm5(5)).num_router_channels(), 5120);
  const Graph g = build(cm5(7));
  EXPECT_EQ(g.num_router_channels(), 114688);
  EXPECT_EQ(g.max_ports(), 8);  // 4 children + 4 parents: the chip's 8x8 crossbar (note 000 §2.3.3)
  EXPECT_EQ(count_kind(g, PeerKind::None), 0);
}

TEST(Graph, FatTreeWithTwoLeafLinks) {
  // 4-ary 2-tree with 2 links per node: C(1) = 2, C(2) = 2 x 4 = 8; 4 x 2 level-1 routers with 4 parents
  // each = 32 links, 64 channels.
  const Graph g = build(topology_of(FatTreeParams{.n = 2, .children = 4, .leaf_links = 2}));
  EXPECT_EQ(g.num_routers(), 16);
  EXPECT_EQ(g.links_per_node, 2);
  EXPECT_EQ(g.num_router_channels(), 64);
  EXPECT_EQ(asymmetry(g), "");
}

}  // namespace
}  // namespace mppnet::topo
