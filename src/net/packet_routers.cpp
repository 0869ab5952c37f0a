// net/packet_routers.cpp: the packet-level model's routers: routing a waiting head and granting it an
// output channel, a VC and the room behind it.
#include <algorithm>

#include "core/error.hpp"
#include "net/packet_network.hpp"

namespace mppnet::net {

// Each input port sends one packet at a time; the ports are taken in an order that rotates every
// cycle, and each port's VCs in order, so no input starves. A router that can grant nothing sleeps until
// the first cycle something of its own could go (a channel or an input port freed, a head ready) or a
// credit or a head arrives.
Cycle PacketNetwork::allocate(RouterId r) {
  if (router_waiting_[r] == 0) return kNever;
  const int base = graph_.port_base[r];
  const int n = graph_.num_ports(r);
  const int start = rr_[r] % n;
  rr_[r] = static_cast<std::uint8_t>((start + 1) % n);
  Cycle again = kNever;
  for (int k = 0; k < n; ++k) {
    const int p = start + k < n ? start + k : start + k - n;
    const int gp = base + p;
    const std::size_t first = static_cast<std::size_t>(gp) * vcs_;
    bool waiting = false;
    for (int vc = 0; vc < vcs_ && !waiting; ++vc) waiting = fifo_[first + vc].length > 0;
    if (!waiting) continue;
    if (input_free_[gp] > now_) {
      again = std::min(again, input_free_[gp]);
      continue;
    }
    for (int vc = 0; vc < vcs_; ++vc) {
      const Fifo& f = fifo_[first + vc];
      if (f.length == 0) continue;
      if (waiting_[f.head].ready > now_) {
        again = std::min(again, waiting_[f.head].ready);
        continue;
      }
      const Cycle t = grant(r, p, vc);
      if (t == kGranted) {
        again = std::min(again, input_free_[gp]);  // the port sends it; others may wait behind
        break;
      }
      again = std::min(again, t);
    }
  }
  return router_waiting_[r] == 0 ? kNever : std::max(again, now_ + 1);
}

Cycle PacketNetwork::grant(RouterId r, int in_port, int vc) {
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
      if (credits_[cv] < need) continue;  // a credit's return wakes the router
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
