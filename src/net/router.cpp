// net/router.cpp: one cycle of an input-queued VC router: route, VC allocation, switch allocation.
//
// Both allocators are separable with round-robin priority. Input-first: every input picks one request,
// then every output picks one of the requests it got. Output-first: every output picks one requester,
// then every input accepts one of the grants it got. A decision in a cycle sees only the state at the
// start of that cycle's allocation (grants are applied afterwards), which is what makes them separable
// rather than sequential, and makes the outcome independent of the order requests are looked at.
//
// The switch allocator may iterate (router.allocator_iterations, iSLIP after McKeown 1999): after the
// first pass, the inputs and outputs it left unmatched run the same two stages again among themselves
// (an input that lost asks for its next VC whose output is still free), and only first-pass grants move
// the round-robin pointers. VC allocation stays one pass: an output VC is held for a whole packet, so
// it is requested once per packet, while the switch is contended again for every flit.
//
// Work is proportional to the input VCs that hold flits: a bitmask per router lists them, and the
// allocators see only the lists of VCs waiting for an output VC and VCs ready to cross the switch.
#include <algorithm>
#include <bit>

#include "net/network.hpp"

namespace mppnet::net {

namespace {
// Distance from `pointer` to `x` going round a ring of `n`: the round-robin priority (0 is highest).
inline int rr_distance(int x, int pointer, int n) {
  const int d = x - pointer;
  return d < 0 ? d + n : d;
}

// One arbiter step of every allocator stage: resource `at` keeps the candidate with the smallest
// round-robin distance `d`; a resource is appended to `listed` the first time it is offered, so the
// caller visits (and resets) only resources that were asked for. pick[at] < 0 means "not asked yet".
inline void offer(std::int32_t* pick, std::int32_t* dist, std::int32_t* listed, int& count, int at,
                  int candidate, int d) {
  if (pick[at] < 0) {
    listed[count++] = at;
  } else if (dist[at] <= d) {
    return;
  }
  pick[at] = candidate;
  dist[at] = d;
}
}  // namespace

void Network::route_front(RouterId r, int ivc_local) {
  const std::int32_t g = graph_.port_base[r] * vcs_ + ivc_local;
  const Flit& f = buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head];
  MPPNET_ASSERT(f.head, "a body flit reached the front of an unrouted VC");
  // The routing sees the VCs of the packet's virtual network only, numbered from 0.
  int in_vc = local_vc_[ivc_local];
  int first_vc = 0;
  if (vnets_ > 1) {
    first_vc = in_vc - in_vc % vcs_per_vnet_;
    in_vc -= first_vc;
  }
  if (!route_memo_.empty()) {
    // Small networks whose routes do not depend on the input VC remember each (input port,
    // destination)'s candidate mask for the first virtual network; other networks' are the same mask
    // moved up by their first VC. Zero means "not yet computed" (a route has at least one candidate).
    std::uint64_t& memo = route_memo_[static_cast<std::size_t>(graph_.port_base[r] + local_port_[ivc_local]) *
                                          graph_.num_nodes +
                                      f.dest];
    if (memo == 0)
      memo = candidate_mask(routing_.route(r, local_port_[ivc_local], 0, static_cast<NodeId>(f.dest)));
    route_mask_[g] = memo << first_vc;
    return;
  }
  topo::PacketHead head{.dest = static_cast<NodeId>(f.dest)};
  if (route_header_) {
    // Only routings that use the header pay for it: the source from the packet's (cold) slot, the header
    // word from its side array, a random value that depends on (seed, packet, router, cycle) alone.
    head.src = packets_[f.packet].src;
    head.header = packets_.route_header(f.packet);
    head.random = core::splitmix64(
        route_key_ ^ core::splitmix64((std::uint64_t{f.packet} << 32) ^ static_cast<std::uint64_t>(r)) ^
        static_cast<std::uint64_t>(now_) * 0x9e3779b97f4a7c15ULL);
  }
  topo::RouteSet rs = routing_.route(r, local_port_[ivc_local], in_vc, head);
  if (route_header_) packets_.route_header(f.packet) = head.header;
  MPPNET_ASSERT(rs.count > 0, "routing returned no candidate port");
  // Multicast replication is not implemented: a router forwards a packet on one port only.
  MPPNET_ASSERT(!rs.multicast,
                "multicast replication is not implemented yet: a route returned a multicast set");
  rs.vc_lo = static_cast<std::uint8_t>(rs.vc_lo + first_vc);
  rs.vc_hi = static_cast<std::uint8_t>(rs.vc_hi + first_vc);
  InputVc& s = ivc_[g];
  s.routed = true;
  s.out_port = rs.count == 1 ? rs.ports[0] : -1;
  s.out_vc = -1;
  if (!fast_) {
    ivc_route_[g] = rs;
    return;
  }
  route_mask_[g] = candidate_mask(rs);
}

