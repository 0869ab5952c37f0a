// topo/cmesh.hpp: the concentrated mesh: a 2-D k x k mesh of routers, each serving a block of
// concentration_x x concentration_y nodes; dimension-order (XY) routing; the registration (kCmeshTopology).
//
// Nodes are numbered as BookSim's cmesh numbers them (Balfour, Dally, "Design tradeoffs for tiled CMP
// on-chip networks", ICS 2006, as modelled in booksim2's networks/cmesh.cpp): on a grid of k * cx
// columns and k * cy rows, node v is at column v % (k cx) and row v / (k cx), and router (x, y) = (column
// / cx, row / cy) serves it on port (row % cy) cx + column % cx. So traffic patterns that act on node
// numbers (transpose, bit complement) send the same router pairs as BookSim's. Ports 0 .. c-1 attach the
// nodes (c = cx cy); ports c, c+1, c+2, c+3 go to +x, -x, +y, -y (PeerKind::None at the edges). BookSim's
// express channels between edge routers, used only by its dor_cmesh and xy_yx_cmesh routings, are not
// built: its dor_no_express_cmesh is the routing modelled.
#pragma once

#include <cstdint>
#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

struct CmeshParams {
  int k = 4;                // routers per dimension (topology.k)
  int concentration_x = 2;  // nodes per router along x (topology.concentration_x)
  int concentration_y = 2;  // nodes per router along y (topology.concentration_y)

  constexpr int concentration() const { return concentration_x * concentration_y; }
};
CmeshParams cmesh_params(const TopologyParams& p);
TopologyParams topology_of(const CmeshParams& p);

// Where node v attaches. REQUIRES: 0 <= v < k^2 c.
struct CmeshAttachment {
  RouterId router;
  PortId port;
};
constexpr CmeshAttachment cmesh_attachment(const CmeshParams& p, NodeId v) {
  const int columns = p.k * p.concentration_x;
  const int column = v % columns, row = v / columns;
  return {(row / p.concentration_y) * p.k + column / p.concentration_x,
          (row % p.concentration_y) * p.concentration_x + column % p.concentration_x};
}
constexpr PortId cmesh_direction_port(const CmeshParams& p, int dim, bool plus) {
  return p.concentration() + 2 * dim + (plus ? 0 : 1);
}

// REQUIRES: check() found nothing.
Graph build_cmesh(const CmeshParams& p);

// XY dimension order over the routers, then the destination's node port; every VC at every hop.
class CmeshRouting {
 public:
  static constexpr bool kNeedsHeader = false;
  CmeshRouting(const CmeshParams& p, int vcs) : p_(p), vcs_(vcs) {}
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept;
  int router_hops(NodeId src, NodeId dest) const;
  bool uses_input_vc() const { return false; }

 private:
  CmeshParams p_;
  int vcs_;
};

std::vector<TopologyKey> cmesh_keys();
void check_cmesh(const TopologyParams& p, std::vector<Problem>& out);
Graph build_cmesh_topology(const TopologyParams& p);
long long cmesh_node_count(const TopologyParams& p);
long long cmesh_port_count(const TopologyParams& p);
int cmesh_max_router_hops(const TopologyParams& p);
int cmesh_min_vcs(const TopologyParams& p);
const char* cmesh_min_vcs_reason(const TopologyParams& p);
Routing cmesh_routing(const TopologyParams& p, const Graph& g, int vcs);

inline constexpr TopologyInfo kCmeshTopology{
    .name = "cmesh",
    .summary =
        "concentrated 2-D mesh (k x k routers, concentration_x x concentration_y nodes each), XY routing",
    .keys = cmesh_keys,
    .check = check_cmesh,
    .build = build_cmesh_topology,
    .node_count = cmesh_node_count,
    .port_count = cmesh_port_count,
    .max_router_hops = cmesh_max_router_hops,
    .min_vcs = cmesh_min_vcs,
    .min_vcs_reason = cmesh_min_vcs_reason,
    .routing = cmesh_routing,
};

}  // namespace mppnet::topo
