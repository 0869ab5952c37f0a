// net/fast_multicast.cpp: the bitmask router's switch allocation and traversal when multicasts hold
// output VCs, decided as the general router decides them (allocate_switch(), take_for_multicasts(),
// switch_multicast()), so that a routing that may multicast keeps the bitmask router and only the cycles
// with a multicast at the switch pay for it.
//
// The general router's order, for its configuration here (wormhole, speedup 1, one-pass input-first):
//  1. every multicast that can advance (a credit on every branch), nearest after mc_rr_ first, takes its
//     input port and all its branch outputs if none of them is taken yet;
//  2. every other input port picks one of its VCs that can advance (unicasts, and multicasts not taken),
//     the first after its last winner; a unicast whose output a multicast took loses there;
//  3. every output not taken grants one of the ports that asked for it, the first after its last winner;
//     a multicast not taken always lacks one of its branches (a multicast before it took it), so what it
//     wins lapses this cycle and nobody crosses there.
// Multicasts cross in the order they were taken, as the general router clones their packets in that
// order (packet ids are part of the result); unicast winners use distinct ports, so their order is free.
#include <bit>

#include "net/bit_ops.hpp"
#include "net/network.hpp"

namespace mppnet::net {

using bits::bit;
using bits::either;

std::uint64_t Network::switch_multicasts_fast(RouterId r, std::uint64_t go, std::uint64_t held, bool& moved) {
  RouterState& rs = router_[r];
  const std::int32_t base = rs.base;
  const std::int32_t ivc0 = base * vcs_;
  const int vcs = vcs_;
  const int n = rs.ports * vcs;
  const std::uint64_t vc_mask = bit(vcs) - 1;
  constexpr int kBranches = topo::kMaxRouteCandidates;
  // A multicast's branch outputs as a mask of ports; whether each of them has a credit (lockstep).
  auto outputs = [&](int i) {
    const topo::RouteSet& route = ivc_route_[ivc0 + i];
    std::uint64_t ports = 0;
    for (int c = 0; c < route.count; ++c) ports |= bit(route.ports[c]);
    return ports;
  };
  std::uint64_t can = 0;
  for (std::uint64_t h = held; h != 0; h &= h - 1) {
    const int i = std::countr_zero(h);
    const std::int32_t g = ivc0 + i;
    const topo::RouteSet& route = ivc_route_[g];
    const std::int8_t* vc = &branch_vc_[static_cast<std::size_t>(g) * kBranches];
    bool credits = true;
    for (int c = 0; c < route.count; ++c) credits &= ovc_[(base + route.ports[c]) * vcs + vc[c]].credits > 0;
    can |= credits ? bit(i) : 0;
  }

  // 1. Multicasts first and whole, nearest after the pointer first.
  std::int32_t taken_order[64];
  int taken_count = 0;
  std::uint64_t taken = 0, ports_taken = 0, outs_taken = 0;
  const std::uint64_t from_pointer = ~(bit(mc_rr_[r]) - 1);
  for (const std::uint64_t part : {can & from_pointer, can & ~from_pointer}) {
    for (std::uint64_t m = part; m != 0; m &= m - 1) {
      const int i = std::countr_zero(m);
      const int p = local_port_[i];
      const std::uint64_t outs = outputs(i);
      if ((ports_taken & bit(p)) != 0 || (outs_taken & outs) != 0) continue;
      ports_taken |= bit(p);
      outs_taken |= outs;
      taken |= bit(i);
      taken_order[taken_count++] = i;
    }
  }

  // 2. Input stage among the ports not taken.
  std::uint64_t candidates = go | (can & ~taken);
  for (std::uint64_t t = ports_taken; t != 0; t &= t - 1)
    candidates &= ~(vc_mask << (std::countr_zero(t) * vcs));
  std::uint64_t* requests = out_requests_.data();
  std::int32_t* pick = port_pick_.data();
  std::uint64_t asked_outputs = 0;
  while (candidates != 0) {
    const int p = local_port_[std::countr_zero(candidates)];
    const std::uint64_t port_bits = vc_mask << (p * vcs);
    const std::uint64_t mine = candidates & port_bits;
    candidates &= ~port_bits;
    const std::uint64_t after = mine & ~(((rs.sa_in & port_bits) << 1) - 1);
    const int i = std::countr_zero(either(after, mine));
    pick[p] = i;
    const std::uint64_t wants =
        ((held & bit(i)) != 0 ? outputs(i) : bit(ivc_[ivc0 + i].out_port)) & ~outs_taken;
    for (std::uint64_t o = wants; o != 0; o &= o - 1) requests[std::countr_zero(o)] |= bit(p);
    asked_outputs |= wants;
  }

  // 3. Output stage: a unicast that wins its output crosses; what a multicast wins lapses.
  std::uint64_t winners = 0;
  for (; asked_outputs != 0; asked_outputs &= asked_outputs - 1) {
    const int o = std::countr_zero(asked_outputs);
    const std::uint64_t asked = requests[o];
    requests[o] = 0;
    const std::uint64_t after = asked & ~((std::uint64_t{2} << ((rs.sa_out >> (4 * o)) & 15)) - 1);
    const int i = pick[std::countr_zero(either(after, asked))];
    winners |= bit(i) & ~held;
  }

  // The taken multicasts cross, in the order taken; the pointers move past them as the general
  // router's do (input port: its VC; each branch output: its input port; multicasts: past it).
  for (int k = 0; k < taken_count; ++k) {
    const int i = taken_order[k];
    const int p = local_port_[i];
    const std::int32_t g = ivc0 + i;
    const topo::RouteSet& route = ivc_route_[g];
    const std::int8_t* vc = &branch_vc_[static_cast<std::size_t>(g) * kBranches];
    rs.sa_in = (rs.sa_in & ~(vc_mask << (p * vcs))) | bit(i);
    for (int c = 0; c < route.count; ++c) {
      const int o = route.ports[c];
      rs.sa_out = (rs.sa_out & ~(std::uint64_t{15} << (4 * o))) | (std::uint64_t(p) << (4 * o));
    }
    mc_rr_[r] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
    const Flit f = cross_multicast(r, i);
    if (ivc_[g].count == 0) rs.occupied &= ~bit(i);
    if (f.tail) {
      for (int c = 0; c < route.count; ++c) rs.free |= bit(route.ports[c] * vcs + vc[c]);
      rs.alloc &= ~bit(i);
      rs.routed &= ~bit(i);
    }
  }
  moved = taken_count > 0;
  return winners;
}

}  // namespace mppnet::net
