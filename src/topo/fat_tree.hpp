// topo/fat_tree.hpp: fat trees built from router chips: k-ary n-trees and CM-5-style trees whose parent
// links per chip vary by level. Parameters, shape, builder, up/down routing and the registration
// (kFatTreeTopology).
//
// Wiring (CM-5 engineering note 000 §2.3.2, a reconstruction that reproduces every stated bandwidth):
// c = children, n = levels, N = c^n nodes, L = leaf_links, P(k) = parent links per chip at level k.
// Level k (1..n) has N / c^k subtrees of C(k) chips each: C(1) = L and C(k+1) = U(k) = C(k) * P(k),
// the uplinks out of a level-k subtree. Router id = level_base[k] + subtree * C(k) + chip.
// Ports 0..c-1 are child ports, c..c+P(k)-1 parent ports. Chip j of level-k subtree s takes uplink j of
// each child subtree s*c + c' on its child port c'. Uplink u of a level-k subtree is parent port
// c + u % P(k) of its chip u / P(k); at level 0, uplink u of node v is its node link u.
#pragma once

#include <cstdint>
#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

// How a fat tree picks a parent link on the way up (topology.up_routing, in this order).
enum class UpRouting {
  RandomFree,     // pseudorandomly among parent links with a free output VC (CM-5, note 000 §2.3.4)
  Deterministic,  // a fixed parent chosen from the destination's digits (d-mod-k)
  Random,         // one parent drawn at random per packet and router, whatever its load
  Adaptive,       // the parent with a free output VC whose channel has the most credits (ties at random)
};

struct FatTreeParams {
  int n = 5;         // levels (topology.n)
  int children = 4;  // c: down-links per router (topology.children)
  // Parent links per router at levels 1, 2, ..., n-1 (topology.parents): the last entry repeats for the
  // levels the list does not reach and entries beyond level n-1 are ignored (empty: `children` at every
  // level, a k-ary n-tree; the CM-5 schedule is [2, 2, 4]).
  std::vector<int> parents = {};
  int leaf_links = 1;                            // network links per node (topology.leaf_links; CM-5: 2)
  UpRouting up_routing = UpRouting::RandomFree;  // topology.up_routing
};
FatTreeParams fat_tree_params(const TopologyParams& p);
TopologyParams topology_of(const FatTreeParams& p);

// Sizes of one fat tree. Counts saturate at kSaturated (topo/saturating.hpp) rather than overflow, so
// check() can compare them with its caps before anything is allocated.
struct FatTreeShape {
  int children = 0;                   // c
  int levels = 0;                     // n
  int leaf_links = 0;                 // L
  std::vector<int> parents;           // [k] = P(k) for k = 1..n; [0] unused, [n] = 0
  std::vector<long long> chips;       // [k] = C(k), chips per level-k subtree; [0] unused
  std::vector<long long> subtrees;    // [k] = N / c^k; [0] = N
  std::vector<long long> level_base;  // [k] = id of the first level-k router; [n + 1] = routers
  long long nodes = 0;                // N

  long long routers() const { return level_base[levels + 1]; }
  long long routers_at_level(int k) const { return level_base[k + 1] - level_base[k]; }
};

// P(level): parent links per chip at `level`, from p.parents (entry level-1; the last entry repeats;
// empty means p.children); 0 at the top level p.n. REQUIRES: 1 <= level <= p.n.
int parents_at_level(const FatTreeParams& p, int level);
inline int parents_at_level(const TopologyParams& p, int level) {
  return parents_at_level(fat_tree_params(p), level);
}

// REQUIRES: 2 <= p.children, 1 <= p.n <= 64, 1 <= p.leaf_links, every parents entry >= 1.
FatTreeShape fat_tree_shape(const FatTreeParams& p);
inline FatTreeShape fat_tree_shape(const TopologyParams& p) {
  return fat_tree_shape(fat_tree_params(p));
}

// REQUIRES: check(p, vcs) is empty (so every size fits an int32).
Graph build_fat_tree(const TopologyParams& p);

// Up to the least common ancestor, then down along the unique path (fat_tree.cpp).
class UpDownRouting {
 public:
  static constexpr bool kNeedsHeader = false;
  // REQUIRES: `g` was built from `p`.
  UpDownRouting(const FatTreeParams& p, const Graph& g, int vcs);
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept;
  int router_hops(NodeId src, NodeId dest) const;
  bool uses_input_vc() const { return false; }
  // Adaptive up-routing offers every parent and lets the router take the one with the most credits.
  PortSelection port_selection() const {
    return up_routing_ == UpRouting::Adaptive ? PortSelection::MostCredits : PortSelection::RandomFree;
  }

 private:
  RouteSet all_vcs(PortId port) const noexcept;  // one port, every VC
  int children_;
  UpRouting up_routing_;
  int vcs_;
  std::vector<std::int32_t> level_;         // level of each router (1..n)
  std::vector<std::int32_t> subtree_;       // index of the level-k subtree the router serves
  std::vector<std::int32_t> pow_children_;  // children^k
  std::vector<std::int32_t> parents_;       // P(k), parent links per router at level k (0 at the top)
  int child_shift_ = -1;                    // log2(children) when children is a power of two
};

// Load-blind random up-routing: of the parents UpDownRouting offers, one drawn from the packet's random
// value at this router (which needs the header seam's random value, hence its own policy class).
class RandomUpRouting : public UpDownRouting {
 public:
  static constexpr bool kNeedsHeader = true;
  using UpDownRouting::UpDownRouting;
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept {
    RouteSet rs = UpDownRouting::route(router, in_port, in_vc, head);
    if (rs.count > 1) {
      rs.ports[0] = rs.ports[(head.random >> 32) % rs.count];
      rs.count = 1;
    }
    return rs;
  }
};

std::vector<TopologyKey> fat_tree_keys();
void check_fat_tree(const TopologyParams& p, std::vector<Problem>& out);
long long fat_tree_node_count(const TopologyParams& p);
long long fat_tree_port_count(const TopologyParams& p);
int fat_tree_max_router_hops(const TopologyParams& p);
int fat_tree_min_vcs(const TopologyParams& p);
const char* fat_tree_min_vcs_reason(const TopologyParams& p);
Routing fat_tree_routing(const TopologyParams& p, const Graph& g, int vcs);

inline constexpr TopologyInfo kFatTreeTopology{
    .name = "fat_tree",
    .summary =
        "c-ary fat tree of n levels, parents per level (k-ary n-tree, CM-5 [2, 2, 4]), up to the least "
        "common ancestor on a free parent link, then down the unique path",
    .keys = fat_tree_keys,
    .check = check_fat_tree,
    .build = build_fat_tree,
    .node_count = fat_tree_node_count,
    .port_count = fat_tree_port_count,
    .max_router_hops = fat_tree_max_router_hops,
    .min_vcs = fat_tree_min_vcs,
    .min_vcs_reason = fat_tree_min_vcs_reason,
    .routing = fat_tree_routing,
};

}  // namespace mppnet::topo
