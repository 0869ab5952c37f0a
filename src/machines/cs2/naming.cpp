// machines/cs2/naming.cpp: Meiko's names and route strings (naming.hpp).
#include "machines/cs2/naming.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace mppnet::machines::cs2 {

namespace {

// Digits of x from position hi down to lo, dot-separated.
std::string digits(const LayerShape& shape, std::int64_t x, int hi, int lo) {
  std::string s;
  for (int pos = hi; pos >= lo; --pos) {
    if (!s.empty()) s += '.';
    s += std::to_string(shape.digit(x, pos));
  }
  return s.empty() ? "-" : s;
}

}  // namespace

std::string pe_route_string(const LayerShape& shape, std::int64_t x) {
  return digits(shape, x, shape.stages() - 1, 0);
}

std::string switch_route_string(const LayerShape& shape, const SwitchId& s) {
  // The switch's identifier P is x >> 2st for every PE x below it: its route is x's digits above st.
  return digits(shape, s.P << (2 * s.st), shape.stages() - 1, s.st);
}

std::string pe_name(const LayerShape& shape, std::int64_t x) {
  std::string name =
      fmt::format("PE {}: level {}, network id {}, route {}", x, shape.size(), x, pe_route_string(shape, x));
  if (shape.back_to_back()) name += fmt::format(", half {}", shape.half(x));
  return name;
}

std::string switch_name(const LayerShape& shape, int layer, const SwitchId& s) {
  std::string name = fmt::format("layer {} stage {} (level {}) network id {} (route {}) plane {}", layer,
                                 s.st, shape.level(s.st), s.P, switch_route_string(shape, s), s.Q);
  if (shape.back_to_back() && s.st == shape.stages()) name += fmt::format(", half {}", s.P);
  return name;
}

std::vector<LevelCounts> level_counts(const LayerShape& shape, const topo::Graph& g) {
  const int routers = g.num_routers();
  // Stage: breadth-first from the switches that hold a PE.
  std::vector<int> stage(routers, 0);
  std::vector<RouterId> frontier;
  for (const topo::NodeLink& l : g.node_links)
    if (stage[l.router] == 0) {
      stage[l.router] = 1;
      frontier.push_back(l.router);
    }
  for (int st = 1; !frontier.empty(); ++st) {
    std::vector<RouterId> next;
    for (const RouterId r : frontier)
      for (int p = 0; p < g.num_ports(r); ++p) {
        const topo::PortLink& link = g.link(r, p);
        if (link.kind != topo::PeerKind::Router || stage[link.peer] != 0) continue;
        stage[link.peer] = st + 1;
        next.push_back(link.peer);
      }
    frontier = std::move(next);
  }
  // The PEs below each switch, as [lowest, highest] (subtrees are aligned ranges), stage by stage upwards.
  std::vector<std::int64_t> low(routers, INT64_MAX), high(routers, -1);
  int top = 0;
  for (RouterId r = 0; r < routers; ++r) top = std::max(top, stage[r]);
  for (int st = 1; st <= top; ++st)
    for (RouterId r = 0; r < routers; ++r) {
      if (stage[r] != st) continue;
      for (int p = 0; p < g.num_ports(r); ++p) {
        const topo::PortLink& link = g.link(r, p);
        if (link.kind == topo::PeerKind::Node) {
          low[r] = std::min<std::int64_t>(low[r], link.peer);
          high[r] = std::max<std::int64_t>(high[r], link.peer);
        } else if (link.kind == topo::PeerKind::Router && stage[link.peer] == st - 1) {
          low[r] = std::min(low[r], low[link.peer]);
          high[r] = std::max(high[r], high[link.peer]);
        }
      }
    }
  std::vector<LevelCounts> rows;
  for (int st = top; st >= 1; --st) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> sharing;  // PEs below -> switches
    for (RouterId r = 0; r < routers; ++r)
      if (stage[r] == st) ++sharing[{low[r], high[r]}];
    LevelCounts row{.level = shape.level(st)};
    for (const auto& [below, n] : sharing) {
      row.switches += n;
      row.planes = std::max(row.planes, n);
    }
    row.identifiers = static_cast<std::int64_t>(sharing.size());
    rows.push_back(row);
  }
  return rows;
}

int naming_formula_violations(const LayerShape& shape, const topo::Graph& g) {
  int bad = 0;
  const int size = shape.size();
  for (const LevelCounts& row : level_counts(shape, g)) {
    const bool ok = row.switches == std::int64_t{1} << (size - 2) &&
                    row.identifiers == std::int64_t{1} << row.level &&
                    row.planes == std::int64_t{1} << (size - row.level - 2);
    bad += ok ? 0 : 1;
  }
  return bad;
}

}  // namespace mppnet::machines::cs2