// The bitmask router keeps the candidate output VCs as one mask. It lists candidate ports in increasing
// order, so the candidates must come in that order for its random pick to match the general router's.
std::uint64_t Network::candidate_mask(const topo::RouteSet& rs) const {
  MPPNET_ASSERT(rs.count > 0, "routing returned no candidate port");
  MPPNET_ASSERT(!rs.multicast,
                "multicast replication is not implemented yet: a route returned a multicast set");
  const std::uint64_t range = ((std::uint64_t{2} << rs.vc_hi) - 1) & ~((std::uint64_t{1} << rs.vc_lo) - 1);
  std::uint64_t mask = 0;
  for (int c = 0; c < rs.count; ++c) {
    MPPNET_ASSERT(c == 0 || rs.ports[c] > rs.ports[c - 1], "route candidates out of port order");
    mask |= range << (rs.ports[c] * vcs_);
  }
  return mask;
}

inline bool Network::output_vc_usable(std::int32_t ovc, int packet_flits) const {
  if (ovc_[ovc].owner >= 0) return false;
  // Cut-through and store-and-forward take a VC only when the next buffer can hold the whole packet.
  return params_.switching == Switching::Wormhole || ovc_[ovc].credits >= packet_flits;
}

inline bool Network::can_advance(RouterId r, int i) const {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t g = base * vcs_ + i;
  if (ivc_[g].count == 0 || switched_[i]) return false;
  const InputVc& s = ivc_[g];
  if (s.out_vc < 0) return false;
  if (ovc_[(base + s.out_port) * vcs_ + s.out_vc].credits == 0) return false;
  if (outq_cap_ > 0 && outq_count_[base + s.out_port] >= outq_cap_) return false;
  if (params_.switching == Switching::StoreAndForward) {
    const Flit& f = buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head];
    if (f.head && ivc_[g].count < packets_[f.packet].flits) return false;
  }
  return true;
}

void Network::allocate_vcs(RouterId r, const std::int32_t* waiting, int count, std::int32_t* ready,
                           int* ready_count) {
  const std::int32_t ivc0 = graph_.port_base[r] * vcs_;
  const int n = graph_.num_ports(r) * vcs_;
  const int rr = router_[r].va_rr < n ? router_[r].va_rr : 0;
  std::int32_t* claim = claim_.data();  // local output VC -> best requester (local input VC), or -1
  std::int32_t* dist = claim_dist_.data();
  int touched = 0;
  auto request = [&](int ol, int i) {
    offer(claim, dist, touched_.data(), touched, ol, i, rr_distance(i, rr, n));
  };
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;

  for (int w = 0; w < count; ++w) {
    const int i = waiting[w];
    const std::int32_t g = ivc0 + i;
    // Only cut-through and store-and-forward need the length (output_vc_usable); wormhole skips the pool.
    const int packet_flits =
        params_.switching == Switching::Wormhole
            ? 0
            : packets_[buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head].packet].flits;
    const topo::RouteSet& rs = ivc_route_[g];
    if (input_first) {
      // Input stage: one request, to a port chosen at random among the candidates with a usable VC.
      int options[topo::kMaxRouteCandidates];
      int found = 0;
      for (int c = 0; c < rs.count; ++c) {
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (!output_vc_usable(ivc0 + ol, packet_flits)) continue;
          options[found++] = ol;
          break;
        }
      }
      if (found == 0) continue;
      // Output stage (folded in): the requester nearest after the round-robin pointer keeps the VC.
      request(options[found > 1 ? router_rng_[r].below(found) : 0], i);
    } else {
      // Output stage: every usable output VC is offered to its nearest requester after the pointer.
      for (int c = 0; c < rs.count; ++c)
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (output_vc_usable(ivc0 + ol, packet_flits)) request(ol, i);
        }
    }
  }

  if (!input_first) {
    // Input stage: each input accepts one of its grants, at random (an adaptive choice of port when the
    // grants are on several ports); the others lapse this cycle. Grants are visited in output-VC order.
    std::sort(touched_.begin(), touched_.begin() + touched);
    for (int w = 0; w < count; ++w) {
      const int i = waiting[w];
      int grants = 0;
      for (int t = 0; t < touched; ++t) grants += claim[touched_[t]] == i;
      if (grants <= 1) continue;
      const int keep = static_cast<int>(router_rng_[r].below(grants));
      int seen = 0;
      for (int t = 0; t < touched; ++t) {
        if (claim[touched_[t]] != i) continue;
        if (seen++ != keep) claim[touched_[t]] = -2;  // declined
      }
    }
  }

  int first = -1;
  for (int t = 0; t < touched; ++t) {
    const int ol = touched_[t];
    const int i = claim[ol];
    claim[ol] = -1;
    if (i < 0) continue;
    InputVc& s = ivc_[ivc0 + i];
    s.out_port = local_port_[ol];
    s.out_vc = local_vc_[ol];
    ovc_[ivc0 + ol].owner = i;
    ready[(*ready_count)++] = i;
    if (first < 0 || rr_distance(i, rr, n) < rr_distance(first, rr, n)) first = i;
  }
  if (first >= 0) router_[r].va_rr = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
}

