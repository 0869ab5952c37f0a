// topo/params_for_test.hpp: test helper: short names for the topologies the tests build.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "topo/dragonfly.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/topology_keys.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo::testing {

inline TopologyParams mesh(int k, int n) {
  return topology_of(KAryNCubeParams{.k = k, .n = n, .torus = false});
}
inline TopologyParams torus(int k, int n, bool dateline = true) {
  return topology_of(KAryNCubeParams{.k = k, .n = n, .torus = true, .dateline = dateline});
}
// A k-ary n-mesh whose dimensions `wrap` are rings: {1} with n = 2 is a cylinder (the CNS-1's shape).
inline TopologyParams cylinder(int k, int n, std::vector<int> wrap, bool path_multicast = false) {
  return topology_of(KAryNCubeParams{
      .k = k, .n = n, .torus = false, .wrap = std::move(wrap), .path_multicast = path_multicast});
}
inline TopologyParams hypercube(int n) {
  return topology_of(HypercubeParams{.n = n});
}

// A k-ary n-tree: k children and k parents per router, one link per node.
inline TopologyParams k_ary_n_tree(int k, int n, UpRouting up = UpRouting::RandomFree) {
  return topology_of(FatTreeParams{.n = n, .children = k, .leaf_links = 1, .up_routing = up});
}

// The CM-5 data network schedule (note 000 §2.3.1): 4 children, 2 parents at levels 1 and 2, 4 above,
// 2 links per node. The list is cut to the n - 1 levels that have parents.
inline TopologyParams cm5(int n, UpRouting up = UpRouting::RandomFree) {
  std::vector<int> parents = {2, 2, 4};
  parents.resize(std::min<std::size_t>(parents.size(), static_cast<std::size_t>(std::max(n - 1, 0))));
  return topology_of(
      FatTreeParams{.n = n, .children = 4, .parents = parents, .leaf_links = 2, .up_routing = up});
}

// A dragonfly of p nodes per router, a routers per group, h global links per router (g = a * h + 1).
inline TopologyParams dragonfly(int p, int a, int h, DragonflyRouting routing = DragonflyRouting::Minimal) {
  return topology_of(DragonflyParams{.p = p, .a = a, .h = h, .routing = routing});
}

}  // namespace mppnet::topo::testing
