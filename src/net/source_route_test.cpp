// net/source_route_test.cpp: the routing header seam with a source route: the first router writes the
// whole path into the packet's header word and every router consumes one hop of it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net {
namespace {

// Dimension order on a k-ary n-mesh, as a source route: at the source router the path is written as one
// 4-bit output port per router (the ejection port last), lowest nibble first; each router takes the
// lowest nibble and shifts it out, so the header is 0 once the packet has left its last router.
struct SourceRoutedMesh {
  static constexpr bool kNeedsHeader = true;
  int k;
  int n;
  int vcs;

  topo::RouteSet route(RouterId router, PortId in_port, VcId, topo::PacketHead& head) const noexcept {
    if (in_port == topo::cube_node_port(n)) {
      std::uint64_t path = 0;
      int shift = 0;
      RouterId at = router;
      int stride = 1;
      for (int d = 0; d < n; ++d, stride *= k) {
        for (;;) {
          const int from = topo::coordinate(at, d, k);
          const int to = topo::coordinate(head.dest, d, k);
          if (from == to) break;
          path |= static_cast<std::uint64_t>(to > from ? topo::plus_port(d) : topo::minus_port(d)) << shift;
          shift += 4;
          at += to > from ? stride : -stride;
        }
      }
      head.header = path | static_cast<std::uint64_t>(topo::cube_node_port(n)) << shift;
    }
    topo::RouteSet rs;
    rs.ports[0] = static_cast<std::int16_t>(head.header & 0xf);
    rs.count = 1;
    rs.vc_hi = static_cast<std::uint8_t>(vcs - 1);
    head.header >>= 4;
    return rs;
  }
  int router_hops(NodeId src, NodeId dest) const {
    int hops = 1;
    for (int d = 0; d < n; ++d) hops += std::abs(topo::coordinate(src, d, k) - topo::coordinate(dest, d, k));
    return hops;
  }
  bool uses_input_vc() const { return false; }
};

// Offers uniform 4-flit traffic at 0.3 flits/node/cycle for 2,000 cycles and drains; returns every
// delivery as (tag, cycle), in delivery order.
std::vector<std::pair<std::uint64_t, Cycle>> deliveries(Network& net) {
  std::vector<std::pair<std::uint64_t, Cycle>> out;
  const int nodes = net.graph().num_nodes;
  std::vector<core::RandomStream> rng;
  for (int v = 0; v < nodes; ++v) rng.emplace_back(3, v, core::Stream::Arrival);
  std::uint64_t tag = 0;
  for (Cycle t = 0; t < 20000 && (t < 2000 || !net.idle()); ++t) {
    for (NodeId v = 0; t < 2000 && v < nodes; ++v) {
      if (!rng[v].bernoulli(0.3 / 4)) continue;
      net.inject(v, static_cast<NodeId>(rng[v].below(static_cast<std::uint32_t>(nodes))), 4, tag++);
    }
    net.step();
    for (const PacketId id : net.delivered()) {
      EXPECT_EQ(net.route_header(id), 0u) << "the path was consumed to its last hop";
      out.emplace_back(net.packet(id).tag, net.packet(id).delivered);
      net.release(id);
    }
  }
  EXPECT_TRUE(net.idle());
  return out;
}

TEST(SourceRoute, ConsumedHopByHopItDeliversExactlyAsDimensionOrder) {
  const topo::TopologyParams mesh = topo::testing::mesh(4, 2);
  const topo::Graph g = topo::build(mesh);
  const RouterParams r;
  const topo::Routing dor(mesh, g, r.vcs);
  const topo::Routing source = topo::Routing::bind(SourceRoutedMesh{4, 2, r.vcs}, r.vcs);
  EXPECT_TRUE(source.needs_header());
  Network a(g, dor, r, 5);
  Network b(g, source, r, 5);
  const auto want = deliveries(a);
  EXPECT_GT(want.size(), 1000u);
  EXPECT_EQ(deliveries(b), want);
}

}  // namespace
}  // namespace mppnet::net
