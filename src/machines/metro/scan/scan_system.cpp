// machines/metro/scan/scan_system.cpp: gridded scan paths, bit-level scans, port selection, link tests.
#include "machines/metro/scan/scan_system.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::metro::scan {

std::vector<core::Problem> check(const ScanParams& p, int routers, int ports) {
  std::vector<core::Problem> out = check_sparse_code(p.check_bits);
  if (p.taps < 1 || p.taps > 2)
    out.push_back({"metro.scan.taps",
                   fmt::format("{} TAPs per router: the gridded paths of Fig 5.1 take 1 or 2", p.taps)});
  if (p.columns < 1 || p.columns > std::max(1, routers))
    out.push_back({"metro.scan.columns",
                   fmt::format("{} grid columns for {} routers: need 1..{}", p.columns, routers, routers)});
  if (ports > SparseCode::kMaxPorts)
    out.push_back({"metro.scan", fmt::format("routers of {} ports: the instruction's port field holds {}",
                                             ports, SparseCode::kMaxPorts)});
  if (p.segment_bits < 3 || p.segment_bits > 32)
    out.push_back(
        {"metro.scan.segment_bits",
         fmt::format("{} bits per boundary segment: need 3..32 (data, control, back-drop)", p.segment_bits)});
  return out;
}

ScanSystem::ScanSystem(const Multibutterfly& g, mrp::MrpNetwork* net, const ScanParams& p)
    : g_(&g), net_(net), params_(p), code_(p.check_bits) {
  const int R = g.routers();
  routers_.reserve(R);
  for (RouterId u = 0; u < R; ++u) {
    const int s = g.stage_of(u);
    routers_.emplace_back(g.inputs_per_router[s], g.outputs_per_router[s], p.segment_bits, p.taps, code_);
    select_image_.emplace_back(routers_.back().ports(), 1);
  }
  // The grid of Fig 5.1: rows through TAP 0, columns through TAP 1.
  const int C = p.columns, rows = (R + C - 1) / C;
  paths_.resize(static_cast<std::size_t>(rows) + (p.taps == 2 ? C : 0));
  path_of_.assign(static_cast<std::size_t>(R) * p.taps, -1);
  for (RouterId u = 0; u < R; ++u) {
    paths_[u / C].push_back({u, 0});
    path_of_[static_cast<std::size_t>(u) * p.taps] = u / C;
    if (p.taps == 2) {
      paths_[rows + u % C].push_back({u, 1});
      path_of_[static_cast<std::size_t>(u) * p.taps + 1] = rows + u % C;
    }
  }
  fault_.assign(paths_.size(), PathFault::None);
  // Link ends, paired off in the order the MRP network pairs them (mrp_network.cpp), so a LinkId names
  // the same wire in both models.
  const int node_links = g.nodes * g.params.node_inputs;
  const int links = node_links + g.out_first[R];
  ends_.assign(links, {});
  down_.assign(links, 0);
  up_.assign(links, 0);
  fp_first_.assign(R + 1, 0);
  for (RouterId u = 0; u < R; ++u) fp_first_[u + 1] = fp_first_[u] + g.inputs_per_router[g.stage_of(u)];
  in_link_.assign(fp_first_[R], -1);
  std::vector<std::uint8_t> used(g.out_first[R], 0);
  for (RouterId v = 0; v < R; ++v) {
    for (int k = 0; k < fp_first_[v + 1] - fp_first_[v]; ++k) {
      const WireEnd from = g.in[g.in_first[v] + k];
      if (is_node_source(from)) continue;
      const int ports_from = g.outputs_per_router[g.stage_of(from)];
      for (int port = 0; port < ports_from; ++port) {
        const int o = g.out_first[from] + port;
        if (g.out[o] != v || used[o]) continue;
        used[o] = 1;
        const LinkId l = node_links + o;
        ends_[l] = {from, g.inputs_per_router[g.stage_of(from)] + port, v, k};
        in_link_[fp_first_[v] + k] = l;
        break;
      }
    }
  }
  // Out of Test-Logic-Reset (where power-up leaves a TAP) into Run-Test/Idle, where every scan starts.
  for (RouterScan& r : routers_)
    for (int t = 0; t < p.taps; ++t) r.clock(t, false, false);
  for (RouterId u = 0; u < R; ++u) {
    routers_[u].set_io({
        .sense = [this, u](int port) { return sense(u, port); },
        .drive = [this, u](int port, std::uint32_t v) { drive(u, port, v); },
        .port_select_updated = [this, u] { apply_port_select(u); },
    });
  }
}

