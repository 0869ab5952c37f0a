// topo/k_ary_n_cube.hpp: k-ary n-meshes and k-ary n-cubes (tori): parameters, coordinates, the graph
// builder, dimension-order routing, and their registrations (kMeshTopology, kTorusTopology).
//
// Router id = sum_d coord_d * k^d; node id == router id, one node per router. Port 2d goes to +1 in
// dimension d and port 2d+1 to -1; port 2n attaches the node (node link 0). On a mesh the edge ports
// that lead nowhere are PeerKind::None; on a torus they wrap between coordinates k-1 and 0. A mesh may
// wrap some of its dimensions (topology.wrap): a 2-D mesh that wraps in one is a cylinder, the CNS-1's
// network (reference note 002 §3.7); those dimensions are rings, as on a torus, and the others not.
#pragma once

#include <cstdint>
#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

struct KAryNCubeParams {
  int k = 4;                // routers per dimension (topology.k)
  int n = 5;                // dimensions (topology.n)
  bool torus = false;       // every dimension wraps (topology.kind = "torus"), else a mesh
  bool dateline = true;     // wrapped dimensions: dateline VC classes (topology.dateline)
  std::vector<int> wrap{};  // mesh: the dimensions that wrap (topology.wrap); a torus ignores it
  bool path_multicast =
      false;  // packets may ask for a copy at every router they pass (topology.path_multicast)

  // Bit d set when dimension d wraps. REQUIRES: every entry of `wrap` is in [0, n) (check()).
  std::uint32_t wrap_mask() const;
};
// REQUIRES: p.kind is "mesh" or "torus".
KAryNCubeParams k_ary_n_cube_params(const TopologyParams& p);
// The [topology] table of `p`: a torus when p.torus, else a mesh.
TopologyParams topology_of(const KAryNCubeParams& p);

// Coordinate of `id` in dimension `dim`. REQUIRES: k >= 2, 0 <= dim, id >= 0.
constexpr int coordinate(std::int32_t id, int dim, int k) {
  for (int d = 0; d < dim; ++d) id /= k;
  return id % k;
}

constexpr PortId plus_port(int dim) {
  return 2 * dim;
}
constexpr PortId minus_port(int dim) {
  return 2 * dim + 1;
}
constexpr PortId cube_node_port(int n) {
  return 2 * n;
}

// Dimension d wraps (joins coordinates k-1 and 0) when bit d of wrap_mask is set.
// REQUIRES: k >= 2 (k >= 3 when a dimension wraps), n >= 1, k^n within check()'s node cap.
Graph build_k_ary_n_cube(int k, int n, std::uint32_t wrap_mask);

// Dimension order, lowest dimension first; dateline VC classes in the dimensions that wrap
// (k_ary_n_cube.cpp). A packet's path and VC class at every hop are functions of its source and
// destination alone, which with one VC per class (router.in_order) keeps each pair's packets in order.
class DimensionOrderRouting {
 public:
  static constexpr bool kNeedsHeader = false;
  // REQUIRES: `g` was built from `p`; vcs >= 2 when a dimension wraps with dateline classes.
  DimensionOrderRouting(const KAryNCubeParams& p, const Graph& g, int vcs);
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept;
  int router_hops(NodeId src, NodeId dest) const;
  bool uses_input_vc() const { return wrap_mask_ != 0 && p_.dateline; }
  int dimensions() const { return p_.n; }

 private:
  KAryNCubeParams p_;
  std::uint32_t wrap_mask_;
  int vcs_;
  // The n base-k digits of every router (and node) id, so routing divides nothing (a division costs
  // tens of cycles, and every packet is routed at every router).
  std::vector<std::int16_t> digits_;
};

void check_k_ary_n_cube_topology(const TopologyParams& p, std::vector<Problem>& out);
Graph build_k_ary_n_cube_topology(const TopologyParams& p);
long long k_ary_n_cube_node_count(const TopologyParams& p);
long long k_ary_n_cube_port_count(const TopologyParams& p);
std::vector<TopologyKey> mesh_keys();
std::vector<TopologyKey> torus_keys();
int mesh_max_router_hops(const TopologyParams& p);
int torus_max_router_hops(const TopologyParams& p);
int mesh_min_vcs(const TopologyParams& p);
const char* mesh_min_vcs_reason(const TopologyParams& p);
int torus_min_vcs(const TopologyParams& p);
const char* torus_min_vcs_reason(const TopologyParams& p);
Routing k_ary_n_cube_routing(const TopologyParams& p, const Graph& g, int vcs);
bool k_ary_n_cube_may_multicast(const TopologyParams& p);

inline constexpr TopologyInfo kMeshTopology{
    .name = "mesh",
    .summary = "k-ary n-mesh, dimension-order routing; topology.wrap makes dimensions rings (a cylinder)",
    .keys = mesh_keys,
    .check = check_k_ary_n_cube_topology,
    .build = build_k_ary_n_cube_topology,
    .node_count = k_ary_n_cube_node_count,
    .port_count = k_ary_n_cube_port_count,
    .max_router_hops = mesh_max_router_hops,
    .min_vcs = mesh_min_vcs,
    .min_vcs_reason = mesh_min_vcs_reason,
    .routing = k_ary_n_cube_routing,
    .may_multicast = k_ary_n_cube_may_multicast,
};
inline constexpr TopologyInfo kTorusTopology{
    .name = "torus",
    .summary = "k-ary n-cube, dimension-order routing with dateline VC classes (needs 2 VCs)",
    .keys = torus_keys,
    .check = check_k_ary_n_cube_topology,
    .build = build_k_ary_n_cube_topology,
    .node_count = k_ary_n_cube_node_count,
    .port_count = k_ary_n_cube_port_count,
    .max_router_hops = torus_max_router_hops,
    .min_vcs = torus_min_vcs,
    .min_vcs_reason = torus_min_vcs_reason,
    .routing = k_ary_n_cube_routing,
    .may_multicast = k_ary_n_cube_may_multicast,
};

}  // namespace mppnet::topo
