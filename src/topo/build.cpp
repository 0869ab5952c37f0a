// topo/build.cpp: checks topology parameters, reports every problem at once, and dispatches the builders.
#include "topo/build.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/routing.hpp"
#include "topo/saturating.hpp"

namespace mppnet::topo {

static_assert(kMaxParents <= kMaxRouteCandidates, "route() offers every parent link as a candidate");
static_assert(kMaxChildren + kMaxParents <= 64, "a router has at most 64 ports");
static_assert(kMaxVcsPerPort - 1 <= 255, "RouteSet stores VC numbers in 8 bits");

namespace {

std::string count_text(long long v) {
  return v == kSaturated ? "more than " + std::to_string(kSaturated) : std::to_string(v);
}

std::string list_text(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

void check_node_count(const TopologyParams& p, const std::string& what, std::vector<Problem>& out) {
  const long long nodes = node_count(p);
  if (nodes <= kMaxNodes) return;
  out.push_back({"topology.n", what + " has " + count_text(nodes) + " nodes; at most " +
                                   std::to_string(kMaxNodes) + " (2^22) are supported"});
}

void check_k_ary_n_cube(const TopologyParams& p, std::vector<Problem>& out) {
  const bool torus = p.kind == TopologyKind::Torus;
  const char* kind = torus ? "torus" : "mesh";
  bool sizes_ok = true;
  if (!torus && p.k < 2) {
    out.push_back(
        {"topology.k", "a mesh needs k >= 2 routers per dimension (got " + std::to_string(p.k) + ")"});
    sizes_ok = false;
  }
  if (torus && p.k < 3) {
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
    check_node_count(p, "a " + std::to_string(p.k) + "-ary " + std::to_string(p.n) + "-dimensional " + kind,
                     out);
  }
}

void check_hypercube(const TopologyParams& p, std::vector<Problem>& out) {
  if (p.n < 1) {
    out.push_back({"topology.n", "a hypercube needs n >= 1 dimensions (got " + std::to_string(p.n) + ")"});
  }
  if (p.n > kMaxHypercubeDimensions) {
    out.push_back({"topology.n", "a hypercube supports at most " + std::to_string(kMaxHypercubeDimensions) +
                                     " dimensions (got " + std::to_string(p.n) + ")"});
  }
}

void check_fat_tree(const TopologyParams& p, std::vector<Problem>& out) {
  bool sizes_ok = true;
  if (p.n < 1) {
    out.push_back({"topology.n", "a fat tree needs n >= 1 levels (got " + std::to_string(p.n) + ")"});
    sizes_ok = false;
  }
  if (p.children < 2 || p.children > kMaxChildren) {
    out.push_back({"topology.children", "a fat tree needs 2 <= children <= " + std::to_string(kMaxChildren) +
                                            " down-links per router (got " + std::to_string(p.children) +
                                            ")"});
    sizes_ok = false;
  }
  for (std::size_t i = 0; i < p.parents.size(); ++i) {
    const int v = p.parents[i];
    if (v >= 1 && v <= kMaxParents) continue;
    out.push_back({"topology.parents", "parents[" + std::to_string(i) + "] = " + std::to_string(v) +
                                           ": a router needs 1 to " + std::to_string(kMaxParents) +
                                           " parent links (route() offers them all as candidates)"});
    sizes_ok = false;
  }
  // Entries beyond level n-1 are ignored, so one schedule (the CM-5's [2, 2, 4]) fits every size.
  if (p.leaf_links < 1 || p.leaf_links > kMaxLeafLinks) {
    out.push_back(
        {"topology.leaf_links", "a fat tree needs 1 <= leaf_links <= " + std::to_string(kMaxLeafLinks) +
                                    " network links per node (got " + std::to_string(p.leaf_links) + ")"});
    sizes_ok = false;
  }
  if (!sizes_ok) return;
  const std::string what =
      "a " + std::to_string(p.children) + "-ary fat tree of n = " + std::to_string(p.n) + " levels";
  const std::size_t before = out.size();
  check_node_count(p, what, out);
  if (out.size() != before) return;  // n is then small enough (c >= 2) for fat_tree_shape
  const long long routers = fat_tree_shape(p).routers();
  if (routers <= kMaxRouters) return;
  out.push_back({"topology.n", what + " with parents " + list_text(p.parents) +
                                   " and leaf_links = " + std::to_string(p.leaf_links) + " has " +
                                   count_text(routers) + " routers; at most " + std::to_string(kMaxRouters) +
                                   " (2^24) are supported; use fewer levels or parent links"});
}

std::vector<Problem> check_topology(const TopologyParams& p) {
  std::vector<Problem> out;
  switch (p.kind) {
    case TopologyKind::Mesh:
    case TopologyKind::Torus:
      check_k_ary_n_cube(p, out);
      break;
    case TopologyKind::Hypercube:
      check_hypercube(p, out);
      break;
    case TopologyKind::FatTree:
      check_fat_tree(p, out);
      break;
  }
  return out;
}

}  // namespace

std::vector<Problem> check(const TopologyParams& p, int vcs) {
  std::vector<Problem> out = check_topology(p);
  const int least = Routing::min_vcs(p);
  if (vcs < least) {
    const std::string got = " (got " + std::to_string(vcs) + ")";
    out.push_back(
        {"router.vcs", p.kind == TopologyKind::Torus
                           ? "a torus needs at least 2 VCs per port for its dateline classes" + got
                           : "a router needs at least " + std::to_string(least) + " VC per port" + got});
  }
  if (vcs > kMaxVcsPerPort) {
    out.push_back({"router.vcs", "at most " + std::to_string(kMaxVcsPerPort) +
                                     " VCs per port are supported (got " + std::to_string(vcs) + ")"});
  }
  return out;
}

Graph build(const TopologyParams& p) {
  MPPNET_ASSERT(check_topology(p).empty(), "build() called with parameters that check() rejects");
  switch (p.kind) {
    case TopologyKind::Mesh:
      return build_k_ary_n_cube(p.k, p.n, /*wrap=*/false);
    case TopologyKind::Torus:
      return build_k_ary_n_cube(p.k, p.n, /*wrap=*/true);
    case TopologyKind::Hypercube:
      return build_hypercube(p.n);
    case TopologyKind::FatTree:
      return build_fat_tree(p);
  }
  MPPNET_ASSERT(false, "unknown topology kind");
  return {};
}

long long node_count(const TopologyParams& p) {
  const long long n = std::max(p.n, 0);
  switch (p.kind) {
    case TopologyKind::Mesh:
    case TopologyKind::Torus:
      return saturating_pow(std::max(p.k, 0), n);
    case TopologyKind::Hypercube:
      return saturating_pow(2, n);
    case TopologyKind::FatTree:
      return saturating_pow(std::max(p.children, 0), n);
  }
  return 0;
}

const char* name(TopologyKind k) {
  switch (k) {
    case TopologyKind::Mesh:
      return "mesh";
    case TopologyKind::Torus:
      return "torus";
    case TopologyKind::Hypercube:
      return "hypercube";
    case TopologyKind::FatTree:
      return "fat_tree";
  }
  return "?";
}

int max_router_hops(const TopologyParams& p) {
  switch (p.kind) {
    case TopologyKind::Mesh:
      return p.n * (p.k - 1) + 1;
    case TopologyKind::Torus:
      return p.n * (p.k / 2) + 1;
    case TopologyKind::Hypercube:
      return p.n + 1;
    case TopologyKind::FatTree:
      return 2 * p.n - 1;
  }
  return 0;
}

}  // namespace mppnet::topo
