// topo/hypercube.hpp: the binary n-cube (hypercube): router = node; port d joins r and r ^ (1 << d).
// Parameters, builder, e-cube routing and the registration (kHypercubeTopology).
#pragma once

#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

struct HypercubeParams {
  int n = 5;  // dimensions (topology.n)
};
HypercubeParams hypercube_params(const TopologyParams& p);
TopologyParams topology_of(const HypercubeParams& p);

// Port d (0 <= d < n) connects to router r ^ (1 << d) at its port d; port n attaches the node.
constexpr PortId hypercube_node_port(int n) {
  return n;
}

// REQUIRES: 1 <= n <= 20 (check()'s limit).
Graph build_hypercube(int n);

// E-cube: correct the lowest differing address bit first.
class ECubeRouting {
 public:
  static constexpr bool kNeedsHeader = false;
  ECubeRouting(const HypercubeParams& p, int vcs) : n_(p.n), vcs_(vcs) {}
  RouteSet route(RouterId router, PortId, VcId, PacketHead& head) const noexcept;
  int router_hops(NodeId src, NodeId dest) const;
  bool uses_input_vc() const { return false; }

 private:
  int n_;
  int vcs_;
};

std::vector<TopologyKey> hypercube_keys();
void check_hypercube(const TopologyParams& p, std::vector<Problem>& out);
Graph build_hypercube_topology(const TopologyParams& p);
long long hypercube_node_count(const TopologyParams& p);
long long hypercube_port_count(const TopologyParams& p);
int hypercube_max_router_hops(const TopologyParams& p);
int hypercube_min_vcs(const TopologyParams& p);
const char* hypercube_min_vcs_reason(const TopologyParams& p);
Routing hypercube_routing(const TopologyParams& p, const Graph& g, int vcs);

inline constexpr TopologyInfo kHypercubeTopology{
    .name = "hypercube",
    .summary = "binary n-cube, e-cube routing (topology.n)",
    .keys = hypercube_keys,
    .check = check_hypercube,
    .build = build_hypercube_topology,
    .node_count = hypercube_node_count,
    .port_count = hypercube_port_count,
    .max_router_hops = hypercube_max_router_hops,
    .min_vcs = hypercube_min_vcs,
    .min_vcs_reason = hypercube_min_vcs_reason,
    .routing = hypercube_routing,
};

}  // namespace mppnet::topo
