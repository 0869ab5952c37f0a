// topo/build.hpp: checking and building the built-in topologies.
#pragma once

#include <string>
#include <vector>

#include "topo/graph.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

// One reason a topology cannot be built, naming the key at fault ("topology.k").
struct Problem {
  std::string key;
  std::string reason;
};

// Every reason `p` cannot be built; empty when it can. `vcs` is the router's VCs per port.
std::vector<Problem> check(const TopologyParams& p, int vcs);

// REQUIRES: check(p, vcs).empty().
Graph build(const TopologyParams& p);

// Nodes the topology would have (for checks elsewhere, e.g. traffic patterns that need 2^m nodes).
long long node_count(const TopologyParams& p);

const char* name(TopologyKind k);

}  // namespace mppnet::topo
