// topo/hypercube.cpp: builds the binary n-cube.
#include "topo/hypercube.hpp"

#include "core/error.hpp"

namespace mppnet::topo {

Graph build_hypercube(int n) {
  MPPNET_ASSERT(n >= 1 && n <= 20, "hypercube dimension was not checked");
  const std::int32_t routers = std::int32_t{1} << n;
  const int ports_per_router = n + 1;

  Graph g;
  g.num_nodes = routers;
  g.links_per_node = 1;
  g.port_base.resize(routers + 1);
  for (RouterId r = 0; r <= routers; ++r) g.port_base[r] = r * ports_per_router;
  g.ports.resize(static_cast<std::size_t>(routers) * ports_per_router);
  g.node_links.resize(routers);
  for (RouterId r = 0; r < routers; ++r) {
    for (int d = 0; d < n; ++d) g.ports[g.port_base[r] + d] = {PeerKind::Router, r ^ (1 << d), d};
    g.ports[g.port_base[r] + hypercube_node_port(n)] = {PeerKind::Node, r, 0};
    g.node_links[r] = {r, hypercube_node_port(n)};
  }
  return g;
}

}  // namespace mppnet::topo
