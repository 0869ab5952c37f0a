// topo/fat_tree.cpp: fat trees: checks, sizes, the graph builder (wiring in topo/fat_tree.hpp) and
// up/down least-common-ancestor routing.
#include "topo/fat_tree.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

const TopologyKeys<FatTreeParams>& fat_tree_key_table() {
  // The ranges are the topology's own limits (kMaxChildren, kMaxParents), so `mppnet list keys` shows
  // what check() accepts.
  static const TopologyKeys<FatTreeParams> keys({
      io::key("n", &FatTreeParams::n, io::in_range(1, 24), "levels (nodes = children^n)"),
      io::key("children", &FatTreeParams::children, io::in_range(2, kMaxChildren), "down-links per router"),
      io::key("parents", &FatTreeParams::parents, io::in_range(1, kMaxParents),
              "parent links per router at levels 1, 2, ...; the last repeats; empty: children"),
      io::key("leaf_links", &FatTreeParams::leaf_links, io::in_range(1, 64),
              "network links per node (the CM-5 has 2)"),
      io::key("up_routing", &FatTreeParams::up_routing,
              io::one_of({"random_free", "deterministic", "random", "adaptive"}),
              "random_free: a parent with a free VC, at random; deterministic: from the destination's "
              "digits; random: any parent at random, load-blind; adaptive: the free parent with the most "
              "credits"),
  });
  return keys;
}

}  // namespace

FatTreeParams fat_tree_params(const TopologyParams& p) {
  return fat_tree_key_table().read(p);
}
TopologyParams topology_of(const FatTreeParams& p) {
  return fat_tree_key_table().write(kFatTreeTopology.name, p);
}
std::vector<TopologyKey> fat_tree_keys() {
  return fat_tree_key_table().list();
}

int parents_at_level(const FatTreeParams& p, int level) {
  MPPNET_ASSERT(level >= 1 && level <= p.n, "fat-tree level out of range");
  if (level == p.n) return 0;
  if (p.parents.empty()) return p.children;
  const std::size_t i = static_cast<std::size_t>(level - 1);
  return i < p.parents.size() ? p.parents[i] : p.parents.back();
}

