// machines/cs2/network_routes_test.cpp: the CS-2's route bytes steer the generic flit-level network on a
// built layer (topo::ByteSteeredRouting): routes of 9 bytes on 1,024 PEs deliver where they say, and a
// broadcast route reaches every PE of its box once. No CS-2 timing is modelled here, only the paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "machines/cs2/routes.hpp"
#include "net/network.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {
namespace {

TEST(Cs2NetworkRoutes, RoutesOfNineBytesDeliverOnTheGenericNetwork) {
  const LayerShape s(1024, Doubling::EightWayTop);
  const topo::Graph g = build_layer(s);
  net::RouterParams params;
  const auto hops = [s](NodeId x, NodeId d) { return 2 * lca_stage(s, x, d) - 1; };
  const topo::Routing routing =
      topo::Routing::bind(topo::ByteSteeredRouting<false>(params.vcs, hops), params.vcs);
  net::Network net(g, routing, params, 1);
  std::vector<std::pair<NodeId, NodeId>> pairs = {{0, 1023}, {17, 1000}, {512, 3}, {5, 6}, {900, 900}};
  for (std::size_t i = 0; i < pairs.size(); ++i)
    net.inject(pairs[i].first, pairs[i].second, 4, i, 0,
               policy_route(s, pairs[i].first, pairs[i].second, Policy::Random, Turn::Minimal, 1, 3));
  int delivered = 0;
  for (int t = 0; t < 2000 && !net.idle(); ++t) {
    net.step();
    for (const net::PacketId id : net.delivered()) {
      const auto [x, d] = pairs[net.packet(id).tag];
      EXPECT_EQ(net.packet(id).dest, d);
      EXPECT_EQ(net.packet(id).hops, hops(x, d));
      EXPECT_EQ(net.route_header(id), net.source_route(id).length);
      ++delivered;
      net.release(id);
    }
  }
  EXPECT_EQ(delivered, 5);
  EXPECT_EQ(hops(0, 1023), 9) << "more route bytes than a 64-bit routing word holds";
}

TEST(Cs2NetworkRoutes, ABroadcastRouteReachesEveryPeOfItsBoxOnce) {
  const LayerShape s(64, Doubling::EightWayTop);
  const topo::Graph g = build_layer(s);
  net::RouterParams params;
  const topo::Routing routing = topo::Routing::bind(
      topo::ByteSteeredRouting<true>(params.vcs, [](NodeId, NodeId) { return 5; }), params.vcs);
  net::Network net(g, routing, params, 1);
  for (const auto& [a, b] : {std::pair{0, 63}, std::pair{5, 40}}) {
    std::vector<NodeId> got;
    for (const BroadcastBox& box : decompose_range(s, a, b))
      net.inject(9, box.first, 2, 0, 0, broadcast_route(s, 9, box));
    for (int t = 0; t < 2000 && !net.idle(); ++t) {
      net.step();
      for (const net::PacketId id : net.delivered()) {
        got.push_back(net.packet(id).dest);
        net.release(id);
      }
    }
    std::sort(got.begin(), got.end());
    ASSERT_EQ(static_cast<int>(got.size()), b - a + 1);
    for (int i = 0; i <= b - a; ++i) EXPECT_EQ(got[i], a + i);
  }
}

}  // namespace
}  // namespace mppnet::machines::cs2
