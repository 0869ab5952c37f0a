// machines/metro/fat_tree.cpp: the sizes of fat trees and hybrid fat trees, and their checks.
#include "machines/metro/fat_tree.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "machines/metro/sizes.hpp"

namespace mppnet::machines::metro {

namespace {

// Sizes of a tree being checked saturate here: they are only compared against limits below it.
constexpr long long kBig = kMaxNodes * 1024;

// The two trees differ only in their leaves, so shape and check are written once for both: `hybrid` says
// which, and `cs` is the hybrid's cluster stages (unused for a fat tree).
TreeShape shape_of(const MetroTreeParams& p, bool hybrid, int cs, long long nodes) {
  TreeShape sh;
  const int r = p.radix, d = p.dilation, L = p.stages, u = p.up_directions, c = r - u;
  sh.nodes = nodes;
  sh.leaves = capped_pow(r, L, kBig);
  sh.leaf_nodes = hybrid ? (r - 1) * capped_pow(r, cs - 1, kBig) : 1;
  sh.leaf_ports = hybrid ? capped_pow(r, cs - 1, kBig) * p.node_inputs : p.node_inputs;
  sh.heights_per_level = c;
  sh.up_levels = (L + c - 1) / c;
  // Up levels: a level-1 group takes the wires of r leaves; a level-(p+1) group those of the r^c
  // level-p groups under it, each sending I_p * u / r wires up.
  long long inputs = r * sh.leaf_ports;
  for (int lvl = 0; lvl < sh.up_levels; ++lvl) {
    sh.group_inputs.push_back(inputs);
    sh.up_routers.push_back(inputs / (r * d));
    sh.groups.push_back(sh.leaves / capped_pow(r, c * lvl + 1, kBig));
    inputs = std::min(kBig, capped_pow(r, c, kBig) * (inputs / (r * d)) * u * d);
  }
  // Crossovers into height h: from the level whose heights include h, one direction per target height
  // (heights above L fold into L), plus the top level's up directions turning around into L.
  std::vector<long long> crossover(L + 1, 0);
  for (int lvl = 0; lvl < sh.up_levels; ++lvl) {
    const int g = c * lvl + 1;
    const long long per_direction = sh.up_routers[lvl] * d;  // wires per group and direction
    for (int j = 0; j < c; ++j) {
      const int h = std::min(g + j, L);
      crossover[h] += capped_pow(r, h - g, kBig) * per_direction;
    }
    if (lvl == sh.up_levels - 1) crossover[L] += capped_pow(r, L - g, kBig) * per_direction * u;
  }
  sh.class_inputs.assign(L, 0);
  sh.class_routers.assign(L, 0);
  sh.classes.assign(L, 0);
  sh.class_dilation.assign(L, d);
  if (!hybrid) sh.class_dilation[0] = p.final_dilation;
  for (int h = L; h >= 1; --h) {
    const long long from_parent = h < L ? static_cast<long long>(d) * sh.class_routers[h] : 0;
    const long long D = from_parent + crossover[h];
    const long long ports = static_cast<long long>(r) * sh.class_dilation[h - 1];
    sh.class_inputs[h - 1] = D;
    sh.class_routers[h - 1] = D % ports == 0 ? D / ports : 0;
    sh.classes[h - 1] = sh.leaves / capped_pow(r, h, kBig);
  }
  if (hybrid) {
    // Stage 1: the whole cluster; stage k >= 2: (r-1)*r^(k-2) classes of r^(cs-k+1) nodes.
    sh.cluster_routers.push_back(capped_pow(r, cs - 1, kBig) * p.node_inputs / d);
    sh.cluster_classes.push_back(1);
    for (int k = 2; k <= cs; ++k) {
      sh.cluster_routers.push_back(k < cs ? capped_pow(r, cs - k, kBig) * p.node_inputs / d
                                          : p.node_outputs / p.final_dilation);
      sh.cluster_classes.push_back((r - 1) * capped_pow(r, k - 2, kBig));
    }
  }
  return sh;
}

// Every reason the tree cannot be built. A tree has no extra stages and only the deterministic wiring:
// those keys belong to the multibutterfly, and check_metro() rejects them for a tree.
std::vector<Problem> check_tree(const MetroTreeParams& p, bool hybrid, int cs, long long nodes) {
  std::vector<Problem> out;
  auto bad = [&](const char* key, std::string reason) { out.push_back({key, std::move(reason)}); };
  const char* name = hybrid ? "a hybrid fat tree" : "a fat tree";
  if (p.radix < 2 || p.radix > 64)
    bad("metro.radix", fmt::format("must be between 2 and 64 (got {})", p.radix));
  if (p.dilation < 1 || p.dilation > 16)
    bad("metro.dilation", fmt::format("must be between 1 and 16 (got {})", p.dilation));
  if (p.stages < 1)
    bad("metro.stages", fmt::format("{} needs at least 1 tree level (got {})", name, p.stages));
  if (p.node_inputs < 1 || p.node_inputs > 16)
    bad("metro.node_inputs", fmt::format("must be between 1 and 16 (got {})", p.node_inputs));
  if (p.final_dilation < 1 || p.final_dilation > 16)
    bad("metro.final_dilation", fmt::format("must be between 1 and 16 (got {})", p.final_dilation));
  if (!out.empty()) return out;
  if (p.up_directions < 1 || p.up_directions > p.radix - 1)
    bad("metro.up_directions",
        fmt::format("must be between 1 and radix - 1 = {}: an up router needs a way up and at least one "
                    "crossover (got {})",
                    p.radix - 1, p.up_directions));
  if (hybrid && (cs < 2 || cs > 12))
    bad("metro.cluster_stages",
        fmt::format("must be between 2 and 12: the first cluster stage and at least one stage inside the "
                    "cluster (got {})",
                    cs));
  if (p.node_inputs != p.node_outputs)
    bad("metro.node_outputs",
        fmt::format("must equal metro.node_inputs with square routers: {} inputs but {} outputs",
                    p.node_inputs, p.node_outputs));
  if (p.node_inputs % p.dilation != 0)
    bad("metro.node_inputs",
        fmt::format("{} needs node_inputs to be a multiple of the dilation {} (c_l is a multiple of d, "
                    "§7.5.3), so that the routers taking the leaves' wires are whole (got {})",
                    name, p.dilation, p.node_inputs));
  if (p.node_outputs % p.final_dilation != 0)
    bad("metro.final_dilation",
        fmt::format("must divide node_outputs = {} so that the last stage has whole routers per class "
                    "(got {})",
                    p.node_outputs, p.final_dilation));
  if (!out.empty()) return out;
  if (nodes > kMaxNodes) {
    bad("metro.stages", fmt::format("{} nodes is more than the limit of {}", nodes, kMaxNodes));
    return out;
  }
  const TreeShape sh = shape_of(p, hybrid, cs, nodes);
  for (int h = p.stages; h >= 1; --h) {
    if (sh.class_routers[h - 1] > 0) continue;
    bad(h == 1 && !hybrid ? "metro.final_dilation" : "metro.up_directions",
        fmt::format("height {}: a class takes {} wires, not a multiple of the {} inputs of its routers", h,
                    sh.class_inputs[h - 1], p.radix * sh.class_dilation[h - 1]));
    return out;
  }
  return out;
}

}  // namespace

long long network_nodes(const MetroNetworkParams& p) {
  if (p.radix < 2 || p.stages < 0) return 0;
  return capped_pow(p.radix, p.stages, kBig);
}
long long network_nodes(const HybridFatTreeParams& p) {
  if (p.radix < 2 || p.stages < 0) return 0;
  return std::min(kBig, (p.radix - 1) * capped_pow(p.radix, p.cluster_stages - 1 + p.stages, kBig));
}

TreeShape tree_shape(const MetroFatTreeParams& p) {
  return shape_of(p, false, 0, network_nodes(p));
}
TreeShape tree_shape(const HybridFatTreeParams& p) {
  return shape_of(p, true, p.cluster_stages, network_nodes(p));
}

std::vector<Problem> check(const MetroFatTreeParams& p) {
  return check_tree(p, false, 0, network_nodes(p));
}
std::vector<Problem> check(const HybridFatTreeParams& p) {
  return check_tree(p, true, p.cluster_stages, network_nodes(p));
}

std::string describe(const MetroFatTreeParams& p) {
  return fmt::format("fat_tree r={} d={} levels={} ni={} no={} up_directions={} final_dilation={} nodes={}",
                     p.radix, p.dilation, p.stages, p.node_inputs, p.node_outputs, p.up_directions,
                     p.final_dilation, network_nodes(p));
}
std::string describe(const HybridFatTreeParams& p) {
  return fmt::format(
      "hybrid_fat_tree r={} d={} levels={} ni={} no={} up_directions={} cluster_stages={} final_dilation={} "
      "nodes={}",
      p.radix, p.dilation, p.stages, p.node_inputs, p.node_outputs, p.up_directions, p.cluster_stages,
      p.final_dilation, network_nodes(p));
}

}  // namespace mppnet::machines::metro
