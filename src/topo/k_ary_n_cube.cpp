// topo/k_ary_n_cube.cpp: k-ary n-meshes and k-ary n-cubes: checks, builder, dimension-order routing.
#include "topo/k_ary_n_cube.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

std::vector<io::Key<KAryNCubeParams>> size_keys() {
  return {
      io::key("k", &KAryNCubeParams::k, io::in_range(1, 1024), "routers per dimension"),
      io::key("n", &KAryNCubeParams::n, io::in_range(1, 24), "dimensions"),
  };
}

const TopologyKeys<KAryNCubeParams>& keys_of(bool wrap) {
  static const TopologyKeys<KAryNCubeParams> mesh(size_keys());
  static const TopologyKeys<KAryNCubeParams> torus = [] {
    auto keys = size_keys();
    keys.push_back(io::key("dateline", &KAryNCubeParams::dateline, io::any_value(),
                           "dateline VC classes; false can deadlock (for teaching and watchdog tests)"));
    return TopologyKeys<KAryNCubeParams>(std::move(keys));
  }();
  return wrap ? torus : mesh;
}

}  // namespace

KAryNCubeParams k_ary_n_cube_params(const TopologyParams& p) {
  const bool wrap = p.kind == kTorusTopology.name;
  MPPNET_ASSERT(wrap || p.kind == kMeshTopology.name, "k_ary_n_cube_params of another topology");
  KAryNCubeParams out = keys_of(wrap).read(p);
  out.wrap = wrap;
  return out;
}

TopologyParams topology_of(const KAryNCubeParams& p) {
  return keys_of(p.wrap).write(p.wrap ? kTorusTopology.name : kMeshTopology.name, p);
}

std::vector<TopologyKey> mesh_keys() {
  return keys_of(false).list();
}
std::vector<TopologyKey> torus_keys() {
  return keys_of(true).list();
}

void check_k_ary_n_cube_topology(const TopologyParams& params, std::vector<Problem>& out) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  const char* kind = p.wrap ? "torus" : "mesh";
  bool sizes_ok = true;
  if (!p.wrap && p.k < 2) {
    out.push_back(
        {"topology.k", "a mesh needs k >= 2 routers per dimension (got " + std::to_string(p.k) + ")"});
    sizes_ok = false;
  }
  if (p.wrap && p.k < 3) {
    // k = 2 would join each pair of neighbours twice, and its dateline classes would not be needed.
    out.push_back(
        {"topology.k", "a torus needs k >= 3 (got " + std::to_string(p.k) + "); use a mesh for k = 2"});
    sizes_ok = false;
  }
  if (p.n < 1) {
    out.push_back({"topology.n",
                   std::string("a ") + kind + " needs n >= 1 dimensions (got " + std::to_string(p.n) + ")"});
    sizes_ok = false;
  }
  if (sizes_ok) {
    check_node_count(k_ary_n_cube_node_count(params), "topology.n",
                     "a " + std::to_string(p.k) + "-ary " + std::to_string(p.n) + "-dimensional " + kind,
                     out);
  }
}

// Mesh and torus share their check and builder: both read `wrap` from the kind.
Graph build_k_ary_n_cube_topology(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return build_k_ary_n_cube(p.k, p.n, p.wrap);
}

long long k_ary_n_cube_node_count(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return saturating_pow(std::max(p.k, 0), std::max(p.n, 0));
}

long long k_ary_n_cube_port_count(const TopologyParams& params) {
  // Every router has a + and a - port per dimension (unconnected at a mesh's edges) and its node's.
  return saturating_mul(k_ary_n_cube_node_count(params), 2LL * k_ary_n_cube_params(params).n + 1);
}

int mesh_max_router_hops(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return p.n * (p.k - 1) + 1;
}
int torus_max_router_hops(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return p.n * (p.k / 2) + 1;
}

int mesh_min_vcs(const TopologyParams&) {
  return 1;
}
const char* mesh_min_vcs_reason(const TopologyParams&) {
  return nullptr;
}
int torus_min_vcs(const TopologyParams& p) {
  return k_ary_n_cube_params(p).dateline ? 2 : 1;
}
const char* torus_min_vcs_reason(const TopologyParams& p) {
  return k_ary_n_cube_params(p).dateline ? "a torus needs at least 2 VCs per port for its dateline classes"
                                         : nullptr;
}

Routing k_ary_n_cube_routing(const TopologyParams& p, const Graph& g, int vcs) {
  return Routing::bind(DimensionOrderRouting(k_ary_n_cube_params(p), g, vcs), vcs);
}