std::uint32_t ScanSystem::sense(RouterId u, int port) const {
  const int i = routers_[u].forward_ports();
  if (port < i) {
    const LinkId l = in_link_[fp_first_[u] + port];
    if (l < 0) return 0;  // a node's link: nodes have no boundary cells in this model
    // A flip fault on the wire inverts data bits of what crosses it toward the destination.
    const std::uint32_t data_mask = (std::uint32_t{1} << (params_.segment_bits - 2)) - 1;
    return down_[l] ^ (net_ != nullptr ? net_->pending_flip(l) & data_mask : 0);
  }
  const int node_links = g_->nodes * g_->params.node_inputs;
  return up_[node_links + g_->out_first[u] + (port - i)];
}

void ScanSystem::drive(RouterId u, int port, std::uint32_t value) {
  const int i = routers_[u].forward_ports();
  if (port < i) {
    const LinkId l = in_link_[fp_first_[u] + port];
    if (l >= 0) up_[l] = value;
    return;
  }
  down_[g_->nodes * g_->params.node_inputs + g_->out_first[u] + (port - i)] = value;
}

void ScanSystem::apply_port_select(RouterId u) {
  if (net_ == nullptr) return;
  const RouterScan& r = routers_[u];
  for (int p = 0; p < r.ports(); ++p) {
    const bool on = r.port_enabled(p);
    if (p < r.forward_ports()) {
      if (on)
        net_->select_forward(u, p);
      else
        net_->deselect_forward(u, p);
    } else {
      if (on)
        net_->select_backward(u, p - r.forward_ports());
      else
        net_->deselect_backward(u, p - r.forward_ports());
    }
  }
}

bool ScanSystem::clock_path(int p, bool tms, bool tdi) {
  ++tck_cycles_;
  const auto& members = paths_[p];
  if (fault_[p] == PathFault::TckStuck || members.empty()) return false;
  if (fault_[p] == PathFault::TdiStuck0) tdi = false;
  // Every TAP shifts what its upstream neighbour showed before the edge.
  std::vector<std::uint8_t> out(members.size());
  for (std::size_t k = 0; k < members.size(); ++k) out[k] = routers_[members[k].router].tdo(members[k].tap);
  for (std::size_t k = 0; k < members.size(); ++k)
    routers_[members[k].router].clock(members[k].tap, tms, k == 0 ? tdi : out[k - 1] != 0);
  return out.back() != 0;
}

void ScanSystem::reset_path(int p) {
  for (int k = 0; k < 5; ++k) clock_path(p, true, false);
  clock_path(p, false, false);
}

namespace {

// A scan's bit stream: the last member's bits go in first (they travel furthest).
std::vector<std::uint8_t> stream_of(const std::vector<std::vector<std::uint8_t>>& in) {
  std::vector<std::uint8_t> s;
  for (auto it = in.rbegin(); it != in.rend(); ++it) s.insert(s.end(), it->begin(), it->end());
  return s;
}

}  // namespace

std::vector<std::vector<std::uint8_t>> ScanSystem::shift(int p,
                                                         const std::vector<std::vector<std::uint8_t>>& in) {
  const std::vector<std::uint8_t> s = stream_of(in);
  std::vector<std::uint8_t> got(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) got[b] = clock_path(p, b + 1 == s.size(), s[b] != 0);
  clock_path(p, true, false);   // Exit1 -> Update
  clock_path(p, false, false);  // -> Run-Test/Idle
  std::vector<std::vector<std::uint8_t>> out(in.size());
  std::size_t at = 0;
  for (std::size_t k = in.size(); k-- > 0;) {
    out[k].assign(got.begin() + static_cast<std::ptrdiff_t>(at),
                  got.begin() + static_cast<std::ptrdiff_t>(at + in[k].size()));
    at += in[k].size();
  }
  return out;
}

