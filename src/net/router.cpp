// net/router.cpp: one cycle of an input-queued VC router: route, VC allocation, switch allocation.
//
// Both allocators are separable with round-robin priority. Input-first: every input picks one request,
// then every output picks one of the requests it got. Output-first: every output picks one requester,
// then every input accepts one of the grants it got. A request decided in a cycle sees only the state
// at the start of that cycle's allocation (grants are applied afterwards), which is what makes them
// separable rather than sequential.
#include <algorithm>

#include "net/network.hpp"

namespace mppnet::net {

namespace {
// Distance from `pointer` to `x` going round a ring of `n`: the round-robin priority (0 is highest).
inline int rr_distance(int x, int pointer, int n) {
  int d = x - pointer;
  return d < 0 ? d + n : d;
}
}  // namespace

void Network::route_front(RouterId r, int ivc_local) {
  const std::int32_t g = graph_.port_base[r] * vcs_ + ivc_local;
  const Flit& f = buffer_[static_cast<std::size_t>(g) * depth_ + buf_head_[g]];
  MPPNET_ASSERT(f.head, "a body flit reached the front of an unrouted VC");
  const topo::RouteSet rs = routing_.route(r, ivc_local / vcs_, ivc_local % vcs_, packets_[f.packet].dest);
  MPPNET_ASSERT(rs.count > 0, "routing returned no candidate port");
  ivc_route_[g] = rs;
  InputVcState& s = ivc_state_[g];
  s.routed = true;
  s.out_port = rs.count == 1 ? rs.ports[0] : -1;
  s.out_vc = -1;
}

bool Network::output_vc_usable(std::int32_t ovc, const Packet& p) const {
  if (ovc_owner_[ovc] >= 0) return false;
  // Cut-through and store-and-forward take a VC only when the next buffer can hold the whole packet.
  return params_.switching == Switching::Wormhole || ovc_credits_[ovc] >= p.flits;
}

bool Network::can_advance(RouterId r, int i) const {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t g = base * vcs_ + i;
  if (buf_count_[g] == 0 || scratch_c_[i] >= 0) return false;
  const InputVcState& s = ivc_state_[g];
  if (s.out_vc < 0) return false;
  if (ovc_credits_[(base + s.out_port) * vcs_ + s.out_vc] == 0) return false;
  if (outq_cap_ > 0 && outq_count_[base + s.out_port] >= outq_cap_) return false;
  if (params_.switching == Switching::StoreAndForward) {
    const Flit& f = buffer_[static_cast<std::size_t>(g) * depth_ + buf_head_[g]];
    if (f.head && buf_count_[g] < packets_[f.packet].flits) return false;
  }
  return true;
}

void Network::allocate_vcs(RouterId r) {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t ivc0 = base * vcs_;
  const int n = graph_.num_ports(r) * vcs_;
  const int rr = va_rr_[r] % n;
  std::int32_t* claim = scratch_a_.data();  // output VC (local) -> winning input VC (local), or -1
  std::fill_n(claim, n, -1);
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;

  for (int k = 0; k < n; ++k) {
    const int i = rr + k < n ? rr + k : rr + k - n;
    const std::int32_t g = ivc0 + i;
    if (buf_count_[g] == 0) continue;
    const InputVcState& s = ivc_state_[g];
    if (!s.routed || s.out_vc >= 0) continue;
    const Packet& pk = packets_[buffer_[static_cast<std::size_t>(g) * depth_ + buf_head_[g]].packet];
    const topo::RouteSet& rs = ivc_route_[g];
    if (input_first) {
      // Input stage: one request, to a port chosen at random among candidates that have a usable VC.
      int options[topo::kMaxRouteCandidates];
      int count = 0;
      for (int c = 0; c < rs.count; ++c) {
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (!output_vc_usable(ivc0 + ol, pk)) continue;
          options[count++] = ol;
          break;
        }
      }
      if (count == 0) continue;
      const int ol = options[count > 1 ? router_rng_[r].below(count) : 0];
      // Output stage: the first requester in round-robin order wins the output VC.
      if (claim[ol] < 0) claim[ol] = i;
    } else {
      // Output stage first: every usable output VC this input may use is granted to the first
      // requester in round-robin order.
      for (int c = 0; c < rs.count; ++c) {
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (claim[ol] < 0 && output_vc_usable(ivc0 + ol, pk)) claim[ol] = i;
        }
      }
    }
  }

  if (!input_first) {
    // Input stage: each input accepts one of its grants, at random among them (an adaptive choice of
    // port when the grants are on several ports); the other grants lapse this cycle.
    std::int32_t* grants = scratch_b_.data();  // input VC (local) -> number of grants
    std::fill_n(grants, n, 0);
    for (int ol = 0; ol < n; ++ol)
      if (claim[ol] >= 0) ++grants[claim[ol]];
    for (int i = 0; i < n; ++i) {
      if (grants[i] == 0) continue;
      const int keep = grants[i] > 1 ? static_cast<int>(router_rng_[r].below(grants[i])) : 0;
      int seen = 0;
      for (int ol = 0; ol < n; ++ol) {
        if (claim[ol] != i) continue;
        if (seen++ != keep) claim[ol] = -1;
      }
    }
  }

  int first = -1;
  for (int ol = 0; ol < n; ++ol) {
    const int i = claim[ol];
    if (i < 0) continue;
    InputVcState& s = ivc_state_[ivc0 + i];
    s.out_port = static_cast<std::int16_t>(ol / vcs_);
    s.out_vc = static_cast<std::int16_t>(ol % vcs_);
    ovc_owner_[ivc0 + ol] = i;
    if (first < 0 || rr_distance(i, rr, n) < rr_distance(first, rr, n)) first = i;
  }
  if (first >= 0) va_rr_[r] = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
}

