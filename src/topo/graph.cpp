// topo/graph.cpp: whole-graph queries on a built network.
#include "topo/graph.hpp"

#include <algorithm>

namespace mppnet::topo {

int Graph::max_ports() const {
  int most = 0;
  for (RouterId r = 0; r < num_routers(); ++r) most = std::max(most, num_ports(r));
  return most;
}

int Graph::num_router_channels() const {
  // Every router-to-router port is the output end of one channel; its peer port is the output end of
  // the channel in the other direction, so counting ports counts each direction once.
  return static_cast<int>(std::count_if(ports.begin(), ports.end(),
                                        [](const PortLink& l) { return l.kind == PeerKind::Router; }));
}

Graph direct_network(std::int32_t routers, int ports_per_router) {
  Graph g;
  g.num_nodes = routers;
  g.links_per_node = 1;
  g.port_base.resize(routers + 1);
  for (RouterId r = 0; r <= routers; ++r) g.port_base[r] = r * ports_per_router;
  g.ports.resize(static_cast<std::size_t>(routers) * ports_per_router);
  g.node_links.resize(routers);
  const PortId node_port = ports_per_router - 1;
  for (RouterId r = 0; r < routers; ++r) {
    g.ports[g.port_base[r] + node_port] = {PeerKind::Node, r, 0};
    g.node_links[r] = {r, node_port};
  }
  return g;
}

}  // namespace mppnet::topo
