// topo/fat_tree.hpp: fat trees built from router chips: k-ary n-trees and CM-5-style trees whose parent
// links per chip vary by level.
//
// Wiring (CM-5 engineering note 000 §2.3.2, a reconstruction that reproduces every stated bandwidth):
// c = children, n = levels, N = c^n nodes, L = leaf_links, P(k) = parent links per chip at level k.
// Level k (1..n) has N / c^k subtrees of C(k) chips each: C(1) = L and C(k+1) = U(k) = C(k) * P(k),
// the uplinks out of a level-k subtree. Router id = level_base[k] + subtree * C(k) + chip.
// Ports 0..c-1 are child ports, c..c+P(k)-1 parent ports. Chip j of level-k subtree s takes uplink j of
// each child subtree s*c + c' on its child port c'. Uplink u of a level-k subtree is parent port
// c + u % P(k) of its chip u / P(k); at level 0, uplink u of node v is its node link u.
#pragma once

#include <vector>

#include "topo/graph.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

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
int parents_at_level(const TopologyParams& p, int level);

// REQUIRES: 2 <= p.children, 1 <= p.n <= 64, 1 <= p.leaf_links, every parents entry >= 1.
FatTreeShape fat_tree_shape(const TopologyParams& p);

// REQUIRES: check(p, vcs) is empty (so every size fits an int32).
Graph build_fat_tree(const TopologyParams& p);

}  // namespace mppnet::topo
