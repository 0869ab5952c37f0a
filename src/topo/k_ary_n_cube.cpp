// topo/k_ary_n_cube.cpp: k-ary n-meshes and k-ary n-cubes: checks, builder, dimension-order routing.
#include "topo/k_ary_n_cube.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/path_multicast.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

// k, n, [wrap,] dateline, path_multicast: a mesh's key list names the rings right after the sizes.
std::vector<io::Key<KAryNCubeParams>> keys_with(bool torus) {
  std::vector<io::Key<KAryNCubeParams>> keys = {
      io::key("k", &KAryNCubeParams::k, io::in_range(1, 1024), "routers per dimension"),
      io::key("n", &KAryNCubeParams::n, io::in_range(1, 24), "dimensions"),
  };
  if (!torus)
    keys.push_back(io::key("wrap", &KAryNCubeParams::wrap, io::in_range(0, 23),
                           "the dimensions that wrap into rings, e.g. [1] with n = 2: a cylinder"));
  keys.push_back(io::key("dateline", &KAryNCubeParams::dateline, io::any_value(),
                         "dateline VC classes in the dimensions that wrap; false can deadlock (for teaching "
                         "and watchdog tests)"));
  keys.push_back(io::key("path_multicast", &KAryNCubeParams::path_multicast, io::any_value(),
                         "a packet injected with routing word 1 (topo::kPathMulticast) leaves a copy at "
                         "every router after its source on its dimension-order path, the destination's "
                         "included"));
  return keys;
}

const TopologyKeys<KAryNCubeParams>& keys_of(bool torus) {
  static const TopologyKeys<KAryNCubeParams> torus_keys(keys_with(true));
  static const TopologyKeys<KAryNCubeParams> mesh_keys(keys_with(false));
  return torus ? torus_keys : mesh_keys;
}

// A mesh's wrapped dimensions: each one that exists, once, and rings of at least 3 routers.
void check_wrap(const KAryNCubeParams& p, std::vector<Problem>& out, bool& sizes_ok) {
  std::uint32_t seen = 0;
  for (std::size_t i = 0; i < p.wrap.size(); ++i) {
    const int d = p.wrap[i];
    const std::string entry = "wrap[" + std::to_string(i) + "] = " + std::to_string(d);
    if (d < 0 || d >= p.n) {
      out.push_back({"topology.wrap", entry + ": a " + std::to_string(p.n) +
                                          "-dimensional mesh has dimensions 0 to " +
                                          std::to_string(p.n - 1)});
      sizes_ok = false;
      continue;
    }
    if ((seen >> d & 1) != 0) {
      out.push_back({"topology.wrap", entry + ": dimension " + std::to_string(d) + " is listed twice"});
      sizes_ok = false;
    }
    seen |= std::uint32_t{1} << d;
  }
  if (seen != 0 && p.k < 3 && p.k >= 2) {
    // As on a torus: a ring of 2 would join the two routers twice.
    out.push_back({"topology.k", "a mesh with wrapped dimensions (topology.wrap) needs k >= 3 (got " +
                                     std::to_string(p.k) + ")"});
    sizes_ok = false;
  }
}

}  // namespace

std::uint32_t KAryNCubeParams::wrap_mask() const {
  if (torus) return n >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
  std::uint32_t mask = 0;
  for (const int d : wrap) {
    MPPNET_ASSERT(d >= 0 && d < n && d < 32, "topology.wrap was not checked");
    mask |= std::uint32_t{1} << d;
  }
  return mask;
}

KAryNCubeParams k_ary_n_cube_params(const TopologyParams& p) {
  const bool torus = p.kind == kTorusTopology.name;
  MPPNET_ASSERT(torus || p.kind == kMeshTopology.name, "k_ary_n_cube_params of another topology");
  KAryNCubeParams out = keys_of(torus).read(p);
  out.torus = torus;
  return out;
}

TopologyParams topology_of(const KAryNCubeParams& p) {
  return keys_of(p.torus).write(p.torus ? kTorusTopology.name : kMeshTopology.name, p);
}

std::vector<TopologyKey> mesh_keys() {
  return keys_of(false).list();
}
std::vector<TopologyKey> torus_keys() {
  return keys_of(true).list();
}

void check_k_ary_n_cube_topology(const TopologyParams& params, std::vector<Problem>& out) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  const char* kind = p.torus ? "torus" : "mesh";
  bool sizes_ok = true;
  if (!p.torus && p.k < 2) {
    out.push_back(
        {"topology.k", "a mesh needs k >= 2 routers per dimension (got " + std::to_string(p.k) + ")"});
    sizes_ok = false;
  }
  if (p.torus && p.k < 3) {
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
  if (!p.torus) check_wrap(p, out, sizes_ok);
  if (sizes_ok) {
    check_node_count(k_ary_n_cube_node_count(params), "topology.n",
                     "a " + std::to_string(p.k) + "-ary " + std::to_string(p.n) + "-dimensional " + kind,
                     out);
  }
}

// Mesh and torus share their check and builder: a torus wraps every dimension, a mesh those it lists.
Graph build_k_ary_n_cube_topology(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return build_k_ary_n_cube(p.k, p.n, p.wrap_mask());
}

