// net/fast_router.cpp: the router cycle of the common configuration, on bitmasks.
//
// When a router has at most 64 input VCs and the network is wormhole-switched with speedup 1 and a
// one-pass input-first allocator (the defaults), its state fits in a few 64-bit words kept in one cache
// line per router (RouterState):
//   occupied  input VCs holding flits         routed  front packet has a route
//   alloc     input VC holds an output VC     credit  that output VC has a credit downstream
//   free      output VC not held by a packet
// so a cycle is a handful of bit operations per port instead of a pass over every occupied VC. The
// decisions are exactly those of the general allocators in router.cpp (same round-robin priorities, same
// random draws in the same order), which a test checks by running both on the same traffic. Blocked VCs
// cost nothing here: a VC waiting for a credit is not in `credit` until the credit arrives (latch()).
//
// Multicasts (routings that may return them) take the same router: route_front() marks the input VCs
// whose front packet is one, their VC allocation below and their switch allocation and traversal
// (net/fast_multicast.cpp) are the general router's, and a cycle in which no multicast waits or holds
// output VCs runs exactly the unicast code.
#include <bit>

#include "net/arbiter.hpp"
#include "net/bit_ops.hpp"
#include "net/network.hpp"

namespace mppnet::net {

using bits::bit;
using bits::either;

template <bool kMulticast>
bool Network::evaluate_router_fast(RouterId r) {
  RouterState& rs = router_[r];
  const std::int32_t base = rs.base;
  const std::int32_t ivc0 = base * vcs_;
  const std::uint64_t occupied = rs.occupied;
  for (std::uint64_t bits = occupied & ~rs.routed; bits != 0; bits &= bits - 1)
    route_front(r, std::countr_zero(bits));
  rs.routed |= occupied;
  // Input VCs whose front packet is a multicast (none unless the routing may multicast).
  const std::uint64_t mc = kMulticast ? mc_front_[r] : 0;
  bool changed = false;
  if (const std::uint64_t waiting = occupied & ~rs.alloc; waiting != 0)
    changed = (waiting & mc) == 0 ? allocate_vcs_fast<false>(r, waiting, 0)
                                  : allocate_vcs_fast<true>(r, waiting, mc);

  std::uint64_t go = occupied & rs.alloc & rs.credit;
  if constexpr (kMulticast) {
    if (const std::uint64_t held = occupied & rs.alloc & mc; held != 0) {
      // Multicasts holding their output VCs go first (they cross here); `go` becomes the unicasts that
      // won the switch around them, which the stages below grant as they are.
      bool moved = false;
      go = switch_multicasts_fast(r, go & ~mc, held, moved);
      if (go == 0) return (changed || moved) && rs.occupied != 0;
    }
  }
  if (go == 0) return changed && occupied != 0;
  const int vcs = vcs_;
  const std::uint64_t vc_mask = bit(vcs) - 1;  // vcs < 64 on this path
  const PortEnd* port = &port_[base];
  std::int64_t* port_flits = &port_flits_[base];
  InputVc* ivc = &ivc_[ivc0];
  const std::uint8_t* local_port = local_port_.data();
  // (Multicasts may have crossed above: then the mask in rs is the one to start from.)
  std::uint64_t occupied_after = kMulticast ? rs.occupied : occupied, credit = rs.credit, done = 0;
  std::uint64_t sa_in = rs.sa_in, sa_out = rs.sa_out;
  // Input VC i of input port p crosses to output port o: the round-robin pointers move past the winner.
  auto cross = [&](int i, int p, int o) {
    const int shift = p * vcs;
    const int vc_in = i - shift;
    sa_in = (sa_in & ~(vc_mask << shift)) | bit(i);
    sa_out = (sa_out & ~(std::uint64_t{15} << (4 * o))) | (std::uint64_t(p) << (4 * o));
    InputVc& s = ivc[i];
    const int out_vc = s.out_vc;
    const int out_local = o * vcs + out_vc;
    OutputVc& ov = ovc_[ivc0 + out_local];
    Flit f = pop_input(ivc0 + i);
    occupied_after &= ~(bit(i) & (0 - std::uint64_t{s.count == 0}));  // emptied
    return_credit(port[p].vc_base + vc_in, credit_owner(port[p]));
    packets_.hops(f.packet) = static_cast<std::uint16_t>(packets_.hops(f.packet) + f.head);
    f.vc = static_cast<std::uint32_t>(out_vc);
    if (--ov.credits == 0) credit &= ~bit(i);
    // A tail frees the output VC. Without a branch, as heads, bodies and tails alternate; the input
    // VC's record keeps its stale route, which nothing reads until route_front() rewrites it.
    const std::uint64_t tail = 0 - std::uint64_t{f.tail};
    ov.owner = static_cast<std::int16_t>(ov.owner | -static_cast<int>(f.tail));  // -1 at a tail
    rs.free |= bit(out_local) & tail;
    done |= bit(i) & tail;
    *flit_out_++ = {port[o].vc_base + out_vc, port[o].owner, f};
    ++port_flits[o];
  };

  int grants = 1;
  if ((go & (go - 1)) == 0) {
    // One VC can advance (the common case at light load): it wins both stages.
    const int i = std::countr_zero(go);
    cross(i, local_port[i], ivc[i].out_port);
  } else {
    // Switch allocation, input stage: every input port picks one of its VCs that can advance, the first
    // after the one that won last (all masks in place: bit p * vcs + v).
    std::uint64_t* requests = out_requests_.data();  // per output port: the input ports asking for it
    std::int32_t* pick = port_pick_.data();          // per input port: its chosen local input VC
    std::int32_t outs[kMaxRouterPorts];
    int out_count = 0;
    while (go != 0) {
      const int p = local_port[std::countr_zero(go)];
      const std::uint64_t port_bits = vc_mask << (p * vcs);
      const std::uint64_t mine = go & port_bits;
      go &= ~port_bits;
      const std::uint64_t after = mine & ~(((sa_in & port_bits) << 1) - 1);
      const int i = std::countr_zero(either(after, mine));
      const int o = ivc[i].out_port;
      outs[out_count] = o;  // listed once: the first time it is asked for
      out_count += requests[o] == 0;
      requests[o] |= bit(p);
      pick[p] = i;
    }
    // Output stage: every output port grants one of the input ports that asked, and the flit crosses.
    for (int k = 0; k < out_count; ++k) {
      const int o = outs[k];
      const std::uint64_t asked = requests[o];
      const std::uint64_t after = asked & ~((std::uint64_t{2} << ((sa_out >> (4 * o)) & 15)) - 1);
      const int p = std::countr_zero(either(after, asked));
      requests[o] = 0;
      cross(pick[p], p, o);
    }
    grants = out_count;
  }
  rs.sa_in = sa_in;
  rs.sa_out = sa_out;
  rs.occupied = occupied_after;
  rs.credit = credit;
  rs.alloc &= ~done;
  rs.routed &= ~done;
  counters_.flit_hops += grants;
  last_progress_ = now_;
  return occupied_after != 0;
}

template bool Network::evaluate_router_fast<false>(RouterId r);
template bool Network::evaluate_router_fast<true>(RouterId r);

// VC allocation as allocate_vcs() does it for input-first wormhole routers: each waiting VC asks for the
// first free VC of one candidate port (chosen at random among the ports that have one), and each asked-for
// output VC goes to the asker nearest after the round-robin pointer.
//
// kMulticast (some of `waiting` are multicasts, the bits of `mc`): as vc_alloc::input_first() and
// finish_separable() do it, in input order a unicast asks as above and a multicast asks for the lowest
// free VC of its route's range on every branch, ranked at each by the router's pointer; a multicast that
// won every branch takes them all, what one won otherwise lapses this cycle, and the other asked-for
// output VCs go to their nearest askers. Without it the code is the unicast allocator alone.
template <bool kMulticast>
bool Network::allocate_vcs_fast(RouterId r, std::uint64_t waiting, std::uint64_t mc) {
  RouterState& rs = router_[r];
  const std::int32_t ivc0 = rs.base * vcs_;
  const int n = rs.ports * vcs_;
  const int rr = rs.va_rr < n ? rs.va_rr : 0;
  const std::uint64_t free = rs.free;
  const std::uint64_t vc_mask = bit(vcs_) - 1;
  auto grant = [&](int i, int ol) {
    InputVc& s = ivc_[ivc0 + i];
    s.out_port = local_port_[ol];
    s.out_vc = local_vc_[ol];
    ovc_[ivc0 + ol].owner = static_cast<std::int16_t>(i);
    rs.free &= ~bit(ol);
    rs.alloc |= bit(i);
    if (ovc_[ivc0 + ol].credits > 0) {
      rs.credit |= bit(i);
    } else {
      rs.credit &= ~bit(i);
    }
  };
  // Input stage: the output VC that input VC i asks for, the first free VC of a candidate port chosen at
  // random among those that have one (-1: none); it sees the free VCs of the start of the cycle.
  auto ask = [&](int i) {
    std::uint64_t usable = free & route_mask_[ivc0 + i];
    if (usable == 0) return -1;
    const int first = std::countr_zero(usable);
    usable &= ~(vc_mask << (local_port_[first] * vcs_));
    if (usable == 0) return first;  // one candidate port has a free VC
    int options[topo::kMaxRouteCandidates] = {first};
    int found = 1;
    for (; usable != 0; ++found) {
      options[found] = std::countr_zero(usable);
      usable &= ~(vc_mask << (local_port_[options[found]] * vcs_));
    }
    if (!most_credits_) return options[router_rng_[r].below(found)];
    // The route's VC range on every candidate port, as the general router's RouteSet has it.
    const std::uint64_t first_port = route_mask_[ivc0 + i] & (vc_mask << (local_port_[first] * vcs_));
    const int shift = local_port_[first] * vcs_;
    return choose_candidate(r, ivc0, options, found, std::countr_zero(first_port) - shift,
                            63 - std::countl_zero(first_port) - shift);
  };
  if (!kMulticast && (waiting & (waiting - 1)) == 0) {
    // One VC waits (the common case at light load): it wins whatever it asks for.
    const int i = std::countr_zero(waiting);
    const int ol = ask(i);
    if (ol < 0) return false;
    grant(i, ol);
    rs.va_rr = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
    if (!va_out_rr_.empty()) va_out_rr_[ivc0 + ol] = rs.va_rr;
    return true;
  }
  // Output stage: every asked-for output VC goes to the asker nearest after the round-robin pointer.
  std::int32_t* claim = claim_.data();
  std::int32_t* dist = claim_dist_.data();
  std::int32_t* asked = touched_.data();
  int asked_count = 0;
  std::uint64_t asking = 0;  // multicasts that asked (branch_vc_ holds the VC of each branch)
  for (std::uint64_t w = waiting; w != 0; w &= w - 1) {
    const int i = std::countr_zero(w);
    if (kMulticast && (mc & bit(i)) != 0) {
      const std::int32_t g = ivc0 + i;
      const topo::RouteSet& route = ivc_route_[g];
      std::int8_t* vc = &branch_vc_[static_cast<std::size_t>(g) * topo::kMaxRouteCandidates];
      const std::uint64_t range = (bit(route.vc_hi) << 1) - bit(route.vc_lo);
      bool every = true;
      for (int c = 0; c < route.count && every; ++c) {
        const std::uint64_t usable = free >> (route.ports[c] * vcs_) & range;
        every = usable != 0;
        vc[c] = static_cast<std::int8_t>(std::countr_zero(usable));
      }
      if (!every) continue;  // no request this cycle
      asking |= bit(i);
      const int d = arbiter::rr_distance(i, rr, n);
      for (int c = 0; c < route.count; ++c)
        arbiter::offer(claim, dist, asked, asked_count, route.ports[c] * vcs_ + vc[c], i, d);
      continue;
    }
    const int ol = ask(i);
    if (ol < 0) continue;
    const int from = va_out_rr_.empty() ? rr : va_out_rr_[ivc0 + ol];
    const int d = i >= from ? i - from : i - from + n;
    if (claim[ol] < 0) {
      asked[asked_count++] = ol;
    } else if (dist[ol] <= d) {
      continue;
    }
    claim[ol] = i;
    dist[ol] = d;
  }
  if (asked_count == 0) return false;
  // The router's pointer moves past the granted VC nearest after it, by its own distance under
  // per-output-VC arbiters too (multicasts are ranked by it).
  int first = -1, first_dist = n;
  auto granted = [&](int i, int d) {
    if (d < first_dist) {
      first = i;
      first_dist = d;
    }
  };
  for (; kMulticast && asking != 0; asking &= asking - 1) {
    const int i = std::countr_zero(asking);
    const std::int32_t g = ivc0 + i;
    const topo::RouteSet& route = ivc_route_[g];
    const std::int8_t* vc = &branch_vc_[static_cast<std::size_t>(g) * topo::kMaxRouteCandidates];
    bool won_all = true;
    for (int c = 0; c < route.count; ++c) won_all &= claim[route.ports[c] * vcs_ + vc[c]] == i;
    if (won_all) {
      hold_branches(r, i);
      for (int c = 0; c < route.count; ++c) {
        const int ol = route.ports[c] * vcs_ + vc[c];
        rs.free &= ~bit(ol);
        if (!va_out_rr_.empty()) va_out_rr_[ivc0 + ol] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
      }
      rs.alloc |= bit(i);
      granted(i, arbiter::rr_distance(i, rr, n));
    }
    // What it won is taken whole above or lapses this cycle: no unicast gets it either.
    for (int c = 0; c < route.count; ++c) {
      std::int32_t& holder = claim[route.ports[c] * vcs_ + vc[c]];
      if (holder == i) holder = -1;
    }
  }
  for (int t = 0; t < asked_count; ++t) {
    const int ol = asked[t];
    const int i = claim[ol];
    claim[ol] = -1;
    if (kMulticast && i < 0) continue;  // lapsed
    grant(i, ol);
    if (va_out_rr_.empty()) {
      granted(i, dist[ol]);
    } else {
      va_out_rr_[ivc0 + ol] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
      granted(i, arbiter::rr_distance(i, rr, n));
    }
  }
  if (kMulticast && first < 0) return false;
  rs.va_rr = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
  return true;
}

}  // namespace mppnet::net
