// topo/hypercube.cpp: the binary n-cube: checks, builder, e-cube routing.
#include "topo/hypercube.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

const TopologyKeys<HypercubeParams>& hypercube_key_table() {
  static const TopologyKeys<HypercubeParams> keys({
      io::key("n", &HypercubeParams::n, io::in_range(1, 24), "dimensions"),
  });
  return keys;
}

}  // namespace

HypercubeParams hypercube_params(const TopologyParams& p) {
  return hypercube_key_table().read(p);
}
TopologyParams topology_of(const HypercubeParams& p) {
  return hypercube_key_table().write(kHypercubeTopology.name, p);
}
std::vector<TopologyKey> hypercube_keys() {
  return hypercube_key_table().list();
}

void check_hypercube(const TopologyParams& params, std::vector<Problem>& out) {
  const HypercubeParams p = hypercube_params(params);
  if (p.n < 1) {
    out.push_back({"topology.n", "a hypercube needs n >= 1 dimensions (got " + std::to_string(p.n) + ")"});
  }
  if (p.n > kMaxHypercubeDimensions) {
    out.push_back({"topology.n", "a hypercube supports at most " + std::to_string(kMaxHypercubeDimensions) +
                                     " dimensions (got " + std::to_string(p.n) + ")"});
  }
}

Graph build_hypercube_topology(const TopologyParams& p) {
  return build_hypercube(hypercube_params(p).n);
}

long long hypercube_node_count(const TopologyParams& p) {
  return saturating_pow(2, std::max(hypercube_params(p).n, 0));
}

long long hypercube_port_count(const TopologyParams& p) {
  return saturating_mul(hypercube_node_count(p), hypercube_params(p).n + 1);  // n links and the node
}

int hypercube_max_router_hops(const TopologyParams& p) {
  return hypercube_params(p).n + 1;
}

int hypercube_min_vcs(const TopologyParams&) {
  return 1;
}
const char* hypercube_min_vcs_reason(const TopologyParams&) {
  return nullptr;
}

Routing hypercube_routing(const TopologyParams& p, const Graph&, int vcs) {
  return Routing::bind(ECubeRouting(hypercube_params(p), vcs), vcs);
}

Graph build_hypercube(int n) {
  MPPNET_ASSERT(n >= 1 && n <= 20, "hypercube dimension was not checked");
  const std::int32_t routers = std::int32_t{1} << n;
  static_assert(hypercube_node_port(3) == 3, "the node port is the last one, as direct_network puts it");
  Graph g = direct_network(routers, n + 1);
  for (RouterId r = 0; r < routers; ++r)
    for (int d = 0; d < n; ++d) g.ports[g.port_base[r] + d] = {PeerKind::Router, r ^ (1 << d), d};
  return g;
}

RouteSet ECubeRouting::route(RouterId router, PortId, VcId, PacketHead& head) const noexcept {
  const auto diff = static_cast<std::uint32_t>(router ^ head.dest);
  return one_port(diff == 0 ? hypercube_node_port(n_) : std::countr_zero(diff), 0, vcs_ - 1);
}

int ECubeRouting::router_hops(NodeId src, NodeId dest) const {
  return std::popcount(static_cast<std::uint32_t>(src ^ dest)) + 1;
}

}  // namespace mppnet::topo
