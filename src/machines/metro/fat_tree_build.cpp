// machines/metro/fat_tree_build.cpp: building fat trees and hybrid fat trees as router graphs.
#include <string>
#include <vector>

#include "core/error.hpp"
#include "machines/metro/fat_tree.hpp"

namespace mppnet::machines::metro {

namespace {

// A wire waiting for its target: output `port` of router `from`, or port `port` of node
// source_node(from) when is_node_source(from).
struct Pending {
  WireEnd from;
  PortId port;
  DestRange range;
};

// Wire t of `list` goes to router first + t mod C, slot offset + t / C (copies of one direction are
// adjacent in the list, so they reach distinct routers when C >= copies).
void connect(GraphBuilder& b, const std::vector<Pending>& list, RouterId first, long long C, PortId offset) {
  for (std::size_t t = 0; t < list.size(); ++t) {
    const RouterId to = first + static_cast<RouterId>(t % C);
    const PortId slot = offset + static_cast<PortId>(t / C);
    const Pending& w = list[t];
    if (is_node_source(w.from))
      b.node_port(source_node(w.from), w.port, to, slot);
    else
      b.wire(w.from, w.port, to, slot, w.range);
  }
}

// Both trees: `hybrid` says whether the leaves are clusters of `cs` stages (sh.leaf_nodes nodes each) or
// nodes, as in tree_shape().
NetworkGraph build_tree(const MetroTreeParams& p, const TreeShape& sh, bool hybrid, int cs) {
  const int r = p.radix, d = p.dilation, L = p.stages, u = p.up_directions, c = r - u, K = sh.up_levels;
  const int ni = p.node_inputs, dF = p.final_dilation;
  const int N = static_cast<int>(sh.nodes), M = static_cast<int>(sh.leaf_nodes);
  const int leaves = static_cast<int>(sh.leaves);
  GraphBuilder b(N, ni);
  // Subtree Q of height h (in leaves) as a node range.
  auto subtree = [&](int h, long long Q) {
    long long span = M;
    for (int i = 0; i < h; ++i) span *= r;
    return DestRange{static_cast<int>(Q * span), static_cast<int>((Q + 1) * span), false};
  };

  // --- routers: clusters, up levels, down heights ---
  std::vector<std::vector<RouterId>> cluster_first(hybrid ? leaves : 0);  // [cluster][stage]
  if (hybrid) {
    std::vector<int> roles;
    for (int k = 1; k <= cs; ++k) roles.push_back(b.add_role("cluster stage " + std::to_string(k)));
    for (int cl = 0; cl < leaves; ++cl)
      for (int k = 0; k < cs; ++k) {
        cluster_first[cl].push_back(-1);
        const int ports = r * (k == cs - 1 ? dF : d);
        for (long long i = 0; i < sh.cluster_routers[k] * sh.cluster_classes[k]; ++i) {
          const RouterId id = b.add_router(roles[k], ports, ports);
          if (i == 0) cluster_first[cl][k] = id;
        }
      }
  }
  std::vector<RouterId> up_first(K), down_first(L + 1);
  for (int lvl = 0; lvl < K; ++lvl) {
    const int role = b.add_role("up level " + std::to_string(lvl + 1));
    for (long long i = 0; i < sh.groups[lvl] * sh.up_routers[lvl]; ++i) {
      const RouterId id = b.add_router(role, r * d, r * d);
      if (i == 0) up_first[lvl] = id;
    }
  }
  for (int h = L; h >= 1; --h) {
    const int role = b.add_role("down height " + std::to_string(h));
    const int ports = r * sh.class_dilation[h - 1];
    for (long long i = 0; i < sh.classes[h - 1] * sh.class_routers[h - 1]; ++i) {
      const RouterId id = b.add_router(role, ports, ports);
      if (i == 0) down_first[h] = id;
    }
  }

  // Wires waiting for each up group and each down class.
  std::vector<std::vector<std::vector<Pending>>> group_in(K), class_in(L + 1);
  for (int lvl = 0; lvl < K; ++lvl) group_in[lvl].resize(sh.groups[lvl]);
  for (int h = 1; h <= L; ++h) class_in[h].resize(sh.classes[h - 1]);
  const DestRange everywhere{0, N, false};

  // --- leaves into level-1 groups (a group is r leaves) ---
  for (int leaf = 0; leaf < leaves; ++leaf) {
    auto& list = group_in[0][leaf / r];
    if (!hybrid) {
      for (int q = 0; q < ni; ++q) list.push_back({node_source(leaf), q, everywhere});
      continue;
    }
    // The cluster's first stage sends up, copies together, only for destinations outside the cluster.
    const DestRange outside{leaf * M, (leaf + 1) * M, true};
    for (long long i = 0; i < sh.cluster_routers[0]; ++i)
      for (int k = 0; k < d; ++k)
        list.push_back({cluster_first[leaf][0] + static_cast<int>(i), (r - 1) * d + k, outside});
  }

  // --- up routers: crossovers and up ---
  for (int lvl = 0; lvl < K; ++lvl) {
    const int g = c * lvl + 1;
    const long long U = sh.up_routers[lvl];
    for (long long G = 0; G < sh.groups[lvl]; ++G) {
      for (long long i = 0; i < U; ++i) {
        const RouterId id = up_first[lvl] + static_cast<RouterId>(G * U + i);
        for (int j = 0; j < r; ++j) {
          const bool up = j >= c;
          // Crossover j: the height-(g+j) subtree holding group G; up: the parent group, or the root.
          const int h = up ? L : std::min(g + j, L);
          const bool to_group = up && lvl + 1 < K;
          for (int k = 0; k < d; ++k) {
            if (to_group) {
              // The parent group holds the r^c level-p groups G / r^c * r^c ...
              group_in[lvl + 1][G / (sh.groups[lvl] / sh.groups[lvl + 1])].push_back(
                  {id, j * d + k, everywhere});
            } else {
              long long Q = G;
              for (int s = g; s < h; ++s) Q /= r;
              class_in[h][Q].push_back({id, j * d + k, subtree(h, Q)});
            }
          }
        }
      }
    }
  }

  // --- down routers: to the child classes; height 1 to the leaves ---
  std::vector<std::vector<Pending>> leaf_in(hybrid ? leaves : 0);
  for (int h = L; h >= 1; --h) {
    const long long C = sh.class_routers[h - 1];
    const int dh = sh.class_dilation[h - 1];
    for (long long Q = 0; Q < sh.classes[h - 1]; ++Q)
      for (long long i = 0; i < C; ++i) {
        const RouterId id = down_first[h] + static_cast<RouterId>(Q * C + i);
        for (int t = 0; t < r; ++t)
          for (int k = 0; k < dh; ++k) {
            const long long child = Q * r + t;
            if (h > 1)
              class_in[h - 1][child].push_back({id, t * dh + k, subtree(h - 1, child)});
            else if (!hybrid)
              b.deliver(id, t * dh + k, static_cast<int>(child));
            else
              leaf_in[child].push_back({id, t * dh + k, subtree(0, child)});
          }
      }
  }
  for (int lvl = 0; lvl < K; ++lvl)
    for (long long G = 0; G < sh.groups[lvl]; ++G)
      connect(b, group_in[lvl][G], up_first[lvl] + static_cast<int>(G * sh.up_routers[lvl]),
              sh.up_routers[lvl], 0);
  for (int h = 1; h <= L; ++h)
    for (long long Q = 0; Q < sh.classes[h - 1]; ++Q) {
      MPPNET_ASSERT(static_cast<long long>(class_in[h][Q].size()) == sh.class_inputs[h - 1],
                    "class wire count");
      connect(b, class_in[h][Q], down_first[h] + static_cast<int>(Q * sh.class_routers[h - 1]),
              sh.class_routers[h - 1], 0);
    }

  // --- hybrid clusters: nodes and tree into stage 1, then a multibutterfly per sub-cluster ---
  for (int cl = 0; cl < (hybrid ? leaves : 0); ++cl) {
    const long long C1 = sh.cluster_routers[0];
    MPPNET_ASSERT(static_cast<long long>(leaf_in[cl].size()) == C1 * d, "tree wires into a cluster");
    connect(b, leaf_in[cl], cluster_first[cl][0], C1, (r - 1) * d);
    std::vector<Pending> nodes_in;
    for (NodeId x = cl * M; x < (cl + 1) * M; ++x)
      for (int q = 0; q < ni; ++q) nodes_in.push_back({node_source(x), q, everywhere});
    connect(b, nodes_in, cluster_first[cl][0], C1, 0);
    // Class Q of stage k (k >= 1, 0-based) covers nodes span_k*Q.. of the cluster.
    for (int k = 0; k + 1 < cs; ++k) {
      const long long C = sh.cluster_routers[k], C1n = sh.cluster_routers[k + 1];
      const int dirs = k == 0 ? r - 1 : r;
      long long span1 = M / (r - 1);  // nodes per stage-(k+1) class
      for (int i = 1; i <= k; ++i) span1 /= r;
      std::vector<std::vector<Pending>> next(sh.cluster_classes[k + 1]);
      for (long long Q = 0; Q < sh.cluster_classes[k]; ++Q)
        for (long long i = 0; i < C; ++i)
          for (int j = 0; j < dirs; ++j)
            for (int kk = 0; kk < d; ++kk) {
              const long long Q1 = Q * dirs + j;
              const int lo = cl * M + static_cast<int>(Q1 * span1);
              next[Q1].push_back({cluster_first[cl][k] + static_cast<int>(Q * C + i), j * d + kk,
                                  DestRange{lo, lo + static_cast<int>(span1), false}});
            }
      for (long long Q1 = 0; Q1 < sh.cluster_classes[k + 1]; ++Q1)
        connect(b, next[Q1], cluster_first[cl][k + 1] + static_cast<int>(Q1 * C1n), C1n, 0);
    }
    const long long Cf = sh.cluster_routers[cs - 1];
    for (long long Q = 0; Q < sh.cluster_classes[cs - 1]; ++Q)
      for (long long i = 0; i < Cf; ++i)
        for (int t = 0; t < r; ++t)
          for (int k = 0; k < dF; ++k)
            b.deliver(cluster_first[cl][cs - 1] + static_cast<int>(Q * Cf + i), t * dF + k,
                      cl * M + static_cast<int>(Q * r + t));
  }
  return b.finish();
}

}  // namespace

NetworkGraph build_fat_tree(const MetroFatTreeParams& p) {
  MPPNET_ASSERT(check(p).empty(), "build_fat_tree of parameters that check() rejects");
  return build_tree(p, tree_shape(p), false, 0);
}

NetworkGraph build_fat_tree(const HybridFatTreeParams& p) {
  MPPNET_ASSERT(check(p).empty(), "build_fat_tree of parameters that check() rejects");
  return build_tree(p, tree_shape(p), true, p.cluster_stages);
}

}  // namespace mppnet::machines::metro
