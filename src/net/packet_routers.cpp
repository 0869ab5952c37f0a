// net/packet_routers.cpp: the packet-level model's routers: routing a waiting head and granting it an
// output channel, a VC and the room behind it.
#include <algorithm>
#include <bit>
#include <utility>

#include "core/error.hpp"
#include "net/packet_network.hpp"

namespace mppnet::net {

// Each input port sends one packet at a time. The ports are taken in an order that rotates with the
// cycle, and each port's VCs round robin from the one after its last grant, so no input and no VC
// starves; a visit that grants nothing changes nothing. Returns the next cycle a head could go
// without a credit coming back (kNever: none), and leaves in credit_wake_ the outputs whose credits
// could let a head go sooner.
Cycle PacketNetwork::allocate(RouterId r) {
  const std::uint64_t credited = credited_[r];
  credited_[r] = 0;
  credit_wake_[r] = 0;
  if (router_waiting_[r] == 0) return kNever;
  const int base = graph_.port_base[r];
  const int n = graph_.num_ports(r);
  const int start = static_cast<int>(now_ % n);
  Cycle again = kNever;
  std::uint64_t wake = 0;
  for (int k = 0; k < n; ++k) {
    const int p = start + k < n ? start + k : start + k - n;
    const int gp = base + p;
    const std::uint64_t waiting = port_waiting_[gp];
    if (waiting == 0) continue;
    const std::size_t first = static_cast<std::size_t>(gp) * vcs_;
    // The VCs from the one after the port's last grant, then the rest.
    const std::uint64_t late_vcs = ~std::uint64_t{0} << next_vc_[gp];
    std::uint64_t vcs = waiting & late_vcs, rest = waiting & ~late_vcs;
    for (; vcs != 0 || rest != 0; vcs &= vcs - 1) {
      if (vcs == 0) std::swap(vcs, rest);
      const int vc = std::countr_zero(vcs);
      Fifo& f = fifo_[first + vc];
      if (f.credit_ports & credited) f.not_before = now_;  // room it lacked came back
      if (input_free_[gp] > now_ || f.not_before > now_) {
        again = std::min(again, std::max(input_free_[gp], f.not_before));
        wake |= f.credit_ports;
        continue;
      }
      std::uint64_t credit_ports = 0;
      const Cycle t = grant(r, p, vc, credit_ports);
      if (t == kGranted) {
        next_vc_[gp] = static_cast<std::uint8_t>(vc + 1 < vcs_ ? vc + 1 : 0);
        // The port sends it; the next packet of this VC, if any, is the new head.
        again = std::min(again, input_free_[gp]);
        if (f.length > 0) {
          f.not_before = waiting_[f.head].ready;
          f.credit_ports = 0;
        } else {
          port_waiting_[gp] &= ~(std::uint64_t{1} << vc);
        }
        continue;
      }
      f.not_before = t;
      f.credit_ports = credit_ports;
      again = std::min(again, t);
      wake |= credit_ports;
    }
  }
  credit_wake_[r] = wake;
  return router_waiting_[r] == 0 ? kNever : std::max(again, now_ + 1);
}

Cycle PacketNetwork::grant(RouterId r, int in_port, int vc, std::uint64_t& credit_ports) {
  const int gp = graph_.port_base[r] + in_port;
  const std::size_t ivc = static_cast<std::size_t>(gp) * vcs_ + vc;
  Fifo& f = fifo_[ivc];
  Waiting& w = waiting_[f.head];
  const PacketId id = w.packet;
  const Carried p = w.carried;
  const int first_vc = p.vnet * vcs_per_vnet_;
  if (!w.routed) {
    topo::PacketHead head{.dest = p.dest};
    if (packets_.keeps_route_headers()) {
      // As in the flit model: the header from its side array, a random value of (seed, packet, router,
      // cycle) alone.
      head.header = packets_.route_header(id);
      head.random = core::splitmix64(
          route_key_ ^ core::splitmix64((std::uint64_t{id} << 32) ^ static_cast<std::uint64_t>(r)) ^
          static_cast<std::uint64_t>(now_) * 0x9e3779b97f4a7c15ULL);
    }
    w.route = routing_.route(r, in_port, vc - first_vc, head);
    if (packets_.keeps_route_headers()) packets_.route_header(id) = head.header;
    MPPNET_ASSERT(w.route.count > 0, "routing returned no candidate port");
    w.route.vc_lo = static_cast<std::uint8_t>(w.route.vc_lo + first_vc);
    w.route.vc_hi = static_cast<std::uint8_t>(w.route.vc_hi + first_vc);
    w.routed = true;
  }
  const topo::RouteSet& rs = w.route;
  const int need = needed_credits(p.flits);
  // The usable candidates: channel free, and a VC of the route free with room for the packet.
  int usable[topo::kMaxRouteCandidates];
  int usable_vc[topo::kMaxRouteCandidates];
  int found = 0;
  Cycle retry = kNever;  // the first cycle a busy channel or VC with room frees
  for (int c = 0; c < rs.count; ++c) {
    const int channel = graph_.port_base[r] + rs.ports[c];
    if (channel_free_[channel] > now_) {
      retry = std::min(retry, channel_free_[channel]);
      continue;
    }
    for (int v = rs.vc_lo; v <= rs.vc_hi; ++v) {
      const std::size_t cv = static_cast<std::size_t>(channel) * vcs_ + v;
      if (credits_[cv] < need) {  // a credit's return wakes the router
        credit_ports |= port_bit(rs.ports[c]);
        continue;
      }
      if (vc_free_[cv] > now_) {
        retry = std::min(retry, vc_free_[cv]);
        continue;
      }
      usable[found] = channel;
      usable_vc[found++] = v;
      break;
    }
  }
  if (found == 0) return retry;
  int pick = 0;
  if (found > 1) {
    if (routing_.port_selection() == topo::PortSelection::MostCredits) {
      int best = -1;
      for (int c = 0; c < found; ++c) {
        const int room = credits_[static_cast<std::size_t>(usable[c]) * vcs_ + usable_vc[c]];
        if (room > best) {
          best = room;
          pick = c;
        }
      }
    } else {
      pick = static_cast<int>(router_rng_[r].below(static_cast<std::uint32_t>(found)));
    }
  }
  const int channel = usable[pick];
  const std::size_t cv = static_cast<std::size_t>(channel) * vcs_ + usable_vc[pick];
  channel_free_[channel] = now_ + p.flits;
  vc_free_[cv] = now_ + p.flits;
  credits_[cv] -= need;
  input_free_[gp] = now_ + p.flits;
  // From now on its flits leave the buffer one a cycle, and flits behind them arrive no faster: its
  // whole room can be handed back as soon as the first credit is home.
  push_event(now_ + params_.credit_cycles(), EventKind::Credit, upstream_[gp] * vcs_ + vc,
             static_cast<std::uint32_t>(need));
  push_event(now_ + params_.pipeline_cycles + params_.channel_latency, EventKind::Arrive,
             downstream_[channel] * vcs_ + static_cast<int>(cv % vcs_), id, p);
  ++packets_.hops(id);
  counters_.flit_hops += p.flits;
  port_flits_[channel] += p.flits;
  last_progress_ = now_;
  const std::uint32_t next = w.next;
  free_waiting_.push_back(f.head);
  f.head = next;
  if (--f.length == 0) f.tail = kNoWaiting;
  --router_waiting_[r];
  return kGranted;
}

}  // namespace mppnet::net
