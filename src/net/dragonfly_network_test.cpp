// net/dragonfly_network_test.cpp: a Valiant dragonfly in the network: exact zero-load latency over the
// route through each packet's own intermediate group, and a header the network keeps per packet.
#include <gtest/gtest.h>

#include <set>

#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/dragonfly.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::dragonfly_network_test {
namespace {

topo::TopologyParams dragonfly72(topo::DragonflyRouting routing) {
  return topo::testing::dragonfly(2, 4, 2, routing);
}

TEST(DragonflyNetwork, ValiantZeroLoadLatencyIsExactThroughEachPacketsIntermediateGroup) {
  const topo::TopologyParams p = dragonfly72(topo::DragonflyRouting::Valiant);
  const topo::DragonflyParams d = topo::dragonfly_params(p);
  const topo::Graph g = topo::build(p);
  RouterParams r;
  r.pipeline_cycles = 2;
  r.channel_latency = 3;
  const topo::Routing routing(p, g, r.vcs);
  Network net(g, routing, r, 7);
  std::set<int> drawn;
  const int flits = 4;
  for (NodeId s = 0; s < g.num_nodes; ++s) {
    for (NodeId t = s % 5; t < g.num_nodes; t += 5) {
      const PacketId id = net.inject(s, t, flits);
      const Cycle start = net.now();
      while (net.delivered().empty()) net.step();
      const int via = topo::valiant_intermediate(net.route_header(id));
      ASSERT_GE(via, 0);
      ASSERT_LT(via, d.groups());
      drawn.insert(via);
      // L + R (P + L) + S - 1 over the R routers of the route through `via` (docs/design.md, "Timing").
      const int routers = topo::dragonfly_routers_via(g, d, s / d.p, t / d.p,
                                                      s / d.p / d.a == t / d.p / d.a ? s / d.p / d.a : via);
      EXPECT_EQ(net.packet(id).hops, routers) << s << " -> " << t << " via " << via;
      EXPECT_EQ(net.packet(id).delivered - start,
                r.channel_latency + routers * (r.pipeline_cycles + r.channel_latency) + flits - 1)
          << s << " -> " << t << " via " << via;
      net.release(id);
      for (int k = 0; k <= r.channel_latency + 1; ++k) net.step();
    }
  }
  EXPECT_EQ(static_cast<int>(drawn.size()), d.groups()) << "every group is drawn as an intermediate";
}

TEST(DragonflyNetwork, MinimalRoutingKeepsNoHeader) {
  const topo::TopologyParams p = dragonfly72(topo::DragonflyRouting::Minimal);
  const topo::Graph g = topo::build(p);
  const topo::Routing routing(p, g, 4);
  EXPECT_FALSE(routing.needs_header());
  Network net(g, routing, RouterParams{}, 1);
  const PacketId id = net.inject(0, 71, 2);
  while (net.delivered().empty()) net.step();
  EXPECT_EQ(net.route_header(id), 0u);
}

}  // namespace
}  // namespace mppnet::net::dragonfly_network_test
