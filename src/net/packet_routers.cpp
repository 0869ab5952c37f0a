// net/packet_routers.cpp: the packet-level model's routers: routing a waiting head and granting it an
// output channel, a VC and the room behind it.
#include <algorithm>
#include <bit>
#include <utility>

#include "core/error.hpp"
#include "net/packet_network.hpp"

namespace mppnet::net {

// A head is taken in two steps, as in the flit model: it is given an output VC (routing, then one of the
// route's ports with a free VC, at random or by credits as the routing says), which it holds from then
// on; then, once its input port and that channel are free and the buffer behind the VC has room for it,
// it is sent. Each input port sends one packet at a time. The ports are taken in an order that rotates
// with the cycle, and each port's VCs round robin from the one after its last send, so no input and no
// VC starves; a visit that changes nothing leaves no trace. Returns the next cycle a head could move
// without a credit or a VC coming back (kNever: none), and leaves in the router's credit_wake the outputs
// whose credits or VCs could let a head move sooner.
Cycle PacketNetwork::allocate(RouterId r) {
  const std::uint64_t credited = router_[r].credited;
  router_[r].credited = 0;
  if (router_[r].waiting == 0) {
    router_[r].credit_wake = 0;
    return kNever;
  }
  // router_[r].credit_wake keeps the last visit's waiters until this visit ends: a send below that lets a VC
  // go must wake the heads parked for it in earlier visits too (send() reads it with `wake`).
  const int base = router_[r].port_base;
  const int n = router_[r].ports;
  const int start = static_cast<int>(now_ % n);
  Cycle again = kNever;
  std::uint64_t wake = 0;
  const auto visit = [&](int p) {
    const int gp = base + p;
    const std::uint64_t waiting = port_[gp].waiting;
    if (waiting == 0) return;
    const std::size_t first = static_cast<std::size_t>(gp) * vcs_;
    // The VCs from the one after the port's last send, then the rest.
    const std::uint64_t late_vcs = ~std::uint64_t{0} << port_[gp].next_vc;
    std::uint64_t vcs = waiting & late_vcs, rest = waiting & ~late_vcs;
    for (; vcs != 0 || rest != 0; vcs &= vcs - 1) {
      if (vcs == 0) std::swap(vcs, rest);
      const int vc = std::countr_zero(vcs);
      Fifo& f = fifo_[first + vc];
      if (f.credit_ports & credited) f.not_before = now_;  // room or a VC it lacked came back
      if (f.not_before > now_) {
        again = std::min(again, f.not_before);
        wake |= f.credit_ports;
        continue;
      }
      std::uint64_t credit_ports = 0;
      Cycle t = f.held < 0 ? take_vc(r, p, vc, credit_ports) : kGranted;
      if (t == kGranted) {
        if (port_[gp].in_free > now_) {  // it holds its VC and sleeps until the port is free
          f.not_before = port_[gp].in_free;
          f.credit_ports = 0;
          again = std::min(again, port_[gp].in_free);
          continue;
        }
        t = send(r, p, vc, credit_ports, wake);
      }
      if (t == kGranted) {
        port_[gp].next_vc = static_cast<std::uint8_t>(vc + 1 < vcs_ ? vc + 1 : 0);
        // The port sends it; the next packet of this VC, if any, is the new head.
        again = std::min(again, port_[gp].in_free);
        if (f.length > 0) {
          begin_head(f);
        } else {
          port_[gp].waiting &= ~(std::uint64_t{1} << vc);
        }
        continue;
      }
      f.not_before = t;
      f.credit_ports = credit_ports;
      again = std::min(again, t);
      wake |= credit_ports;
    }
    if (port_[gp].waiting == 0) router_[r].ports_waiting &= ~port_bit(p);
  };
  // Only the ports with waiting heads, from `start` round. The mask is read once: nothing in a visit
  // adds a waiting packet (arrivals are events). Above 64 ports its bits alias and it is not used.
  if (n <= 64) {
    const std::uint64_t from_start = ~std::uint64_t{0} << start;
    for (std::uint64_t late = router_[r].ports_waiting & from_start,
                       early = router_[r].ports_waiting & ~from_start;
         late != 0 || early != 0;) {
      std::uint64_t& next = late != 0 ? late : early;
      const int p = std::countr_zero(next);
      next &= next - 1;
      visit(p);
    }
  } else {
    for (int k = 0; k < n; ++k) visit(start + k < n ? start + k : start + k - n);
  }
  router_[r].credit_wake = wake;
  return router_[r].waiting == 0 ? kNever : std::max(again, now_ + 1);
}

// Routes the head of input VC (in_port, vc) if it is not yet, and gives it a free VC of its route:
// kGranted. Else says from when a VC might be free (kNever: when one held by a waiting head is let go,
// on one of `vc_ports`).
Cycle PacketNetwork::take_vc(RouterId r, int in_port, int vc, std::uint64_t& vc_ports) {
  const int gp = router_[r].port_base + in_port;
  Waiting& w = waiting_[fifo_[static_cast<std::size_t>(gp) * vcs_ + vc].head];
  const PacketId id = w.packet;
  const Carried& p = w.carried;
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
      if (packets_.keeps_source_routes()) head.source_route = &packets_.source_route(id);
    }
    w.route = routing_.route(r, in_port, vc - first_vc, head);
    if (packets_.keeps_route_headers()) packets_.route_header(id) = head.header;
    MPPNET_ASSERT(w.route.count > 0, "routing returned no candidate port");
    w.route.vc_lo = static_cast<std::uint8_t>(w.route.vc_lo + first_vc);
    // In order (RouterParams::in_order): the route's lowest VC only, as in the flit model.
    w.route.vc_hi = params_.in_order ? w.route.vc_lo : static_cast<std::uint8_t>(w.route.vc_hi + first_vc);
    w.routed = true;
  }
  const topo::RouteSet& rs = w.route;
  // Per candidate port its first free VC of the route, if any.
  int free_channel[topo::kMaxRouteCandidates];
  int free_vc[topo::kMaxRouteCandidates];
  int found = 0;
  Cycle retry = kNever;  // the first cycle a VC whose tail is passing frees
  for (int c = 0; c < rs.count; ++c) {
    const int channel = router_[r].port_base + rs.ports[c];
    for (int v = rs.vc_lo; v <= rs.vc_hi; ++v) {
      const Cycle from = out_vc_[static_cast<std::size_t>(channel) * vcs_ + v].free;
      if (from <= now_) {
        free_channel[found] = channel;
        free_vc[found++] = v;
        break;
      }
      if (from == kNever) {
        vc_ports |= port_bit(rs.ports[c]);  // held by a head still here: its send wakes us
      } else {
        retry = std::min(retry, from);
      }
    }
  }
  if (found == 0) return retry;
  int pick = 0;
  if (found > 1) {
    if (routing_.port_selection() == topo::PortSelection::MostCredits) {
      int best = -1;
      for (int c = 0; c < found; ++c) {
        const int room = out_vc_[static_cast<std::size_t>(free_channel[c]) * vcs_ + free_vc[c]].credits;
        if (room > best) {
          best = room;
          pick = c;
        }
      }
    } else {
      pick = static_cast<int>(router_[r].rng.below(static_cast<std::uint32_t>(found)));
    }
  }
  const int held = free_channel[pick] * vcs_ + free_vc[pick];
  fifo_[static_cast<std::size_t>(gp) * vcs_ + vc].held = held;
  out_vc_[static_cast<std::size_t>(held)].free = kNever;  // held until its tail passes
  return kGranted;
}

