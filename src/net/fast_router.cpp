// net/fast_router.cpp: the router cycle of the common configuration, on bitmasks.
//
// When a router has at most 64 input VCs and the network is wormhole-switched with speedup 1 and a
// one-pass input-first allocator (the defaults), its state fits in a few 64-bit words per router:
//   occupied  input VCs holding flits         routed  front packet has a route
//   alloc     input VC holds an output VC     credit  that output VC has a credit downstream
//   free      output VC not held by a packet
// so a cycle is a handful of bit operations per port instead of a pass over every occupied VC. The
// decisions are exactly those of the general allocators in router.cpp (same round-robin priorities, same
// random draws in the same order), which a test checks by running both on the same traffic. Blocked VCs
// cost nothing here: a VC waiting for a credit is not in `credit` until the credit arrives (latch()).
#include <bit>

#include "net/network.hpp"

namespace mppnet::net {

namespace {
// The lowest set bit of `m` at or after position `from`, wrapping round: a round-robin pick.
// REQUIRES: m != 0 and from < 64.
inline int round_robin_pick(std::uint64_t m, int from) {
  const std::uint64_t after = m & (~std::uint64_t{0} << from);
  return std::countr_zero(after != 0 ? after : m);
}
inline std::uint64_t bit(int i) {
  return std::uint64_t{1} << i;
}
}  // namespace

bool Network::evaluate_router_fast(RouterId r) {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t ivc0 = base * vcs_;
  const std::uint64_t occupied = occupied_[r];
  for (std::uint64_t bits = occupied & ~routed_mask_[r]; bits != 0; bits &= bits - 1)
    route_front(r, std::countr_zero(bits));
  routed_mask_[r] |= occupied;
  bool changed = false;
  if (const std::uint64_t waiting = occupied & ~alloc_mask_[r]; waiting != 0)
    changed = allocate_vcs_fast(r, waiting);

  // Switch allocation, input stage: every input port picks one of its VCs that can advance.
  std::uint64_t go = occupied_[r] & alloc_mask_[r] & credit_mask_[r];
  if (go == 0) return changed;
  const std::uint64_t vc_mask = vcs_ == 64 ? ~std::uint64_t{0} : bit(vcs_) - 1;
  std::uint64_t* requests = out_requests_.data();  // per output port: the input ports asking for it
  std::int32_t* pick = port_pick_.data();          // per input port: its chosen local input VC
  std::int32_t outs[kMaxRouterPorts];
  int out_count = 0;
  while (go != 0) {
    const int p = local_port_[std::countr_zero(go)];
    const int shift = p * vcs_;
    const std::uint64_t mine = (go >> shift) & vc_mask;
    go &= ~(vc_mask << shift);
    const int i = shift + round_robin_pick(mine, port_[base + p].sa_in_rr);
    const int o = ivc_[ivc0 + i].out_port;
    if (requests[o] == 0) outs[out_count++] = o;
    requests[o] |= bit(p);
    pick[p] = i;
  }
  // Output stage: every output port grants one of the input ports that asked, and the flit crosses.
  const int ports = graph_.num_ports(r);
  for (int k = 0; k < out_count; ++k) {
    const int o = outs[k];
    const int p = round_robin_pick(requests[o], port_[base + o].sa_out_rr);
    requests[o] = 0;
    const int i = pick[p];
    port_[base + p].sa_in_rr = static_cast<std::uint16_t>(local_vc_[i] + 1 == vcs_ ? 0 : local_vc_[i] + 1);
    port_[base + o].sa_out_rr = static_cast<std::uint16_t>(p + 1 == ports ? 0 : p + 1);

    const std::int32_t g = ivc0 + i;
    InputVc& s = ivc_[g];
    const int out_local = o * vcs_ + s.out_vc;
    const std::int32_t ovc = ivc0 + out_local;
    Flit f = pop_input(g);
    if (ivc_[g].count == 0) occupied_[r] &= ~bit(i);
    return_credit(port_[base + p].up_ovc_base + local_vc_[i], port_[base + p].up_owner);
    if (f.head) ++packets_.hops(f.packet);
    f.vc = static_cast<std::uint32_t>(s.out_vc);
    if (--ovc_[ovc].credits == 0) credit_mask_[r] &= ~bit(i);
    if (f.tail) {
      ovc_[ovc].owner = -1;
      free_mask_[r] |= bit(out_local);
      alloc_mask_[r] &= ~bit(i);
      routed_mask_[r] &= ~bit(i);
      s.routed = false;
      s.out_port = -1;
      s.out_vc = -1;
    }
    send_flit(r, o, f);
    --router_flits_[r];
  }
  counters_.flit_hops += out_count;
  last_progress_ = now_;
  return true;
}

// VC allocation as allocate_vcs() does it for input-first wormhole routers: each waiting VC asks for the
// first free VC of one candidate port (chosen at random among the ports that have one), and each asked-for
// output VC goes to the asker nearest after the round-robin pointer.
bool Network::allocate_vcs_fast(RouterId r, std::uint64_t waiting) {
  const std::int32_t ivc0 = graph_.port_base[r] * vcs_;
  const int n = graph_.num_ports(r) * vcs_;
  const int rr = va_rr_[r] < n ? va_rr_[r] : 0;
  const std::uint64_t free = free_mask_[r];
  std::int32_t* claim = claim_.data();
  std::int32_t* dist = claim_dist_.data();
  std::int32_t* asked = touched_.data();
  int asked_count = 0;
  for (; waiting != 0; waiting &= waiting - 1) {
    const int i = std::countr_zero(waiting);
    const topo::RouteSet& rs = ivc_route_[ivc0 + i];
    const std::uint64_t range = (bit(rs.vc_hi + 1) - 1) & ~(bit(rs.vc_lo) - 1);
    int options[topo::kMaxRouteCandidates];
    int found = 0;
    for (int c = 0; c < rs.count; ++c) {
      const int shift = rs.ports[c] * vcs_;
      const std::uint64_t usable = (free >> shift) & range;
      if (usable != 0) options[found++] = shift + std::countr_zero(usable);
    }
    if (found == 0) continue;
    const int ol = options[found > 1 ? router_rng_[r].below(found) : 0];
    const int d = i >= rr ? i - rr : i - rr + n;
    if (claim[ol] < 0) {
      asked[asked_count++] = ol;
    } else if (dist[ol] <= d) {
      continue;
    }
    claim[ol] = i;
    dist[ol] = d;
  }
  if (asked_count == 0) return false;
  int first = -1, first_dist = n;
  for (int t = 0; t < asked_count; ++t) {
    const int ol = asked[t];
    const int i = claim[ol];
    claim[ol] = -1;
    InputVc& s = ivc_[ivc0 + i];
    s.out_port = local_port_[ol];
    s.out_vc = local_vc_[ol];
    ovc_[ivc0 + ol].owner = static_cast<std::int16_t>(i);
    free_mask_[r] &= ~bit(ol);
    alloc_mask_[r] |= bit(i);
    if (ovc_[ivc0 + ol].credits > 0) {
      credit_mask_[r] |= bit(i);
    } else {
      credit_mask_[r] &= ~bit(i);
    }
    if (dist[ol] < first_dist) {
      first = i;
      first_dist = dist[ol];
    }
  }
  va_rr_[r] = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
  return true;
}

}  // namespace mppnet::net
