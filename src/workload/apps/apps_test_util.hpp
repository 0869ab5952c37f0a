// workload/apps/apps_test_util.hpp: the networks and router the application tests run on (test-only).
#pragma once

#include <string>
#include <vector>

#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps::testing {

struct Net {
  std::string name;
  topo::TopologyParams topology;
  int nodes;
};

inline topo::TopologyParams shape(topo::TopologyKind kind, int k, int n) {
  topo::TopologyParams t;
  t.kind = kind;
  t.k = k;
  t.n = n;
  t.children = 4;
  return t;
}

// Two sizes of each family.
inline std::vector<Net> networks() {
  using K = topo::TopologyKind;
  return {{"mesh4x4", shape(K::Mesh, 4, 2), 16},          {"mesh8x8", shape(K::Mesh, 8, 2), 64},
          {"torus4x4", shape(K::Torus, 4, 2), 16},        {"torus6x6", shape(K::Torus, 6, 2), 36},
          {"hypercube16", shape(K::Hypercube, 2, 4), 16}, {"hypercube128", shape(K::Hypercube, 2, 7), 128},
          {"fattree4ary2", shape(K::FatTree, 4, 2), 16},  {"fattree4ary3", shape(K::FatTree, 4, 3), 64}};
}

// 4 VCs of 4 flits: 2 per virtual network, which the torus's dateline classes need.
inline net::RouterParams router() {
  net::RouterParams r;
  r.vcs = 4;
  r.buffer_flits = 4;
  return r;
}

}  // namespace mppnet::workload::apps::testing