long long k_ary_n_cube_node_count(const TopologyParams& params) {
  const KAryNCubeParams p = k_ary_n_cube_params(params);
  return saturating_pow(std::max(p.k, 0), std::max(p.n, 0));
}

long long k_ary_n_cube_port_count(const TopologyParams& params) {
  // Every router has a + and a - port per dimension (unconnected at a mesh's edges) and its node's.
  return saturating_mul(k_ary_n_cube_node_count(params), 2LL * k_ary_n_cube_params(params).n + 1);
}

// Both kinds: the longest minimal route is k - 1 hops in an open dimension and k / 2 round a ring.
int max_router_hops(const KAryNCubeParams& p) {
  const std::uint32_t mask = p.wrap_mask();
  int hops = 1;
  for (int d = 0; d < p.n; ++d) hops += (mask >> d & 1) != 0 ? p.k / 2 : p.k - 1;
  return hops;
}
int mesh_max_router_hops(const TopologyParams& params) {
  return max_router_hops(k_ary_n_cube_params(params));
}
int torus_max_router_hops(const TopologyParams& params) {
  return max_router_hops(k_ary_n_cube_params(params));
}

int mesh_min_vcs(const TopologyParams& p) {
  const KAryNCubeParams m = k_ary_n_cube_params(p);
  return !m.wrap.empty() && m.dateline ? 2 : 1;
}
const char* mesh_min_vcs_reason(const TopologyParams& p) {
  return mesh_min_vcs(p) > 1 ? "a mesh with wrapped dimensions (topology.wrap) needs at least 2 VCs per port "
                               "for their dateline classes"
                             : nullptr;
}
int torus_min_vcs(const TopologyParams& p) {
  return k_ary_n_cube_params(p).dateline ? 2 : 1;
}
const char* torus_min_vcs_reason(const TopologyParams& p) {
  return k_ary_n_cube_params(p).dateline ? "a torus needs at least 2 VCs per port for its dateline classes"
                                         : nullptr;
}

Routing k_ary_n_cube_routing(const TopologyParams& p, const Graph& g, int vcs) {
  const KAryNCubeParams params = k_ary_n_cube_params(p);
  DimensionOrderRouting dor(params, g, vcs);
  // Only networks that ask for path multicast pay for it: the router then reads every packet's routing
  // word and runs its general (replicating) implementation.
  if (params.path_multicast) return Routing::bind(PathMulticastRouting(std::move(dor)), vcs);
  return Routing::bind(std::move(dor), vcs);
}

bool k_ary_n_cube_may_multicast(const TopologyParams& p) {
  return k_ary_n_cube_params(p).path_multicast;
}

Graph build_k_ary_n_cube(int k, int n, std::uint32_t wrap_mask) {
  MPPNET_ASSERT(k >= 2 && n >= 1 && (wrap_mask == 0 || k >= 3), "k-ary n-cube parameters were not checked");
  std::int32_t routers = 1;
  for (int d = 0; d < n; ++d) routers *= k;
  static_assert(cube_node_port(2) == 4, "the node port is the last one, as direct_network puts it");
  Graph g = direct_network(routers, 2 * n + 1);
  for (RouterId r = 0; r < routers; ++r) {
    std::int32_t stride = 1;  // k^d: the id distance of one step in dimension d
    for (int d = 0; d < n; ++d, stride *= k) {
      const bool wrap = (wrap_mask >> d & 1) != 0;
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
    : p_(p), wrap_mask_(p.wrap_mask()), vcs_(vcs) {
  MPPNET_ASSERT(p.k <= 0x7fff, "a radix beyond the digit width");
  MPPNET_ASSERT(!(wrap_mask_ != 0 && p.dateline) || vcs >= 2, "dateline classes need 2 VCs");
  digits_.resize(static_cast<std::size_t>(g.num_routers()) * p.n);
  for (std::int32_t r = 0; r < g.num_routers(); ++r) {
    std::int32_t rest = r;
    for (int d = 0; d < p.n; ++d, rest /= p.k)
      digits_[static_cast<std::size_t>(r) * p.n + d] = static_cast<std::int16_t>(rest % p.k);
  }
}

// Dimension order, lowest dimension first. Each wrapped dimension's ring is a cycle of channel
// dependencies, so there the VCs are split into two dateline classes: class 0 = [0, vcs/2 - 1], class 1 =
// [vcs/2, vcs - 1]. A packet takes class 1 on the wrap link (between coordinates k-1 and 0) and keeps it
// while it continues in the same dimension and direction; a new dimension starts again in class 0. Minimal
// routes cross each wrap link at most once and never come back to it, so neither class closes a cycle. A
// dimension that does not wrap (all of a mesh's, some of a cylinder's) has no cycle and offers every VC; the
// dependencies between dimensions only go from lower to higher ones.
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
    if ((wrap_mask_ >> d & 1) == 0) return one_port(to > from ? plus_port(d) : minus_port(d), 0, vcs_ - 1);
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
    hops += (wrap_mask_ >> d & 1) != 0 ? std::min(delta, k - delta) : delta;
  }
  return hops;
}

}  // namespace mppnet::topo
