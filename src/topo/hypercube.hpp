// topo/hypercube.hpp: the binary n-cube (hypercube): router = node; port d joins r and r ^ (1 << d).
#pragma once

#include "topo/graph.hpp"

namespace mppnet::topo {

// Port d (0 <= d < n) connects to router r ^ (1 << d) at its port d; port n attaches the node.
constexpr PortId hypercube_node_port(int n) {
  return n;
}

// REQUIRES: 1 <= n <= 20 (check()'s limit).
Graph build_hypercube(int n);

}  // namespace mppnet::topo