int Network::allocate_switch(RouterId r, const std::int32_t* ready, int count) {
  const std::int32_t base = graph_.port_base[r];
  const int ports = graph_.num_ports(r);
  const int n = ports * vcs_;
  // Per port: the chosen local input VC (-1 none) and its priority; only ports in the touched lists are
  // ever set, and they are reset before returning, so the cost follows the VCs that are ready.
  std::int32_t* out_pick = out_pick_.data();
  std::int32_t* out_dist = out_dist_.data();
  std::int32_t* port_pick = port_pick_.data();
  std::int32_t* port_dist = port_dist_.data();
  std::int32_t outs[kMaxRouterPorts], ins[kMaxRouterPorts];
  int out_count = 0, in_count = 0;
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;
  const int iterations = params_.allocator_iterations;

  // One ready VC (the common case at light load) wins both stages if it can advance at all.
  if (count == 1) {
    if (can_advance(r, ready[0])) {
      outs[out_count++] = ivc_[base * vcs_ + ready[0]].out_port;
      out_pick[outs[0]] = ready[0];
    }
    return switch_granted(r, outs, out_count, out_count);
  }
  // With several iterations, the VCs that can advance are kept for the later ones.
  std::int32_t* eligible = sa_eligible_.data();
  int eligible_count = 0;
  // First stage: inputs pick a VC each (input-first) or outputs pick an input VC each (output-first).
  for (int k = 0; k < count; ++k) {
    const int i = ready[k];
    if (!can_advance(r, i)) continue;
    if (iterations > 1) eligible[eligible_count++] = i;
    if (input_first) {
      const int p = local_port_[i];
      offer(port_pick, port_dist, ins, in_count, p, i,
            rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
    } else {
      const int o = ivc_[base * vcs_ + i].out_port;
      offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(i, port_rr_[base + o].sa_out, n));
    }
  }
  // Second stage: outputs choose among the inputs that asked (input-first), or inputs accept one of the
  // outputs that granted them (output-first). One iteration's entries start at outs[from_out], ins[from_in].
  auto second_stage = [&](int from_out, int from_in) {
    if (input_first) {
      for (int k = from_in; k < in_count; ++k) {
        const int p = ins[k];
        const int i = port_pick[p];
        const int o = ivc_[base * vcs_ + i].out_port;
        offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(p, port_rr_[base + o].sa_out, ports));
      }
    } else {
      for (int k = from_out; k < out_count; ++k) {
        const int i = out_pick[outs[k]];
        const int p = local_port_[i];
        offer(port_pick, port_dist, ins, in_count, p, i,
              rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
      }
      for (int k = from_out; k < out_count; ++k)
        if (port_pick[local_port_[out_pick[outs[k]]]] != out_pick[outs[k]]) out_pick[outs[k]] = -1;
    }
  };
  second_stage(0, 0);
  if (iterations == 1) {
    for (int k = 0; k < in_count; ++k) port_pick[ins[k]] = -1;
    return switch_granted(r, outs, out_count, out_count);
  }

  // Later iterations (iSLIP, McKeown 1999): the inputs and outputs left unmatched try again among
  // themselves, with the same priorities. After settle(), outs lists only matched outputs and ins only
  // matched inputs (the others are reset to -1), so a pick >= 0 means "matched" and the next iteration
  // offers only to unmatched ones.
  auto settle = [&](int from_out, int from_in) {
    int kept = from_out;
    for (int k = from_out; k < out_count; ++k)
      if (out_pick[outs[k]] >= 0) outs[kept++] = outs[k];
    out_count = kept;
    kept = from_in;
    for (int k = from_in; k < in_count; ++k) {
      const int p = ins[k];
      const int i = port_pick[p];
      if (out_pick[ivc_[base * vcs_ + i].out_port] == i) {
        ins[kept++] = p;
      } else {
        port_pick[p] = -1;
      }
    }
    in_count = kept;
  };
  settle(0, 0);
  // As in iSLIP, only grants of the first iteration move the round-robin pointers: later matches fill
  // gaps without disturbing the fairness of the first.
  const int rr_count = out_count;
  for (int it = 1; it < iterations; ++it) {
    // An input VC stays eligible while both its input port and its output port are unmatched.
    int kept = 0;
    for (int e = 0; e < eligible_count; ++e) {
      const int i = eligible[e];
      if (port_pick[local_port_[i]] < 0 && out_pick[ivc_[base * vcs_ + i].out_port] < 0) eligible[kept++] = i;
    }
    eligible_count = kept;
    if (eligible_count == 0) break;
    const int from_out = out_count, from_in = in_count;
    for (int e = 0; e < eligible_count; ++e) {
      const int i = eligible[e];
      if (input_first) {
        const int p = local_port_[i];
        offer(port_pick, port_dist, ins, in_count, p, i,
              rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
      } else {
        const int o = ivc_[base * vcs_ + i].out_port;
        offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(i, port_rr_[base + o].sa_out, n));
      }
    }
    second_stage(from_out, from_in);
    settle(from_out, from_in);
    if (out_count == from_out) break;  // nothing new matched: nothing will
  }
  for (int k = 0; k < in_count; ++k) port_pick[ins[k]] = -1;
  return switch_granted(r, outs, out_count, rr_count);
}

