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

}  // namespace mppnet::topo
