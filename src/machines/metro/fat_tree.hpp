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

#include <vector>

#include "machines/metro/multibutterfly.hpp"
#include "machines/metro/network_graph.hpp"

namespace mppnet::machines::metro {

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

TreeShape tree_shape(const MultibutterflyParams& p);

// Nodes of the network `p` describes, for any topology (saturates far above every limit).
long long network_nodes(const MultibutterflyParams& p);

// Every reason a fat tree or hybrid fat tree cannot be built (check() calls it for those topologies).
std::vector<Problem> check_tree(const MultibutterflyParams& p);

// REQUIRES: check(p).empty(), p.topology != Multibutterfly. Roles: "up level p", "down height h",
// and for a hybrid "cluster stage k".
NetworkGraph build_fat_tree(const MultibutterflyParams& p);

// Any topology as a graph: the multibutterfly instance (seed, instance) through to_graph(), or the tree.
NetworkGraph build_network_graph(const MultibutterflyParams& p, std::uint64_t seed, int instance);

}  // namespace mppnet::machines::metro