int Network::switch_granted(RouterId r, const std::int32_t* outs, int out_count, int rr_count) {
  const std::int32_t base = graph_.port_base[r];
  const int ports = graph_.num_ports(r);
  const int n = ports * vcs_;
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;
  std::int32_t* out_pick = out_pick_.data();
  int grants = 0;
  for (int k = 0; k < out_count; ++k) {
    const int o = outs[k];
    const int i = out_pick[o];
    out_pick[o] = -1;
    if (i < 0) continue;
    const int p = local_port_[i];
    if (k < rr_count) {
      port_rr_[base + p].sa_in = static_cast<std::uint16_t>(local_vc_[i] + 1 == vcs_ ? 0 : local_vc_[i] + 1);
      const int next = input_first ? (p + 1 == ports ? 0 : p + 1) : (i + 1 == n ? 0 : i + 1);
      port_rr_[base + o].sa_out = static_cast<std::uint16_t>(next);
    }
    // Switch traversal: the flit leaves its input buffer (a credit goes upstream) and takes the output.
    const std::int32_t g = base * vcs_ + i;
    InputVc& s = ivc_[g];
    const std::int32_t ovc = (base + o) * vcs_ + s.out_vc;
    Flit f = pop_input(g);
    if (ivc_[g].count == 0) set_occupied(r, i, false);
    return_credit(port_[base + p].vc_base + local_vc_[i], credit_owner(port_[base + p]));
    switched_[i] = 1;
    if (f.head) ++packets_.hops(f.packet);
    f.vc = static_cast<std::uint32_t>(s.out_vc);
    --ovc_[ovc].credits;
    ++counters_.flit_hops;
    last_progress_ = now_;
    if (f.tail) {
      ovc_[ovc].owner = -1;
      s.routed = false;
      s.out_port = -1;
      s.out_vc = -1;
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

bool Network::evaluate_router(RouterId r) {
  if (fast_) return evaluate_router_fast(r);
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t ivc0 = base * vcs_;
  // Sort the occupied input VCs into those waiting for an output VC and those holding one.
  std::int32_t* waiting = waiting_.data();
  std::int32_t* ready = ready_.data();
  int waiting_count = 0, ready_count = 0;
  const std::uint64_t* mask = &occupied_[static_cast<std::size_t>(r) * mask_words_];
  for (int w = 0; w < mask_words_; ++w) {
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
      const int i = w * 64 + std::countr_zero(bits);
      if (!ivc_[ivc0 + i].routed) route_front(r, i);
      if (ivc_[ivc0 + i].out_vc < 0) {
        waiting[waiting_count++] = i;
      } else {
        ready[ready_count++] = i;
      }
      switched_[i] = 0;
    }
  }
  const int already_ready = ready_count;
  if (waiting_count > 0) allocate_vcs(r, waiting, waiting_count, ready, &ready_count);
  bool changed = ready_count > already_ready;
  for (int round = 0; round < params_.speedup && ready_count > 0; ++round) {
    const int grants = allocate_switch(r, ready, ready_count);
    if (grants == 0) break;
    changed = true;
  }
  if (outq_cap_ > 0) {
    // The channel carries one flit per cycle; the output queue absorbs the crossbar's speedup.
    for (int o = 0; o < graph_.num_ports(r); ++o) {
      const std::int32_t gp = base + o;
      if (outq_count_[gp] == 0) continue;
      const Flit f = outq_[static_cast<std::size_t>(gp) * outq_cap_ + outq_head_[gp]];
      outq_head_[gp] = static_cast<std::uint8_t>((outq_head_[gp] + 1) % outq_cap_);
      --outq_count_[gp];
      send_flit(r, o, f);
      --router_flits_[r];
      changed = true;
    }
  }
  return changed;
}

}  // namespace mppnet::net
