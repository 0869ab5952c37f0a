// topo/routing.cpp: dimension-order (mesh, torus with dateline VC classes), e-cube (hypercube) and
// up/down least-common-ancestor routing (fat trees).
#include "topo/routing.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/k_ary_n_cube.hpp"

namespace mppnet::topo {

Routing::Routing(const TopologyParams& params, const Graph& graph, int vcs)
    : params_(params), graph_(&graph), vcs_(vcs) {
  MPPNET_ASSERT(vcs >= min_vcs(params) && vcs <= kMaxVcsPerPort, "VCs per port were not checked");
  MPPNET_ASSERT(graph_->num_nodes == node_count(params), "the graph was not built from these parameters");
  if (params.kind == TopologyKind::Mesh || params.kind == TopologyKind::Torus) {
    MPPNET_ASSERT(params.k <= 0x7fff, "a radix beyond the digit width");
    digits_.resize(static_cast<std::size_t>(graph.num_routers()) * params.n);
    for (std::int32_t r = 0; r < graph.num_routers(); ++r) {
      std::int32_t rest = r;
      for (int d = 0; d < params.n; ++d, rest /= params.k)
        digits_[static_cast<std::size_t>(r) * params.n + d] = static_cast<std::int16_t>(rest % params.k);
    }
  }
  if (params.kind != TopologyKind::FatTree) return;
  if (std::has_single_bit(static_cast<unsigned>(params.children)))
    child_shift_ = std::countr_zero(static_cast<unsigned>(params.children));
  const FatTreeShape shape = fat_tree_shape(params);
  MPPNET_ASSERT(shape.routers() == graph.num_routers() && shape.nodes == graph.num_nodes,
                "the graph was not built from these fat-tree parameters");
  pow_children_.assign(params.n + 1, 1);
  for (int k = 1; k <= params.n; ++k) pow_children_[k] = pow_children_[k - 1] * params.children;
  parents_.assign(shape.parents.begin(), shape.parents.end());
  level_.resize(graph.num_routers());
  subtree_.resize(graph.num_routers());
  for (int k = 1; k <= params.n; ++k) {
    for (long long r = shape.level_base[k]; r < shape.level_base[k + 1]; ++r) {
      level_[r] = k;
      subtree_[r] = static_cast<std::int32_t>((r - shape.level_base[k]) / shape.chips[k]);
    }
  }
}

RouteSet Routing::all_vcs(PortId port) const noexcept {
  RouteSet rs;
  rs.ports[0] = static_cast<std::int16_t>(port);
  rs.count = 1;
  rs.vc_lo = 0;
  rs.vc_hi = static_cast<std::uint8_t>(vcs_ - 1);
  return rs;
}

RouteSet Routing::route(RouterId router, PortId in_port, VcId in_vc, NodeId dest) const noexcept {
  switch (params_.kind) {
    case TopologyKind::Mesh:
    case TopologyKind::Torus:
      return route_k_ary_n_cube(router, in_port, in_vc, dest);
    case TopologyKind::Hypercube:
      return route_hypercube(router, dest);
    case TopologyKind::FatTree:
      return route_fat_tree(router, in_port, dest);
  }
  MPPNET_ASSERT(false, "unknown topology kind");
  return {};
}

// Dimension order, lowest dimension first. On a torus each ring is a cycle of channel dependencies, so
// the VCs are split into two dateline classes: class 0 = [0, vcs/2 - 1], class 1 = [vcs/2, vcs - 1].
// A packet takes class 1 on the wrap link (between coordinates k-1 and 0) and keeps it while it continues
// in the same dimension and direction; a new dimension starts again in class 0. Minimal routes cross
// each wrap link at most once and never come back to it, so neither class closes a cycle.
RouteSet Routing::route_k_ary_n_cube(RouterId router, PortId in_port, VcId in_vc,
                                     NodeId dest) const noexcept {
  const int k = params_.k;
  const int n = params_.n;
  const bool wrap = params_.kind == TopologyKind::Torus;
  const std::int16_t* here = &digits_[static_cast<std::size_t>(router) * n];
  const std::int16_t* there = &digits_[static_cast<std::size_t>(dest) * n];  // node v sits at router v
  for (int d = 0; d < n; ++d) {
    const int from = here[d];
    const int to = there[d];
    if (from == to) continue;
    if (!wrap) return all_vcs(to > from ? plus_port(d) : minus_port(d));

    const int forward = (to - from + k) % k;
    const bool plus = 2 * forward <= k;  // minimal direction; a tie (k/2 each way) goes +
    const PortId out = plus ? plus_port(d) : minus_port(d);
    if (!params_.dateline) return all_vcs(out);
    const bool takes_wrap_link = plus ? from == k - 1 : from == 0;
    // Arriving on the opposite port of the same dimension means the packet is moving the same way.
    const bool continues = in_port == (out ^ 1);
    const int half = vcs_ / 2;
    const bool class1 = takes_wrap_link || (continues && in_vc >= half);
    RouteSet rs;
    rs.ports[0] = static_cast<std::int16_t>(out);
    rs.count = 1;
    rs.vc_lo = static_cast<std::uint8_t>(class1 ? half : 0);
    rs.vc_hi = static_cast<std::uint8_t>(class1 ? vcs_ - 1 : half - 1);
    return rs;
  }
  return all_vcs(cube_node_port(params_.n));  // ejection may use every VC
}

// E-cube: correct the lowest differing address bit first.
RouteSet Routing::route_hypercube(RouterId router, NodeId dest) const noexcept {
  const auto diff = static_cast<std::uint32_t>(router ^ dest);
  if (diff == 0) return all_vcs(hypercube_node_port(params_.n));
  return all_vcs(std::countr_zero(diff));
}

// Up to the least common ancestor, then down along the unique path (note 000 §2.3.1, "route up to the
// LCA"; §2.3.2, "from any chip at level k the path to a given leaf is unique").
RouteSet Routing::route_fat_tree(RouterId router, PortId in_port, NodeId dest) const noexcept {
  const int c = params_.children;
  const int k = level_[router];
  if (child_shift_ >= 0) {  // the same, with shifts
    const std::int32_t below = dest >> (child_shift_ * (k - 1));
    if ((below >> child_shift_) == subtree_[router]) return all_vcs(below & (c - 1));
  } else {
    const std::int32_t below = dest / pow_children_[k - 1];  // dest's level-(k-1) subtree
    if (below / c == subtree_[router]) return all_vcs(below % c);
  }

  // The packet must climb. It can only have come up from a child: a packet that came down has already
  // passed its LCA (and the CM-5 chip never connects a parent input to a parent output, note 000 §2.3.3).
  MPPNET_ASSERT(in_port < c, "fat tree: a packet that came down from a parent would go up again");
  const int parents = parents_[k];
  MPPNET_ASSERT(parents > 0, "fat tree: the top level covers every node");
  if (params_.up_routing == UpRouting::Deterministic) {
    // d-mod-k: parent c + (dest / c^(k-1)) % P(k), i.e. digit k-1 of dest when P(k) = c. The chip reached
    // at level k+1 is then chip * P(k) + that parent, a function of dest and the source's node link alone,
    // so all traffic for one destination converges on one path down, and the destinations outside a
    // subtree are spread evenly over its parents (exactly evenly when P(k) divides c, as in k-ary n-trees
    // and the CM-5 schedule [2, 2, 4]).
    return all_vcs(c + (dest / pow_children_[k - 1]) % parents);
  }
  // RandomFree: every parent is legal; the router draws among the free ones.
  RouteSet rs = all_vcs(c);
  for (int p = 1; p < parents; ++p) rs.ports[p] = static_cast<std::int16_t>(c + p);
  rs.count = static_cast<std::uint8_t>(parents);
  return rs;
}

int Routing::router_hops(NodeId src, NodeId dest) const {
  switch (params_.kind) {
    case TopologyKind::Mesh:
    case TopologyKind::Torus: {
      const int k = params_.k;
      int hops = 1;
      for (int d = 0; d < params_.n; ++d, src /= k, dest /= k) {
        const int delta = std::abs(src % k - dest % k);
        hops += params_.kind == TopologyKind::Torus ? std::min(delta, k - delta) : delta;
      }
      return hops;
    }
    case TopologyKind::Hypercube:
      return std::popcount(static_cast<std::uint32_t>(src ^ dest)) + 1;
    case TopologyKind::FatTree: {
      int height = 1;  // a packet to itself still turns at level 1
      while (src / pow_children_[height] != dest / pow_children_[height]) ++height;
      return 2 * height - 1;
    }
  }
  MPPNET_ASSERT(false, "unknown topology kind");
  return 0;
}

int Routing::min_vcs(const TopologyParams& params) {
  return params.kind == TopologyKind::Torus && params.dateline ? 2 : 1;
}

}  // namespace mppnet::topo
