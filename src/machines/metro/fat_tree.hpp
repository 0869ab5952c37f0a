// machines/metro/fat_tree.hpp: multipath fat trees and hybrid fat trees of dilated routers (DeHon
// §3.5.6-3.5.7).
//
// The text fixes the pieces; Figs 3.31-3.32 (the wiring) are lost, so the rest follows Ch. 7's unit trees
// (§7.5, Eqs 7.1-7.2, Table 7.4), which describe the same tree in packaged form. Assumptions are listed in
// docs/metro.md §8 and docs/assumptions.md.
//
//   Tree: arity r, height L (metro.stages); the leaves are nodes (fat tree, N = r^L) or clusters
//   (hybrid). A height-h subtree holds r^h leaves.
//   Down network: one stage per height h = L..1; the routers of a height-h subtree form its class, route
//   on the child digit (r directions, d copies each) and take wires from the parent class and from
//   crossovers. Height 1 of a fat tree delivers to nodes with metro.final_dilation copies per node.
//   Up network: up routers of r x d ports; u = metro.up_directions of their directions lead up, the other
//   c = r - u cross over into c successive down heights (Fig 3.30: c = 3, u = 1). Up level p (p = 1..K,
//   K = ceil(L / c)) serves the heights g_p .. g_p + c - 1 with g_p = c*(p-1) + 1; its routers are grouped
//   per height-g_p subtree (for p = 1: r leaves), and crossover j of a group goes to the down class of
//   height g_p + j that contains the group. A group takes every up wire of the groups below it.
//   Root: the up directions of the top level, and crossovers to heights above L, turn around into the
//   root class (height L): a flat network is the degenerate case of §3.5.6.
//   Capacity: every up router is fully used, so a group with I inputs sends I*u/r wires up; for u = 1,
//   r = 4 the wires leaving a height-3p subtree are ni*16^p (Eq 7.2, c_r = c_l*r^(r-2)), a growth of
//   16^(1/3) = 4^(2/3) per 4-ary level, Leiserson's volume-universal rate (sqrt3(4) per binary level).
//   Hybrid leaves (Fig 3.33): a cluster of (r-1)*r^(cs-1) nodes, cs = metro.cluster_stages. Its first
//   stage has r*ni*r^(cs-1)/(r*d) routers; (r-1)*d inputs of each come from nodes and d (1/r) from the
//   tree; directions 0..r-2 go to the cluster's r-1 sub-clusters, direction r-1 up into the tree (only
//   for destinations outside the cluster). Stages 2..cs are a multibutterfly per sub-cluster.
//   Wiring: deterministic. The wires into a class (or an up group) are listed source router by source
//   router, copies together, and wire t goes to router t mod C, slot t / C: copies of one direction reach
//   distinct routers whenever the class has at least d routers. Every router is one package.
#pragma once

#include <string>
#include <vector>

#include "machines/metro/multibutterfly.hpp"
#include "machines/metro/network_graph.hpp"

namespace mppnet::machines::metro {

// What both trees share besides the parts (MetroNetworkParams: radix, dilation, levels in `stages`, node
// ports, final_dilation). Trees are wired deterministically and have no extra stages.
struct MetroTreeParams : MetroNetworkParams {
  // Of an up router's r directions, this many lead up and the other r - up_directions cross over into
  // successive down levels (Fig 3.30: 1 up, 3 crossovers for r = 4). It sets the channel capacity
  // between tree levels.
  int up_directions = 1;
};

// The multipath fat tree (§3.5.6): leaves are nodes, N = r^L.
struct MetroFatTreeParams : MetroTreeParams {};

// The hybrid fat tree (§3.5.7): leaves are multibutterfly clusters, N = (r-1)*r^(cs-1) * r^L.
struct HybridFatTreeParams : MetroTreeParams {
  int cluster_stages = 2;  // cs: routing stages in each leaf cluster, the first included (>= 2)
};

// Sizes of a fat tree, computed once for check() and the builder. Counts are per group or per class.
struct TreeShape {
  long long nodes = 0;
  long long leaves = 0;                  // r^L
  long long leaf_nodes = 1;              // nodes per leaf: 1, or (r-1)*r^(cs-1) for a hybrid
  long long leaf_ports = 0;              // wires from a leaf into the tree (and back): ni, or r^(cs-1)*ni
  int up_levels = 0;                     // K
  int heights_per_level = 0;             // c = r - u
  std::vector<long long> group_inputs;   // I_p, index p-1
  std::vector<long long> up_routers;     // U_p = I_p / (r*d) per group
  std::vector<long long> groups;         // level-p groups in the tree
  std::vector<long long> class_inputs;   // D_h, index h-1
  std::vector<long long> class_routers;  // C_h (0 when D_h does not divide)
  std::vector<long long> classes;        // height-h subtrees
  std::vector<int> class_dilation;       // copies per direction at height h
  // Hybrid clusters: routers per class at cluster stage k = 1..cs (index k-1); classes per cluster.
  std::vector<long long> cluster_routers;
  std::vector<long long> cluster_classes;
};

TreeShape tree_shape(const MetroFatTreeParams& p);
TreeShape tree_shape(const HybridFatTreeParams& p);

// Nodes of the network `p` describes (saturates far above every limit).
long long network_nodes(const MetroNetworkParams& p);  // radix^stages: a multibutterfly or a fat tree
long long network_nodes(const HybridFatTreeParams& p);

// Every reason the tree cannot be built; empty when it can.
std::vector<Problem> check(const MetroFatTreeParams& p);
std::vector<Problem> check(const HybridFatTreeParams& p);

// REQUIRES: check(p).empty(). Roles: "up level p", "down height h", and for a hybrid "cluster stage k".
NetworkGraph build_fat_tree(const MetroFatTreeParams& p);
NetworkGraph build_fat_tree(const HybridFatTreeParams& p);

// One line naming every parameter ("fat_tree r=4 d=2 levels=3 ...").
std::string describe(const MetroFatTreeParams& p);
std::string describe(const HybridFatTreeParams& p);

}  // namespace mppnet::machines::metro