std::vector<std::vector<std::uint8_t>> ScanSystem::scan_dr(int p,
                                                           const std::vector<std::vector<std::uint8_t>>& in) {
  MPPNET_ASSERT(in.size() == paths_[p].size(), "scan_dr: one register per member");
  // Run-Test/Idle -> Select-DR -> Capture-DR -> Shift-DR.
  for (bool tms : {true, false, false}) clock_path(p, tms, false);
  return shift(p, in);
}

std::vector<std::uint32_t> ScanSystem::scan_ir(int p, const std::vector<std::uint32_t>& words) {
  const int L = code_.length();
  std::vector<std::vector<std::uint8_t>> in(words.size());
  for (std::size_t k = 0; k < words.size(); ++k)
    for (int b = 0; b < L; ++b) in[k].push_back(static_cast<std::uint8_t>((words[k] >> b) & 1));
  // Run-Test/Idle -> Select-DR -> Select-IR -> Capture-IR -> Shift-IR.
  for (bool tms : {true, true, false, false}) clock_path(p, tms, false);
  const auto got = shift(p, in);
  std::vector<std::uint32_t> out(words.size(), 0);
  for (std::size_t k = 0; k < words.size(); ++k)
    for (int b = 0; b < L; ++b) out[k] |= static_cast<std::uint32_t>(got[k][b]) << b;
  return out;
}

std::vector<int> cut_off_by_path_pairs(ScanSystem& scan, int routers) {
  std::vector<int> cut_off;
  for (int p = 0; p < scan.paths(); ++p)
    for (int q = p + 1; q < scan.paths(); ++q) {
      scan.set_path_fault(p, PathFault::TckStuck);
      scan.set_path_fault(q, PathFault::TckStuck);
      int cut = 0;
      for (RouterId u = 0; u < routers; ++u) cut += scan.reachable_path(u) < 0 ? 1 : 0;
      cut_off.push_back(cut);
      scan.set_path_fault(p, PathFault::None);
      scan.set_path_fault(q, PathFault::None);
    }
  return cut_off;
}

bool ScanSystem::load(int p, RouterId u, Instruction in) {
  const auto& members = paths_[p];
  std::vector<std::uint32_t> words(members.size(), code_.encode({}, 1));
  int at = -1;
  for (std::size_t k = 0; k < members.size(); ++k)
    if (members[k].router == u) at = static_cast<int>(k);
  if (at < 0) return false;
  words[at] = code_.encode(in, routers_[u].ports());
  const std::vector<std::uint32_t> captured = scan_ir(p, words);
  return (captured[at] & 0b11) == 0b01;
}

namespace {

// A DR scan that exchanges `bits` with member `at` while every other member is in BYPASS.
std::vector<std::vector<std::uint8_t>> with_bypass(std::size_t members, std::size_t at,
                                                   const std::vector<std::uint8_t>& bits) {
  std::vector<std::vector<std::uint8_t>> in(members, std::vector<std::uint8_t>(1, 0));
  in[at] = bits;
  return in;
}

std::size_t member_index(const std::vector<ScanMember>& members, RouterId u) {
  for (std::size_t k = 0; k < members.size(); ++k)
    if (members[k].router == u) return k;
  return members.size();
}

}  // namespace

int ScanSystem::reachable_path(RouterId u) {
  for (int t = 0; t < params_.taps; ++t) {
    const int p = path_of(u, t);
    if (!load(p, u, {Opcode::PortSelect, 0})) continue;
    const std::size_t at = member_index(paths_[p], u);
    const auto out = scan_dr(p, with_bypass(paths_[p].size(), at, select_image_[u]));
    if (out[at] == select_image_[u]) return p;
  }
  return -1;
}

bool ScanSystem::set_port_enabled(RouterId u, int port, bool enabled) {
  const std::uint8_t before = select_image_[u][port];
  select_image_[u][port] = enabled ? 1 : 0;
  for (int t = 0; t < params_.taps; ++t) {
    const int p = path_of(u, t);
    if (!load(p, u, {Opcode::PortSelect, 0})) continue;
    const std::size_t at = member_index(paths_[p], u);
    scan_dr(p, with_bypass(paths_[p].size(), at, select_image_[u]));                   // write
    const auto out = scan_dr(p, with_bypass(paths_[p].size(), at, select_image_[u]));  // read back
    if (out[at] == select_image_[u]) return true;
  }
  select_image_[u][port] = before;
  return false;
}

