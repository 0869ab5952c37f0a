// machines/metro/scan/reconfigure.cpp: dead ends, connectivity over the masks, propagation (§5.5.2).
#include "machines/metro/scan/reconfigure.hpp"

#include <bit>

#include "machines/metro/scan/scan_system.hpp"

namespace mppnet::machines::metro::scan {

namespace {

// Per router, the nodes it still reaches (bit sets of N bits), computed from the last stage back.
std::vector<std::uint64_t> reach_sets(const Multibutterfly& g, const NetworkMasks& m, int words) {
  const int S = g.stages();
  std::vector<std::uint64_t> reach(static_cast<std::size_t>(g.routers()) * words, 0);
  for (int s = S - 1; s >= 0; --s) {
    for (RouterId u = g.stage_first[s]; u < g.stage_first[s + 1]; ++u) {
      if (m.router[u]) continue;
      std::uint64_t* into = &reach[static_cast<std::size_t>(u) * words];
      for (int port = 0; port < g.outputs_per_router[s]; ++port) {
        const int o = g.out_first[u] + port;
        if (m.output[o]) continue;
        const int to = g.out[o];
        if (s == S - 1) {
          into[to / 64] |= std::uint64_t{1} << (to % 64);
        } else if (!m.router[to]) {
          const std::uint64_t* from = &reach[static_cast<std::size_t>(to) * words];
          for (int w = 0; w < words; ++w) into[w] |= from[w];
        }
      }
    }
  }
  return reach;
}

// Ordered pairs (x, y) with a path from x to y.
long long connected_pairs(const Multibutterfly& g, const NetworkMasks& m) {
  const int words = (g.nodes + 63) / 64, ni = g.params.node_inputs;
  const std::vector<std::uint64_t> reach = reach_sets(g, m, words);
  long long pairs = 0;
  std::vector<std::uint64_t> any(words);
  for (NodeId x = 0; x < g.nodes; ++x) {
    std::fill(any.begin(), any.end(), 0);
    for (int q = 0; q < ni; ++q) {
      const RouterId u = g.node_in[static_cast<std::size_t>(x) * ni + q];
      if (m.router[u]) continue;
      for (int w = 0; w < words; ++w) any[w] |= reach[static_cast<std::size_t>(u) * words + w];
    }
    for (int w = 0; w < words; ++w) pairs += std::popcount(any[w]);
  }
  return pairs;
}

}  // namespace

bool is_dead_end(const Multibutterfly& g, const NetworkMasks& m, RouterId u) {
  const int s = g.stage_of(u);
  if (s == g.stages() - 1) return false;
  const int dirs = g.directions[s], d = g.copies[s];
  for (int j = 0; j < dirs; ++j) {
    bool some = false;
    for (int k = 0; k < d && !some; ++k) {
      const int o = g.out_first[u] + j * d + k;
      some = !m.output[o] && !m.router[g.out[o]];
    }
    if (!some) return true;
  }
  return false;
}

bool all_pairs_connected(const Multibutterfly& g, const NetworkMasks& m) {
  return connected_pairs(g, m) == static_cast<long long>(g.nodes) * g.nodes;
}

ReconfigureResult propagate(const Multibutterfly& g, NetworkMasks& m, ReconfigureMode mode) {
  ReconfigureResult res;
  // Yield: a mask may not cost a single pair that is connected now.
  const long long pairs = mode == ReconfigureMode::Yield ? connected_pairs(g, m) : 0;
  for (int s = g.stages() - 2; s >= 0; --s) {
    for (RouterId u = g.stage_first[s]; u < g.stage_first[s + 1]; ++u) {
      if (m.router[u] || !is_dead_end(g, m, u)) continue;
      m.router[u] = 1;
      if (mode == ReconfigureMode::Yield && connected_pairs(g, m) < pairs) {
        m.router[u] = 0;
        res.refused.push_back(u);
        continue;
      }
      res.masked.push_back(u);
    }
  }
  // Cut off: no unmasked stage-1 router to enter by, or no unmasked final router to leave by.
  const int ni = g.params.node_inputs, S = g.stages(), r = g.params.radix;
  for (NodeId x = 0; x < g.nodes; ++x) {
    bool in = false, out = false;
    for (int q = 0; q < ni; ++q) in = in || !m.router[g.node_in[static_cast<std::size_t>(x) * ni + q]];
    for (int i = 0; i < g.class_size[S - 1]; ++i) out = out || !m.router[g.router_id(S - 1, x / r, i)];
    if (!in || !out) res.cut_off.push_back(x);
  }
  res.complete = all_pairs_connected(g, m);
  return res;
}

int apply_masks(const Multibutterfly& g, const NetworkMasks& m, ScanSystem& scan) {
  int unreachable = 0;
  auto off = [&](RouterId u, int port) {
    if (scan.port_enabled(u, port) && !scan.set_port_enabled(u, port, false)) ++unreachable;
  };
  const int node_links = g.nodes * g.params.node_inputs;
  for (LinkId l = node_links; l < node_links + static_cast<LinkId>(g.out.size()); ++l) {
    const ScanSystem::LinkEnds e = scan.ends(l);
    if (e.upper < 0) continue;
    if (m.output[l - node_links] || m.router[e.upper] || m.router[e.lower]) {
      off(e.upper, e.upper_port);
      off(e.lower, e.lower_port);
    }
  }
  for (RouterId u = 0; u < g.routers(); ++u)
    if (m.router[u])
      for (int p = 0; p < scan.router(u).ports(); ++p) off(u, p);
  return unreachable;
}

}  // namespace mppnet::machines::metro::scan
