// machines/metro/path_expansion.cpp: counting on-path wires stage by stage from every source.
#include "machines/metro/path_expansion.hpp"

#include <algorithm>
#include <limits>

namespace mppnet::machines::metro {

namespace {

// Outputs per direction of stage i (0-based, T stages): r*d at an extra stage, d_S at the last, else d.
long long copies(const MultibutterflyParams& p, int i) {
  const int T = p.stages + p.extra_stages;
  if (i < p.extra_stages) return static_cast<long long>(p.radix) * p.dilation;
  return i == T - 1 ? p.final_dilation : p.dilation;
}

}  // namespace

std::vector<long long> path_expansion_bound(const MultibutterflyParams& p) {
  // p_in(s) = ni * (product of the copies of stages 1..s-1) (Eq 3.2); p_out(s) = no * r^(T+1-s) (Eq 3.3)
  // for a routing stage, and at most no * r^S = N * ni, every wire of the stage, at an extra stage.
  const int T = p.stages + p.extra_stages;
  std::vector<long long> bound;
  for (int s = 1; s <= T + 1; ++s) {
    long long in = p.node_inputs, out = p.node_outputs;
    for (int i = 0; i < s - 1; ++i) in *= copies(p, i);
    for (int i = 0; i < std::min(p.stages, T + 1 - s); ++i) out *= p.radix;
    bound.push_back(std::min(in, out));
  }
  return bound;
}

long long total_paths_bound(const MultibutterflyParams& p) {
  long long t = p.node_inputs;
  for (int i = 0; i < p.stages + p.extra_stages; ++i) t *= copies(p, i);
  return t;
}

PathExpansion path_expansion(const Multibutterfly& net) {
  const int S = net.stages(), N = net.nodes, R = net.routers();
  PathExpansion pe;
  pe.bound = path_expansion_bound(net.params);
  pe.min.assign(S + 1, std::numeric_limits<int>::max());
  pe.max.assign(S + 1, 0);
  pe.mean.assign(S + 1, 0.0);
  pe.min_total_paths = std::numeric_limits<long long>::max();
  std::vector<long long> paths(R);
  std::vector<std::vector<int>> reached(S);  // per stage, per class: routers reached from x
  std::vector<long long> final_paths;        // per final class: paths from x
  std::vector<int> p(S + 1);
  for (NodeId x = 0; x < N; ++x) {
    std::fill(paths.begin(), paths.end(), 0);
    for (int q = 0; q < net.params.node_inputs; ++q)
      paths[net.node_in[static_cast<std::size_t>(x) * net.params.node_inputs + q]] += 1;
    for (RouterId u = 0; u < net.stage_first[S - 1]; ++u) {
      if (paths[u] == 0) continue;
      for (int o = net.out_first[u]; o < net.out_first[u + 1]; ++o) paths[net.out[o]] += paths[u];
    }
    int classes = 1;
    for (int s = 0; s < S; classes *= net.directions[s], ++s) {
      reached[s].assign(classes, 0);
      for (RouterId u = net.stage_first[s]; u < net.stage_first[s + 1]; ++u)
        if (paths[u] > 0) ++reached[s][(u - net.stage_first[s]) / net.class_size[s]];
    }
    final_paths.assign(classes / net.directions[S - 1], 0);
    for (RouterId u = net.stage_first[S - 1]; u < R; ++u)
      final_paths[(u - net.stage_first[S - 1]) / net.class_size[S - 1]] += paths[u] * net.copies[S - 1];
    for (NodeId y = 0; y < N; ++y) {
      p[0] = net.params.node_inputs;
      for (int s = 0; s < S; ++s) p[s + 1] = net.copies[s] * reached[s][y / net.reach_span(s)];
      bool at_bound = true;
      for (int s = 0; s <= S; ++s) {
        pe.min[s] = std::min(pe.min[s], p[s]);
        pe.max[s] = std::max(pe.max[s], p[s]);
        pe.mean[s] += p[s];
        at_bound = at_bound && p[s] == pe.bound[s];
      }
      pe.pairs_at_bound += at_bound ? 1 : 0;
      const long long total = final_paths[y / net.reach_span(S - 1)];
      pe.min_total_paths = std::min(pe.min_total_paths, total);
      pe.max_total_paths = std::max(pe.max_total_paths, total);
      ++pe.pairs;
    }
  }
  for (auto& m : pe.mean) m /= static_cast<double>(pe.pairs);
  return pe;
}

}  // namespace mppnet::machines::metro