// Sends the head of input VC (in_port, vc), which holds an output VC, if its channel is free and the
// buffer behind has room for it: kGranted. Else says from when the channel is free (kNever: when a
// credit comes back, on one of `credit_ports`). `waiters` are the ports whose freed VCs heads of this
// router wait for (this visit's so far): letting one go then wakes the router when it is free.
Cycle PacketNetwork::send(RouterId r, int in_port, int vc, std::uint64_t& credit_ports,
                          std::uint64_t waiters) {
  const int gp = router_[r].port_base + in_port;
  const std::size_t ivc = static_cast<std::size_t>(gp) * vcs_ + vc;
  Fifo& f = fifo_[ivc];
  Waiting& w = waiting_[f.head];
  const auto cv = static_cast<std::size_t>(f.held);
  const int channel = f.held / vcs_;
  const PacketId id = w.packet;
  const Carried p = w.carried;
  const int need = needed_credits(p.flits);
  if (port_[channel].channel_free > now_) return port_[channel].channel_free;
  if (out_vc_[cv].credits < need) {  // a credit's return wakes the router
    credit_ports |= port_bit(channel - router_[r].port_base);
    return kNever;
  }
  port_[channel].channel_free = now_ + p.flits;
  out_vc_[cv].free = now_ + p.flits;
  out_vc_[cv].credits -= need;
  port_[gp].in_free = now_ + p.flits;
  const std::uint64_t released = port_bit(channel - router_[r].port_base);
  if ((waiters | router_[r].credit_wake) & released) {
    push_credit(now_ + p.flits, static_cast<std::int32_t>(cv), 0,  // the VC is free
                {r, channel - router_[r].port_base});
  }
  // From now on its flits leave the buffer one a cycle, and flits behind them arrive no faster: its
  // whole room can be handed back as soon as the first credit is home.
  push_credit(now_ + params_.credit_cycles(), port_[gp].upstream * vcs_ + vc,
              static_cast<std::uint32_t>(need), port_[gp].upstream_credit);
  push_event(now_ + params_.pipeline_cycles + params_.channel_latency, EventKind::Arrive,
             port_[channel].downstream * vcs_ + static_cast<int>(cv % vcs_), id, p);
  ++packets_.hops(id);
  counters_.flit_hops += p.flits;
  port_flits_[channel] += p.flits;
  last_progress_ = now_;
  const std::uint32_t next = w.next;
  free_waiting_.push_back(f.head);
  f.head = next;
  f.held = -1;
  if (--f.length == 0) f.tail = kNoWaiting;
  --router_[r].waiting;
  return kGranted;
}

}  // namespace mppnet::net
