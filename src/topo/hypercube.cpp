// topo/hypercube.cpp: builds the binary n-cube.
#include "topo/hypercube.hpp"

#include "core/error.hpp"

namespace mppnet::topo {

Graph build_hypercube(int n) {
  MPPNET_ASSERT(n >= 1 && n <= 20, "hypercube dimension was not checked");
  const std::int32_t routers = std::int32_t{1} << n;
  static_assert(hypercube_node_port(3) == 3, "the node port is the last one, as direct_network puts it");
  Graph g = direct_network(routers, n + 1);
  for (RouterId r = 0; r < routers; ++r)
    for (int d = 0; d < n; ++d) g.ports[g.port_base[r] + d] = {PeerKind::Router, r ^ (1 << d), d};
  return g;
}

}  // namespace mppnet::topo