Graph build_k_ary_n_cube(int k, int n, bool wrap) {
  MPPNET_ASSERT(k >= 2 && n >= 1 && (!wrap || k >= 3), "k-ary n-cube parameters were not checked");
  std::int32_t routers = 1;
  for (int d = 0; d < n; ++d) routers *= k;
  static_assert(cube_node_port(2) == 4, "the node port is the last one, as direct_network puts it");
  Graph g = direct_network(routers, 2 * n + 1);
  for (RouterId r = 0; r < routers; ++r) {
    std::int32_t stride = 1;  // k^d: the id distance of one step in dimension d
    for (int d = 0; d < n; ++d, stride *= k) {
      const int c = coordinate(r, d, k);
      RouterId up = -1;
      RouterId down = -1;
      if (c + 1 < k) {
        up = r + stride;
      } else if (wrap) {
        up = r - c * stride;  // k-1 -> 0
      }
      if (c > 0) {
        down = r - stride;
      } else if (wrap) {
        down = r + (k - 1) * stride;  // 0 -> k-1
      }
      // The +1 neighbour reaches r again through its -1 port, and vice versa.
      if (up >= 0) g.ports[g.port_base[r] + plus_port(d)] = {PeerKind::Router, up, minus_port(d)};
      if (down >= 0) g.ports[g.port_base[r] + minus_port(d)] = {PeerKind::Router, down, plus_port(d)};
    }
  }
  return g;
}

DimensionOrderRouting::DimensionOrderRouting(const KAryNCubeParams& p, const Graph& g, int vcs)
    : p_(p), vcs_(vcs) {
  MPPNET_ASSERT(p.k <= 0x7fff, "a radix beyond the digit width");
  MPPNET_ASSERT(!(p.wrap && p.dateline) || vcs >= 2, "dateline classes need 2 VCs");
  digits_.resize(static_cast<std::size_t>(g.num_routers()) * p.n);
  for (std::int32_t r = 0; r < g.num_routers(); ++r) {
    std::int32_t rest = r;
    for (int d = 0; d < p.n; ++d, rest /= p.k)
      digits_[static_cast<std::size_t>(r) * p.n + d] = static_cast<std::int16_t>(rest % p.k);
  }
}

// Dimension order, lowest dimension first. On a torus each ring is a cycle of channel dependencies, so
// the VCs are split into two dateline classes: class 0 = [0, vcs/2 - 1], class 1 = [vcs/2, vcs - 1].
// A packet takes class 1 on the wrap link (between coordinates k-1 and 0) and keeps it while it continues
// in the same dimension and direction; a new dimension starts again in class 0. Minimal routes cross
// each wrap link at most once and never come back to it, so neither class closes a cycle.
RouteSet DimensionOrderRouting::route(RouterId router, PortId in_port, VcId in_vc,
                                      PacketHead& head) const noexcept {
  const int k = p_.k;
  const int n = p_.n;
  const std::int16_t* here = &digits_[static_cast<std::size_t>(router) * n];
  const std::int16_t* there = &digits_[static_cast<std::size_t>(head.dest) * n];  // node v sits at router v
  for (int d = 0; d < n; ++d) {
    const int from = here[d];
    const int to = there[d];
    if (from == to) continue;
    if (!p_.wrap) return one_port(to > from ? plus_port(d) : minus_port(d), 0, vcs_ - 1);
    const int forward = (to - from + k) % k;
    const bool plus = 2 * forward <= k;  // minimal direction; a tie (k/2 each way) goes +
    const PortId out = plus ? plus_port(d) : minus_port(d);
    if (!p_.dateline) return one_port(out, 0, vcs_ - 1);
    const bool takes_wrap_link = plus ? from == k - 1 : from == 0;
    // Arriving on the opposite port of the same dimension means the packet is moving the same way.
    const bool continues = in_port == (out ^ 1);
    const int half = vcs_ / 2;
    const bool class1 = takes_wrap_link || (continues && in_vc >= half);
    return one_port(out, class1 ? half : 0, class1 ? vcs_ - 1 : half - 1);
  }
  return one_port(cube_node_port(n), 0, vcs_ - 1);  // ejection may use every VC
}

int DimensionOrderRouting::router_hops(NodeId src, NodeId dest) const {
  const int k = p_.k;
  int hops = 1;
  for (int d = 0; d < p_.n; ++d, src /= k, dest /= k) {
    const int delta = std::abs(src % k - dest % k);
    hops += p_.wrap ? std::min(delta, k - delta) : delta;
  }
  return hops;
}

}  // namespace mppnet::topo
