// topo/cmesh.cpp: the concentrated mesh: checks, builder, XY routing.
#include "topo/cmesh.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

const TopologyKeys<CmeshParams>& cmesh_key_table() {
  static const TopologyKeys<CmeshParams> keys({
      io::key("k", &CmeshParams::k, io::in_range(1, 1024), "routers per dimension"),
      io::key("concentration_x", &CmeshParams::concentration_x, io::in_range(1, 16),
              "nodes per router along x"),
      io::key("concentration_y", &CmeshParams::concentration_y, io::in_range(1, 16),
              "nodes per router along y"),
  });
  return keys;
}

// Node ports per router: the node ports and the 4 router ports stay well within a router's port numbers.
constexpr int kMaxCmeshConcentration = 60;

}  // namespace

CmeshParams cmesh_params(const TopologyParams& p) {
  return cmesh_key_table().read(p);
}
TopologyParams topology_of(const CmeshParams& p) {
  return cmesh_key_table().write(kCmeshTopology.name, p);
}
std::vector<TopologyKey> cmesh_keys() {
  return cmesh_key_table().list();
}

void check_cmesh(const TopologyParams& params, std::vector<Problem>& out) {
  const CmeshParams p = cmesh_params(params);
  if (p.k < 2)
    out.push_back(
        {"topology.k", "a cmesh needs k >= 2 routers per dimension (got " + std::to_string(p.k) + ")"});
  if (p.concentration() > kMaxCmeshConcentration)
    out.push_back({"topology.concentration_x", "a cmesh router serves at most " +
                                                   std::to_string(kMaxCmeshConcentration) +
                                                   " nodes (concentration_x x concentration_y; got " +
                                                   std::to_string(p.concentration()) + ")"});
  check_node_count(cmesh_node_count(params), "topology.k", "a cmesh", out);
}

Graph build_cmesh_topology(const TopologyParams& p) {
  return build_cmesh(cmesh_params(p));
}

long long cmesh_node_count(const TopologyParams& params) {
  const CmeshParams p = cmesh_params(params);
  return saturating_mul(saturating_mul(p.k, p.k), p.concentration());
}

long long cmesh_port_count(const TopologyParams& params) {
  const CmeshParams p = cmesh_params(params);
  return saturating_mul(saturating_mul(p.k, p.k), p.concentration() + 4);
}

int cmesh_max_router_hops(const TopologyParams& params) {
  return 2 * (cmesh_params(params).k - 1) + 1;
}

int cmesh_min_vcs(const TopologyParams&) {
  return 1;  // XY order on a mesh has no cycle of channel dependencies
}
const char* cmesh_min_vcs_reason(const TopologyParams&) {
  return nullptr;
}

Routing cmesh_routing(const TopologyParams& p, const Graph&, int vcs) {
  return Routing::bind(CmeshRouting(cmesh_params(p), vcs), vcs);
}

Graph build_cmesh(const CmeshParams& p) {
  const int c = p.concentration();
  const std::int32_t routers = p.k * p.k;
  const int ports = c + 4;
  Graph g;
  g.num_nodes = routers * c;
  g.links_per_node = 1;
  g.port_base.resize(static_cast<std::size_t>(routers) + 1);
  for (RouterId r = 0; r <= routers; ++r) g.port_base[r] = r * ports;
  g.ports.assign(static_cast<std::size_t>(routers) * ports, PortLink{});
  g.node_links.resize(static_cast<std::size_t>(g.num_nodes));
  for (NodeId v = 0; v < g.num_nodes; ++v) {
    const CmeshAttachment a = cmesh_attachment(p, v);
    g.node_links[v] = {a.router, a.port};
    g.ports[g.port_base[a.router] + a.port] = {PeerKind::Node, v, 0};
  }
  for (RouterId r = 0; r < routers; ++r) {
    const int x = r % p.k, y = r / p.k;
    const int step[2] = {1, p.k};
    for (int dim = 0; dim < 2; ++dim) {
      const int coord = dim == 0 ? x : y;
      const PortId plus = cmesh_direction_port(p, dim, true), minus = cmesh_direction_port(p, dim, false);
      if (coord + 1 < p.k) g.ports[g.port_base[r] + plus] = {PeerKind::Router, r + step[dim], minus};
      if (coord > 0) g.ports[g.port_base[r] + minus] = {PeerKind::Router, r - step[dim], plus};
    }
  }
  return g;
}

RouteSet CmeshRouting::route(RouterId router, PortId, VcId, PacketHead& head) const noexcept {
  const CmeshAttachment to = cmesh_attachment(p_, head.dest);
  const int x = router % p_.k, y = router / p_.k;
  const int dx = to.router % p_.k, dy = to.router / p_.k;
  PortId port = to.port;
  if (x != dx) {
    port = cmesh_direction_port(p_, 0, dx > x);
  } else if (y != dy) {
    port = cmesh_direction_port(p_, 1, dy > y);
  }
  return one_port(port, 0, vcs_ - 1);
}

int CmeshRouting::router_hops(NodeId src, NodeId dest) const {
  const RouterId a = cmesh_attachment(p_, src).router, b = cmesh_attachment(p_, dest).router;
  return std::abs(a % p_.k - b % p_.k) + std::abs(a / p_.k - b / p_.k) + 1;
}

}  // namespace mppnet::topo