FatTreeShape fat_tree_shape(const FatTreeParams& p) {
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

namespace {
std::string list_text(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
}  // namespace

void check_fat_tree(const TopologyParams& params, std::vector<Problem>& out) {
  const FatTreeParams p = fat_tree_params(params);
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
  check_node_count(fat_tree_node_count(params), "topology.n", what, out);
  if (out.size() != before) return;  // n is then small enough (c >= 2) for fat_tree_shape
  const long long routers = fat_tree_shape(p).routers();
  if (routers <= kMaxRouters) return;
  out.push_back({"topology.n", what + " with parents " + list_text(p.parents) +
                                   " and leaf_links = " + std::to_string(p.leaf_links) + " has " +
                                   count_text(routers) + " routers; at most " + std::to_string(kMaxRouters) +
                                   " (2^24) are supported; use fewer levels or parent links"});
}

long long fat_tree_node_count(const TopologyParams& params) {
  const FatTreeParams p = fat_tree_params(params);
  return saturating_pow(std::max(p.children, 0), std::max(p.n, 0));
}

long long fat_tree_port_count(const TopologyParams& params) {
  const FatTreeShape s = fat_tree_shape(params);  // as build_fat_tree numbers them
  long long ports = 0;
  for (int k = 1; k <= s.levels; ++k)
    ports = saturating_add(ports, saturating_mul(s.routers_at_level(k), s.children + s.parents[k]));
  return ports;
}

int fat_tree_max_router_hops(const TopologyParams& p) {
  return 2 * fat_tree_params(p).n - 1;
}

int fat_tree_min_vcs(const TopologyParams&) {
  return 1;
}
const char* fat_tree_min_vcs_reason(const TopologyParams&) {
  return nullptr;
}

Routing fat_tree_routing(const TopologyParams& p, const Graph& g, int vcs) {
  const FatTreeParams f = fat_tree_params(p);
  if (f.up_routing == UpRouting::Random) return Routing::bind(RandomUpRouting(f, g, vcs), vcs);
  return Routing::bind(UpDownRouting(f, g, vcs), vcs);
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

UpDownRouting::UpDownRouting(const FatTreeParams& p, const Graph& g, int vcs)
    : children_(p.children), up_routing_(p.up_routing), vcs_(vcs) {
  if (std::has_single_bit(static_cast<unsigned>(p.children)))
    child_shift_ = std::countr_zero(static_cast<unsigned>(p.children));
  const FatTreeShape shape = fat_tree_shape(p);
  MPPNET_ASSERT(shape.routers() == g.num_routers() && shape.nodes == g.num_nodes,
                "the graph was not built from these fat-tree parameters");
  pow_children_.assign(p.n + 1, 1);
  for (int k = 1; k <= p.n; ++k) pow_children_[k] = pow_children_[k - 1] * p.children;
  parents_.assign(shape.parents.begin(), shape.parents.end());
  level_.resize(g.num_routers());
  subtree_.resize(g.num_routers());
  for (int k = 1; k <= p.n; ++k) {
    for (long long r = shape.level_base[k]; r < shape.level_base[k + 1]; ++r) {
      level_[r] = k;
      subtree_[r] = static_cast<std::int32_t>((r - shape.level_base[k]) / shape.chips[k]);
    }
  }
}

RouteSet UpDownRouting::all_vcs(PortId port) const noexcept {
  return one_port(port, 0, vcs_ - 1);
}

// Up to the least common ancestor, then down along the unique path (note 000 §2.3.1, "route up to the
// LCA"; §2.3.2, "from any chip at level k the path to a given leaf is unique").
RouteSet UpDownRouting::route(RouterId router, PortId in_port, VcId, PacketHead& head) const noexcept {
  const int c = children_;
  const int k = level_[router];
  const NodeId dest = head.dest;
  if (child_shift_ >= 0) {  // the same, with shifts
    const std::int32_t below = dest >> (child_shift_ * (k - 1));
    if ((below >> child_shift_) == subtree_[router]) return all_vcs(below & (c - 1));
  } else {
    const std::int32_t below = dest / pow_children_[k - 1];  // dest's level-(k-1) subtree
    if (below / c == subtree_[router]) return all_vcs(below % c);
  }

  // The packet must climb. It can only have come up from a child: a packet that came down has already
  // passed its LCA (and the CM-5 chip never connects a parent input to a parent output, note 000 §2.3.3).
  MPPNET_ASSERT(in_port < c, "fat tree: a packet that came down from a parent would go up again");
  const int parents = parents_[k];
  MPPNET_ASSERT(parents > 0, "fat tree: the top level covers every node");
  if (up_routing_ == UpRouting::Deterministic) {
    // d-mod-k: parent c + (dest / c^(k-1)) % P(k), i.e. digit k-1 of dest when P(k) = c. The chip reached
    // at level k+1 is then chip * P(k) + that parent, a function of dest and the source's node link alone,
    // so all traffic for one destination converges on one path down, and the destinations outside a
    // subtree are spread evenly over its parents (exactly evenly when P(k) divides c, as in k-ary n-trees
    // and the CM-5 schedule [2, 2, 4]).
    return all_vcs(c + (dest / pow_children_[k - 1]) % parents);
  }
  // RandomFree, Adaptive (and Random, which RandomUpRouting narrows to one): every parent is legal; the
  // router draws among the free ones, or takes the one with the most credits (port_selection()).
  RouteSet rs = all_vcs(c);
  for (int p = 1; p < parents; ++p) rs.ports[p] = static_cast<std::int16_t>(c + p);
  rs.count = static_cast<std::uint8_t>(parents);
  return rs;
}

int UpDownRouting::router_hops(NodeId src, NodeId dest) const {
  int height = 1;  // a packet to itself still turns at level 1
  while (src / pow_children_[height] != dest / pow_children_[height]) ++height;
  return 2 * height - 1;
}

}  // namespace mppnet::topo
