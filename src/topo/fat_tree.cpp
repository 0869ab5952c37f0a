// topo/fat_tree.cpp: fat-tree sizes and the graph builder (wiring in topo/fat_tree.hpp).
#include "topo/fat_tree.hpp"

#include "core/error.hpp"
#include "topo/saturating.hpp"

namespace mppnet::topo {

int parents_at_level(const TopologyParams& p, int level) {
  MPPNET_ASSERT(level >= 1 && level <= p.n, "fat-tree level out of range");
  if (level == p.n) return 0;
  if (p.parents.empty()) return p.children;
  const std::size_t i = static_cast<std::size_t>(level - 1);
  return i < p.parents.size() ? p.parents[i] : p.parents.back();
}

FatTreeShape fat_tree_shape(const TopologyParams& p) {
  MPPNET_ASSERT(p.children >= 2 && p.n >= 1 && p.n <= 64 && p.leaf_links >= 1,
                "fat-tree parameters were not checked");
  const int n = p.n;
  FatTreeShape s;
  s.children = p.children;
  s.levels = n;
  s.leaf_links = p.leaf_links;
  s.parents.assign(n + 1, 0);
  s.chips.assign(n + 1, 0);
  s.subtrees.assign(n + 1, 0);
  s.level_base.assign(n + 2, 0);
  s.nodes = saturating_pow(p.children, n);
  for (int k = 1; k <= n; ++k) s.parents[k] = parents_at_level(p, k);
  for (int k = 0; k <= n; ++k) s.subtrees[k] = saturating_pow(p.children, n - k);
  s.chips[1] = p.leaf_links;
  for (int k = 2; k <= n; ++k) s.chips[k] = saturating_mul(s.chips[k - 1], s.parents[k - 1]);
  for (int k = 1; k <= n; ++k) {
    s.level_base[k + 1] = saturating_add(s.level_base[k], saturating_mul(s.subtrees[k], s.chips[k]));
  }
  return s;
}

Graph build_fat_tree(const TopologyParams& p) {
  const FatTreeShape s = fat_tree_shape(p);
  MPPNET_ASSERT(s.routers() < (1LL << 28), "fat-tree size was not checked");
  const int c = s.children;
  const int n = s.levels;
  const int routers = static_cast<int>(s.routers());

  Graph g;
  g.num_nodes = static_cast<int>(s.nodes);
  g.links_per_node = s.leaf_links;
  g.port_base.resize(routers + 1);
  g.node_links.resize(static_cast<std::size_t>(g.num_nodes) * s.leaf_links);
  for (int k = 1; k <= n; ++k) {
    for (long long r = s.level_base[k]; r < s.level_base[k + 1]; ++r) {
      g.port_base[r + 1] = g.port_base[r] + c + s.parents[k];
    }
  }
  g.ports.resize(g.port_base[routers]);

  for (int k = 1; k <= n; ++k) {
    const long long chips = s.chips[k];
    for (long long sub = 0; sub < s.subtrees[k]; ++sub) {
      for (long long j = 0; j < chips; ++j) {
        const auto r = static_cast<RouterId>(s.level_base[k] + sub * chips + j);
        for (int cp = 0; cp < c; ++cp) {
          const long long child = sub * c + cp;  // child subtree, or node at level 1
          if (k == 1) {
            // Uplink j of node `child` is its node link j.
            const auto v = static_cast<NodeId>(child);
            g.ports[g.port_base[r] + cp] = {PeerKind::Node, v, static_cast<std::int32_t>(j)};
            g.node_links[static_cast<std::size_t>(v) * s.leaf_links + j] = {r, cp};
            continue;
          }
          // Uplink j of the level-(k-1) child subtree: chip j / P(k-1), parent port c + j % P(k-1).
          const int below = s.parents[k - 1];
          const auto lower = static_cast<RouterId>(s.level_base[k - 1] + child * s.chips[k - 1] + j / below);
          const auto lower_port = static_cast<PortId>(c + j % below);
          g.ports[g.port_base[r] + cp] = {PeerKind::Router, lower, lower_port};
          g.ports[g.port_base[lower] + lower_port] = {PeerKind::Router, r, cp};
        }
      }
    }
  }
  return g;
}

}  // namespace mppnet::topo