int ScanSystem::ports_deselected() const {
  int n = 0;
  for (const RouterScan& r : routers_)
    for (int p = 0; p < r.ports(); ++p) n += r.port_enabled(p) ? 0 : 1;
  return n;
}

LinkTest ScanSystem::test_link(LinkId l) {
  const LinkEnds e = ends_[l];
  MPPNET_ASSERT(e.upper >= 0, "test_link: a link between two routers");
  LinkTest out;
  // Take the link out of service: no new connection is routed onto it, nothing arriving on it is heeded.
  if (!set_port_enabled(e.upper, e.upper_port, false) || !set_port_enabled(e.lower, e.lower_port, false))
    return out;
  const int pu = reachable_path(e.upper), pl = reachable_path(e.lower);
  if (pu < 0 || pl < 0) return out;
  // Both ends in PARTIAL_EXTEST of their own port; if they share a path, in one IR scan.
  auto load_ends = [&] {
    if (pu == pl) {
      std::vector<std::uint32_t> words(paths_[pu].size(), code_.encode({}, 1));
      words[member_index(paths_[pu], e.upper)] =
          code_.encode({Opcode::PartialExtest, e.upper_port}, routers_[e.upper].ports());
      words[member_index(paths_[pu], e.lower)] =
          code_.encode({Opcode::PartialExtest, e.lower_port}, routers_[e.lower].ports());
      scan_ir(pu, words);
      return;
    }
    load(pu, e.upper, {Opcode::PartialExtest, e.upper_port});
    load(pl, e.lower, {Opcode::PartialExtest, e.lower_port});
  };
  load_ends();
  out.reachable = true;
  const int n = params_.segment_bits;
  std::vector<std::uint32_t> patterns = {0, (std::uint32_t{1} << n) - 1};
  for (int b = 0; b < n; ++b) patterns.push_back(std::uint32_t{1} << b);
  for (int b = 0; b < n; ++b) patterns.push_back(((std::uint32_t{1} << n) - 1) ^ (std::uint32_t{1} << b));
  auto bits_of = [n](std::uint32_t v) {
    std::vector<std::uint8_t> b(n);
    for (int k = 0; k < n; ++k) b[k] = static_cast<std::uint8_t>((v >> k) & 1);
    return b;
  };
  auto value_of = [](const std::vector<std::uint8_t>& b) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < b.size(); ++k) v |= static_cast<std::uint32_t>(b[k] & 1) << k;
    return v;
  };
  // One direction: `from` drives each pattern (Update-DR), then `to` captures it (Capture-DR) and shifts
  // it out. On a shared path both ends are in the same scans: the driver is given its pattern again.
  auto run = [&](RouterId from, int pf, RouterId to, int pt) {
    for (const std::uint32_t pattern : patterns) {
      const std::size_t af = member_index(paths_[pf], from);
      std::vector<std::vector<std::uint8_t>> in(paths_[pf].size(), std::vector<std::uint8_t>(1, 0));
      in[af] = bits_of(pattern);
      if (pf == pt) in[member_index(paths_[pf], to)] = bits_of(0);
      scan_dr(pf, in);
      const std::size_t at = member_index(paths_[pt], to);
      std::vector<std::vector<std::uint8_t>> cap(paths_[pt].size(), std::vector<std::uint8_t>(1, 0));
      cap[at] = bits_of(0);
      if (pf == pt) cap[af] = bits_of(pattern);
      const auto got = scan_dr(pt, cap);
      ++out.patterns;
      if (value_of(got[at]) != pattern) ++out.mismatches;
    }
  };
  run(e.upper, pu, e.lower, pl);
  run(e.lower, pl, e.upper, pu);
  // Back to BYPASS: the segments return to the mission logic.
  load(pu, e.upper, {});
  load(pl, e.lower, {});
  return out;
}

}  // namespace mppnet::machines::metro::scan
