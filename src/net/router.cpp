// net/router.cpp: one cycle of the general input-queued VC router: route, then VC allocation
// (net/vc_allocator.cpp and the allocators of net/vc_alloc.hpp), switch allocation
// (net/switch_allocator.cpp) and the crossbar.
//
// The switch allocator, and the VC allocator by default, are separable with round-robin priority.
// Input-first: every input picks one request, then every output picks one of the requests it got.
// Output-first: every output picks one requester, then every input accepts one of the grants it got. A
// decision in a cycle sees only the state at the start of that cycle's allocation (grants are applied
// afterwards), which is what makes them separable rather than sequential, and makes the outcome independent
// of the order requests are looked at.
//
// The switch allocator may iterate (router.allocator_iterations, iSLIP after McKeown 1999): after the
// first pass, the inputs and outputs it left unmatched run the same two stages again among themselves
// (an input that lost asks for its next VC whose output is still free), and only first-pass grants move
// the round-robin pointers. VC allocation stays one pass (whichever allocator, router.vc_allocator): an
// output VC is held for a whole packet, so it is requested once per packet, while the switch is
// contended again for every flit.
//
// Work is proportional to the input VCs that hold flits: a bitmask per router lists them, and the
// allocators see only the lists of VCs waiting for an output VC and VCs ready to cross the switch.
#include <algorithm>
#include <bit>

#include "net/network.hpp"

namespace mppnet::net {

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
      memo =
          candidate_mask(ordered(routing_.route(r, local_port_[ivc_local], 0, static_cast<NodeId>(f.dest))));
    route_mask_[g] = memo << first_vc;
    return;
  }
  topo::PacketHead head{.dest = static_cast<NodeId>(f.dest)};
  if (route_header_) {
    // Only routings that use the header pay for it: the header word from its side array (the packet's
    // cold slot is not read), a random value that depends on (seed, packet, router, cycle) alone.
    head.header = packets_.route_header(f.packet);
    head.random = core::splitmix64(
        route_key_ ^ core::splitmix64((std::uint64_t{f.packet} << 32) ^ static_cast<std::uint64_t>(r)) ^
        static_cast<std::uint64_t>(now_) * 0x9e3779b97f4a7c15ULL);
    if (source_routes_) head.source_route = &packets_.source_route(f.packet);
  }
  topo::RouteSet rs = ordered(routing_.route(r, local_port_[ivc_local], in_vc, head));
  if (route_header_) packets_.route_header(f.packet) = head.header;
  rs.vc_lo = static_cast<std::uint8_t>(rs.vc_lo + first_vc);
  rs.vc_hi = static_cast<std::uint8_t>(rs.vc_hi + first_vc);
  InputVc& s = ivc_[g];
  s.routed = true;
  s.out_port = rs.count == 1 ? rs.ports[0] : -1;
  s.out_vc = -1;
  if (!fast_) {
    check_route(rs);
    ivc_route_[g] = rs;
    return;
  }
  route_mask_[g] = candidate_mask(rs);
  if (!multicast_) return;
  // The bitmask router allocates and switches a multicast as the general router does
  // (net/fast_multicast.cpp), from its route.
  std::uint64_t& mc = mc_front_[r];
  const std::uint64_t bit = std::uint64_t{1} << ivc_local;
  if (is_multicast(rs)) {
    ivc_route_[g] = rs;
    mc |= bit;
  } else {
    mc &= ~bit;
  }
}

// The bitmask router keeps the candidate output VCs as one mask. It lists candidate ports in increasing
// order, so the candidates must come in that order for its random pick to match the general router's.
std::uint64_t Network::candidate_mask(const topo::RouteSet& rs) const {
  check_route(rs);
  const std::uint64_t range = ((std::uint64_t{2} << rs.vc_hi) - 1) & ~((std::uint64_t{1} << rs.vc_lo) - 1);
  std::uint64_t mask = 0;
  for (int c = 0; c < rs.count; ++c) {
    MPPNET_ASSERT(c == 0 || rs.ports[c] > rs.ports[c - 1], "route candidates out of port order");
    mask |= range << (rs.ports[c] * vcs_);
  }
  return mask;
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
    if (i >= 0 && ivc_[base * vcs_ + i].out_port == kMulticastPort) {
      grants += switch_multicast(r, i, k < rr_count);  // clears its picks (net/multicast.cpp)
      continue;
    }
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
      push_output_queue(base + o, f);
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
  // A head still in its routing or VC-allocation delay keeps the router awake without taking part.
  bool delayed = false;
  const bool staged = !stage_ready_.empty();
  const std::uint64_t* mask = &occupied_[static_cast<std::size_t>(r) * mask_words_];
  for (int w = 0; w < mask_words_; ++w) {
    for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
      const int i = w * 64 + std::countr_zero(bits);
      if (!ivc_[ivc0 + i].routed) {
        route_front(r, i);
        if (staged) stage_ready_[ivc0 + i] = now_ + routing_delay_;
      }
      if (staged && stage_ready_[ivc0 + i] > now_) {
        switched_[i] = 0;
        delayed = true;
        continue;
      }
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
  if (vc_grant_delay_ > 0 && changed) {
    // Heads that won an output VC bid for the switch only after the VC-allocation delay.
    for (int k = already_ready; k < ready_count; ++k) stage_ready_[ivc0 + ready[k]] = now_ + vc_grant_delay_;
    ready_count = already_ready;
    delayed = true;
  }
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
  return changed || delayed;
}

}  // namespace mppnet::net
