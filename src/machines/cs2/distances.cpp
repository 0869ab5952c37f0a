// machines/cs2/distances.cpp: breadth-first switch distances (distances.hpp).
#include "machines/cs2/distances.hpp"

#include <algorithm>

namespace mppnet::machines::cs2 {

std::vector<int> switches_from(const topo::Graph& g, NodeId src) {
  std::vector<int> at_router(g.num_routers(), -1);
  std::vector<RouterId> frontier = {g.node_links[src].router};
  at_router[frontier[0]] = 1;
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<RouterId> next;
    for (const RouterId r : frontier)
      for (int p = 0; p < g.num_ports(r); ++p) {
        const topo::PortLink& link = g.link(r, p);
        if (link.kind != topo::PeerKind::Router || at_router[link.peer] >= 0) continue;
        at_router[link.peer] = d + 1;
        next.push_back(link.peer);
      }
    frontier = std::move(next);
  }
  std::vector<int> out(g.num_nodes);
  for (NodeId v = 0; v < g.num_nodes; ++v) out[v] = at_router[g.node_links[v].router];
  return out;
}

DistanceSummary distance_summary(const topo::Graph& g, int cluster) {
  DistanceSummary s;
  std::vector<int> from_router;  // distances from the last switch searched
  RouterId searched = -1;
  double total = 0;
  for (NodeId x = 0; x < g.num_nodes; ++x) {
    if (g.node_links[x].router != searched) {
      from_router = switches_from(g, x);
      searched = g.node_links[x].router;
    }
    for (NodeId d = 0; d < g.num_nodes; ++d) {
      const int h = from_router[d];
      total += h;
      s.worst = std::max(s.worst, h);
      if (cluster > 0 && x / cluster == d / cluster) s.worst_in_cluster = std::max(s.worst_in_cluster, h);
    }
  }
  s.mean = total / (static_cast<double>(g.num_nodes) * g.num_nodes);
  return s;
}

}  // namespace mppnet::machines::cs2
