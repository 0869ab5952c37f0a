// machines/metro/scan/localise.cpp: suspects from checksums, verification by partial-external scan.
#include "machines/metro/scan/localise.hpp"

#include <algorithm>
#include <map>

namespace mppnet::machines::metro::scan {

namespace {

// Router u can still deliver to node y: its equivalence class is y's prefix.
bool leads_to(const Multibutterfly& g, RouterId u, NodeId y) {
  const int s = g.stage_of(u);
  return g.class_of(u) == y / g.reach_span(s);
}

}  // namespace

std::vector<LinkSuspect> link_suspects(const Multibutterfly& g, const std::vector<mrp::Attempt>& attempts) {
  const int node_links = g.nodes * g.params.node_inputs, ni = g.params.node_inputs;
  std::map<LinkId, int> evidence;
  for (const mrp::Attempt& a : attempts) {
    const int k = a.first_mismatch_stage;  // 1-based router stage
    if (a.outcome != mrp::Outcome::Corrupted || k < 2 || a.pairs < k - 1) continue;
    // Walk the path the STATUS words give, from the network input to the router before stage k.
    RouterId u = g.node_in[static_cast<std::size_t>(a.source) * ni + a.input];
    int link = -1;
    for (int s = 0; s + 1 < k && u >= 0; ++s) {
      const int copy = static_cast<int>((a.copies >> (4 * s)) & 0xF), d = g.copies[s];
      RouterId next = -1;
      for (int j = 0; j < g.directions[s] && next < 0; ++j) {
        const int o = g.out_first[u] + j * d + copy;
        if (copy < d && leads_to(g, g.out[o], a.destination)) {
          next = g.out[o];
          link = node_links + o;
        }
      }
      u = next;
    }
    if (u >= 0 && link >= 0) ++evidence[link];
  }
  std::vector<LinkSuspect> out;
  for (const auto& [l, n] : evidence) out.push_back({l, n});
  std::stable_sort(out.begin(), out.end(),
                   [](const LinkSuspect& a, const LinkSuspect& b) { return a.evidence > b.evidence; });
  return out;
}

Localisation localise_links(const Multibutterfly& g, ScanSystem& scan,
                            const std::vector<mrp::Attempt>& attempts, int min_evidence) {
  Localisation res;
  res.suspects = link_suspects(g, attempts);
  const std::int64_t start = scan.tck_cycles();
  for (const LinkSuspect& s : res.suspects) {
    if (s.evidence < min_evidence) continue;
    const int before = scan.ports_deselected();
    const LinkTest t = scan.test_link(s.link);
    res.tested.push_back(s.link);
    res.max_ports_out = std::max(res.max_ports_out, scan.ports_deselected() - before);
    if (t.reachable && t.mismatches > 0) {
      res.faulty.push_back(s.link);
      continue;
    }
    // Passed (a transient, congestion, or a fault elsewhere on the path): back into service.
    const ScanSystem::LinkEnds e = scan.ends(s.link);
    scan.set_port_enabled(e.upper, e.upper_port, true);
    scan.set_port_enabled(e.lower, e.lower_port, true);
  }
  res.tck_cycles = scan.tck_cycles() - start;
  return res;
}

}  // namespace mppnet::machines::metro::scan