int Network::allocate_switch(RouterId r, int round) {
  (void)round;
  const std::int32_t base = graph_.port_base[r];
  const int ports = graph_.num_ports(r);
  const int n = ports * vcs_;
  std::int32_t* winner = scratch_a_.data();  // output port -> winning input VC (local), or -1
  std::fill_n(winner, ports, -1);

  if (params_.allocator == AllocatorKind::InputFirst) {
    // Input stage: each input port requests for its first eligible VC after its pointer.
    for (int p = 0; p < ports; ++p) {
      const int start = sa_in_rr_[base + p];
      for (int k = 0; k < vcs_; ++k) {
        const int vc = start + k < vcs_ ? start + k : start + k - vcs_;
        const int i = p * vcs_ + vc;
        if (!can_advance(r, i)) continue;
        // Output stage: the requesting input port nearest after the output's pointer wins.
        const int o = ivc_state_[base * vcs_ + i].out_port;
        const int w = winner[o];
        if (w < 0 || rr_distance(p, sa_out_rr_[base + o], ports) < rr_distance(w / vcs_, sa_out_rr_[base + o], ports))
          winner[o] = i;
        break;
      }
    }
  } else {
    // Output stage: each output grants the eligible input VC nearest after its pointer.
    for (int i = 0; i < n; ++i) {
      if (!can_advance(r, i)) continue;
      const int o = ivc_state_[base * vcs_ + i].out_port;
      const int w = winner[o];
      if (w < 0 || rr_distance(i, sa_out_rr_[base + o], n) < rr_distance(w, sa_out_rr_[base + o], n)) winner[o] = i;
    }
    // Input stage: each input port accepts the granted VC nearest after its pointer.
    std::int32_t* accepted = scratch_b_.data();  // input port -> accepted input VC (local), or -1
    std::fill_n(accepted, ports, -1);
    for (int o = 0; o < ports; ++o) {
      const int i = winner[o];
      if (i < 0) continue;
      const int p = i / vcs_;
      const int a = accepted[p];
      if (a < 0 || rr_distance(i % vcs_, sa_in_rr_[base + p], vcs_) < rr_distance(a % vcs_, sa_in_rr_[base + p], vcs_))
        accepted[p] = i;
    }
    for (int o = 0; o < ports; ++o)
      if (winner[o] >= 0 && accepted[winner[o] / vcs_] != winner[o]) winner[o] = -1;
  }

  int grants = 0;
  for (int o = 0; o < ports; ++o) {
    const int i = winner[o];
    if (i < 0) continue;
    const int p = i / vcs_;
    sa_in_rr_[base + p] = static_cast<std::uint16_t>((i % vcs_ + 1) % vcs_);
    sa_out_rr_[base + o] = static_cast<std::uint16_t>(params_.allocator == AllocatorKind::InputFirst
                                                          ? (p + 1) % ports
                                                          : (i + 1) % n);
    // Switch traversal: the flit leaves its input buffer (a credit goes upstream) and takes the output.
    const std::int32_t g = base * vcs_ + i;
    InputVcState& s = ivc_state_[g];
    const std::int32_t ovc = (base + o) * vcs_ + s.out_vc;
    Flit f = pop_input(g);
    return_credit(g);
    scratch_c_[i] = 1;
    if (f.head) ++packets_[f.packet].hops;
    f.vc = static_cast<std::uint8_t>(s.out_vc);
    --ovc_credits_[ovc];
    ++counters_.flit_hops;
    last_progress_ = now_;
    if (f.tail) {
      ovc_owner_[ovc] = -1;
      s = InputVcState{};
    }
    if (outq_cap_ == 0) {
      send_flit(r, o, f);
      --router_flits_[r];
    } else {
      const std::int32_t gp = base + o;
      int slot = outq_head_[gp] + outq_count_[gp];
      if (slot >= outq_cap_) slot -= outq_cap_;
      outq_[static_cast<std::size_t>(gp) * outq_cap_ + slot] = f;
      ++outq_count_[gp];
    }
    ++grants;
  }
  return grants;
}

void Network::evaluate_router(RouterId r) {
  const std::int32_t base = graph_.port_base[r];
  const int ports = graph_.num_ports(r);
  const int n = ports * vcs_;
  const std::int32_t ivc0 = base * vcs_;
  bool waiting = false;
  for (int i = 0; i < n; ++i) {
    scratch_c_[i] = -1;  // not switched yet this cycle
    if (buf_count_[ivc0 + i] == 0) continue;
    if (!ivc_state_[ivc0 + i].routed) route_front(r, i);
    waiting |= ivc_state_[ivc0 + i].out_vc < 0;
  }
  if (waiting) allocate_vcs(r);
  for (int round = 0; round < params_.speedup; ++round) {
    if (allocate_switch(r, round) == 0) break;
    // A tail that left may have uncovered a new head: route it for the next pass.
    if (params_.speedup > 1) {
      for (int i = 0; i < n; ++i)
        if (buf_count_[ivc0 + i] > 0 && !ivc_state_[ivc0 + i].routed) route_front(r, i);
    }
  }
  if (outq_cap_ > 0) {
    // The channel carries one flit per cycle; the output queue absorbs the crossbar's speedup.
    for (int o = 0; o < ports; ++o) {
      const std::int32_t gp = base + o;
      if (outq_count_[gp] == 0) continue;
      const Flit f = outq_[static_cast<std::size_t>(gp) * outq_cap_ + outq_head_[gp]];
      outq_head_[gp] = static_cast<std::uint8_t>((outq_head_[gp] + 1) % outq_cap_);
      --outq_count_[gp];
      send_flit(r, o, f);
      --router_flits_[r];
    }
  }
}

}  // namespace mppnet::net
