// workload/apps/apps_test_util.hpp: the networks and router the application tests run on (test-only).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topo/params_for_test.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps::testing {

struct Net {
  std::string name;
  topo::TopologyParams topology;
  int nodes;
};

// A topology by kind: k routers per dimension (mesh, torus) or children (fat tree), n dimensions or levels.
inline topo::TopologyParams shape(std::string_view kind, int k, int n) {
  if (kind == "hypercube") return topo::testing::hypercube(n);
  if (kind == "fat_tree") return topo::testing::k_ary_n_tree(k, n);
  return kind == "torus" ? topo::testing::torus(k, n) : topo::testing::mesh(k, n);
}

// Two sizes of each family.
inline std::vector<Net> networks() {
  return {{"mesh4x4", shape("mesh", 4, 2), 16},          {"mesh8x8", shape("mesh", 8, 2), 64},
          {"torus4x4", shape("torus", 4, 2), 16},        {"torus6x6", shape("torus", 6, 2), 36},
          {"hypercube16", shape("hypercube", 2, 4), 16}, {"hypercube128", shape("hypercube", 2, 7), 128},
          {"fattree4ary2", shape("fat_tree", 4, 2), 16}, {"fattree4ary3", shape("fat_tree", 4, 3), 64}};
}

// 4 VCs of 4 flits: 2 per virtual network, which the torus's dateline classes need.
inline net::RouterParams router() {
  net::RouterParams r;
  r.vcs = 4;
  r.buffer_flits = 4;
  return r;
}

}  // namespace mppnet::workload::apps::testing
