// net/packet_network.cpp: the packet-level model's state, events, sources and ejection ports.
#include "net/packet_network.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::net {

PacketNetwork::PacketNetwork(const topo::Graph& graph, const topo::Routing& routing,
                             const RouterParams& params, std::uint64_t seed)
    : graph_(graph), routing_(routing), params_(params) {
  if (routing.may_multicast())
    throw std::invalid_argument(
        "network.model = \"packet\": this topology's routing multicasts, which the "
        "packet-level model does not model; use network.model = \"flit\"");
  vcs_ = params.vcs;
  vnets_ = params.vnets;
  vcs_per_vnet_ = params.vcs_per_vnet();
  ports_ = static_cast<int>(graph.ports.size());
  links_ = graph.num_nodes * graph.links_per_node;
  const auto channels = static_cast<std::size_t>(ports_ + links_);
  port_.assign(channels, {});
  out_vc_.assign(channels * vcs_, OutVc{.free = 0, .credits = params.buffer_flits});
  fifo_.assign(channels * vcs_, {});
  router_.reserve(static_cast<std::size_t>(graph.num_routers()));
  for (RouterId r = 0; r < graph.num_routers(); ++r) {
    RouterState& rs = router_.emplace_back();
    rs.port_base = graph.port_base[r];
    rs.ports = graph.num_ports(r);
    rs.rng = core::RandomStream(seed, static_cast<std::uint64_t>(r), core::Stream::RouteChoice);
  }
  for (RouterId r = 0; r < graph.num_routers(); ++r) {
    for (PortId p = 0; p < graph.num_ports(r); ++p) {
      const int gp = graph.port_base[r] + p;
      port_[gp].router = r;
      const topo::PortLink& l = graph.link(r, p);
      if (l.kind == topo::PeerKind::Router) {
        port_[gp].downstream = graph.port_base[l.peer] + l.peer_port;
        port_[graph.port_base[l.peer] + l.peer_port].upstream = gp;
      } else if (l.kind == topo::PeerKind::Node) {
        const int link = l.peer * graph.links_per_node + l.peer_port;
        port_[gp].downstream = ports_ + link;  // the node's ejection port
        port_[ports_ + link].upstream = gp;
      }
    }
  }
  for (int link = 0; link < links_; ++link) {
    const topo::NodeLink& nl = graph.node_links[link];
    const int gp = graph.port_base[nl.router] + nl.port;
    port_[channel_of_node_link(link)].downstream = gp;
    port_[gp].upstream = channel_of_node_link(link);
  }
  for (PortState& ps : port_) {
    if (ps.upstream < 0) continue;
    if (ps.upstream < ports_) {
      const RouterId ur = port_[ps.upstream].router;
      ps.upstream_credit = {ur, ps.upstream - graph.port_base[ur]};
    } else {
      ps.upstream_credit = {-1, (ps.upstream - ports_) / graph.links_per_node};
    }
  }
  sources_.assign(static_cast<std::size_t>(graph.num_nodes) * vnets_, {});
  eject_hold_.assign(static_cast<std::size_t>(graph.num_nodes) * vnets_, 0);
  eject_free_.assign(static_cast<std::size_t>(links_), 0);
  router_due_.assign((static_cast<std::size_t>(graph.num_routers()) + 63) / 64, 0);
  node_active_.assign(static_cast<std::size_t>(graph.num_nodes), 0);
  node_wake_at_.assign(static_cast<std::size_t>(graph.num_nodes), -1);
  for (NodeId v = 0; v < graph.num_nodes; ++v)
    node_rng_.emplace_back(seed, static_cast<std::uint64_t>(v), core::Stream::Arrival);
  port_flits_.assign(static_cast<std::size_t>(ports_), 0);
  if (routing.needs_header()) packets_.keep_route_headers();
  if (routing.needs_source_route()) packets_.keep_source_routes();
  route_key_ = core::splitmix64(seed ^ 0x7061636b6574ULL);  // "packet"
  wheel_.resize(kWheel);
}

PacketId PacketNetwork::inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                               const topo::SourceRoute& route) {
  MPPNET_ASSERT(packets_.keeps_source_routes(), "a source route for a routing that steers by none");
  if (const std::string problem = topo::source_route_problem(route); !problem.empty())
    throw std::invalid_argument(problem);
  const PacketId id = inject(src, dest, flits, tag, vnet, 0);  // cursor 0: the first byte
  packets_.source_route(id) = route;
  return id;
}

PacketId PacketNetwork::inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                               std::uint64_t route_header) {
  MPPNET_ASSERT(vnet >= 0 && vnet < vnets_ && flits >= 1, "a packet of a virtual network the network has");
  const PacketId id = packets_.allocate();
  Packet& p = packets_[id];
  p.src = src;
  p.dest = dest;
  p.flits = flits;
  p.created = now_;
  p.tag = tag;
  p.vnet = vnet;
  if (packets_.keeps_route_headers()) packets_.route_header(id) = route_header;
  SourceQueue& q = sources_[static_cast<std::size_t>(src * vnets_ + vnet)];
  if (q.tail == kNoPacket) {
    q.head = id;
  } else {
    packets_[q.tail].next = id;
  }
  q.tail = id;
  ++q.length;
  ++queued_packets_;
  activate_node(src);
  return id;
}

void PacketNetwork::hold_ejection(NodeId v, int vnet, bool hold) {
  eject_hold_[static_cast<std::size_t>(v * vnets_ + vnet)] = hold ? 1 : 0;
  if (hold) return;
  for (int i = 0; i < graph_.links_per_node; ++i) {
    push_event(now_, EventKind::Drained, v * graph_.links_per_node + i, 0);
  }
}

void PacketNetwork::activate_router(RouterId r) {
  router_due_[static_cast<std::size_t>(r) >> 6] |= std::uint64_t{1} << (r & 63);
}

bool PacketNetwork::sooner_wake(Cycle& pending, Cycle t) const {
  if (pending > now_ && pending <= t) return false;  // one due by then is pending already
  pending = t;
  return true;
}

void PacketNetwork::wake_router(RouterId r, Cycle t) {
  if (t <= now_) {
    activate_router(r);
  } else if (sooner_wake(router_[r].wake_at, t)) {
    push_event(t, EventKind::Wake, r, 0);
  }
}

void PacketNetwork::wake_node(NodeId v, Cycle t) {
  if (sooner_wake(node_wake_at_[v], t)) push_event(t, EventKind::NodeWake, v, 0);
}

void PacketNetwork::activate_node(NodeId v) {
  if (node_active_[v]) return;
  node_active_[v] = 1;
  active_nodes_.push_back(v);
}

std::uint32_t PacketNetwork::new_waiting() {
  if (!free_waiting_.empty()) {
    const std::uint32_t w = free_waiting_.back();
    free_waiting_.pop_back();
    return w;
  }
  waiting_.emplace_back();
  return static_cast<std::uint32_t>(waiting_.size() - 1);
}

void PacketNetwork::step() {
  delivered_.clear();
  if (pending_events_ > 0) {
    while (!far_.empty() && far_.begin()->first <= now_) {
      const Event e = far_.begin()->second;
      far_.erase(far_.begin());
      --pending_events_;
      handle(e);
    }
    // Handling may add events of this same cycle (a one-flit packet's delivery): they go on the list.
    std::vector<Event>& bucket = wheel_[static_cast<std::size_t>(now_ & (kWheel - 1))];
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      const Event e = bucket[i];
      --pending_events_;
      handle(e);
    }
    bucket.clear();
  }
  // Nodes start what their links and the first buffers take (in the order they became active: each
  // touches only its own links, so the order changes nothing); then routers grant.
  // A node that cannot send sleeps until a channel or VC of its frees, a credit returns or a packet is
  // queued.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < active_nodes_.size(); ++i) {
    const NodeId v = active_nodes_[i];
    const Cycle again = start_packets(v);
    bool more = false;
    for (int vn = 0; vn < vnets_; ++vn)
      more = more || sources_[static_cast<std::size_t>(v * vnets_ + vn)].length > 0;
    if (more && again == now_ + 1) {
      active_nodes_[kept++] = v;
      continue;
    }
    node_active_[v] = 0;
    if (more && again != kNever) wake_node(v, again);
  }
  active_nodes_.resize(kept);
  // Routers due in increasing order, so that neighbouring routers' state is walked in memory order (on
  // a large network most of the time goes to cache misses otherwise). A router touches only its own
  // state here, so the order changes nothing but the order of its events within a later cycle.
  again_next_.clear();
  for (std::size_t word = 0; word < router_due_.size(); ++word) {
    for (std::uint64_t due = std::exchange(router_due_[word], 0); due != 0; due &= due - 1) {
      const auto r = static_cast<RouterId>(word * 64 + static_cast<std::size_t>(std::countr_zero(due)));
      const Cycle again = allocate(r);
      if (again == now_ + 1) {
        again_next_.push_back(r);
      } else if (again != kNever) {
        wake_router(r, again);
      }
    }
  }
  for (const RouterId r : again_next_) activate_router(r);
  ++now_;
}

void PacketNetwork::handle(const Event& e) {
  switch (e.kind) {
    case EventKind::Arrive:
      arrive(e.where, e.value, e.carried);
      break;
    case EventKind::Credit: {
      out_vc_[static_cast<std::size_t>(e.where)].credits += static_cast<std::int32_t>(e.value);
      const CreditTo& to = e.credit_to;
      if (to.router >= 0) {
        RouterState& rs = router_[to.router];
        const std::uint64_t bit = port_bit(to.port_or_node);
        rs.credited |= bit;
        if (rs.credit_wake & bit) activate_router(to.router);
      } else {
        activate_node(to.port_or_node);
      }
      break;
    }
    case EventKind::Deliver: {
      const PacketId id = e.value;
      Packet& p = packets_[id];
      p.delivered = now_;
      p.hops = packets_.hops(id);
      counters_.flits_ejected += p.flits;
      ++counters_.packets_delivered;
      delivered_.push_back(id);
      last_progress_ = now_;
      // The port takes its next packet in the next cycle.
      push_event(now_ + 1, EventKind::Drained, e.where / vcs_ - ports_, 0);
      break;
    }
    case EventKind::Drained:
      drain(e.where);
      break;
    case EventKind::Wake:
      if (router_[e.where].wake_at == now_) activate_router(e.where);  // else a stale, later wake
      break;
    case EventKind::NodeWake:
      if (node_wake_at_[e.where] == now_) activate_node(e.where);
      break;
  }
}

// A head reaches an input VC: it waits there in arrival order.
void PacketNetwork::arrive(std::int32_t ivc, PacketId id, const Carried& carried) {
  const std::uint32_t w = new_waiting();
  Waiting& rec = waiting_[w];
  rec = Waiting{};
  rec.packet = id;
  rec.carried = carried;
  // Store-and-forward routes a packet only once its tail is in; cut-through and wormhole at its head.
  rec.ready = now_ + params_.head_cycles() +
              (params_.switching == Switching::StoreAndForward ? carried.flits - 1 : 0);
  Fifo& f = fifo_[static_cast<std::size_t>(ivc)];
  if (f.tail == kNoWaiting) {
    f.head = w;
  } else {
    waiting_[f.tail].next = w;
  }
  f.tail = w;
  const int port = ivc / vcs_;
  if (port < ports_) {
    const RouterId r = port_[port].router;
    ++router_[r].waiting;
    if (f.length++ == 0) {  // a new head; one behind another waits for it
      begin_head(f);
      port_[port].waiting |= std::uint64_t{1} << (ivc % vcs_);
      router_[r].ports_waiting |= port_bit(port - router_[r].port_base);
      wake_router(r, rec.ready);
    }
  } else {
    ++f.length;
    drain(port - ports_);
  }
}

// A node's ejection port drains one packet at a time at eject_flits_per_cycle, taking the VCs in order
// and passing over packets of a virtual network the node holds.
void PacketNetwork::drain(int link) {
  if (eject_free_[link] > now_) return;  // busy: its Deliver event calls again
  const NodeId v = link / graph_.links_per_node;
  const int base = (ports_ + link) * vcs_;
  for (int vc = 0; vc < vcs_; ++vc) {
    Fifo& f = fifo_[static_cast<std::size_t>(base + vc)];
    if (f.length == 0) continue;
    const Waiting& w = waiting_[f.head];
    const Carried& p = w.carried;
    if (eject_hold_[static_cast<std::size_t>(v * vnets_ + p.vnet)]) continue;
    // The tail arrives flits - 1 after the head; draining takes flits / rate cycles.
    const auto drain_cycles =
        static_cast<Cycle>(std::ceil(static_cast<double>(p.flits) / params_.eject_flits_per_cycle - 1e-9));
    const Cycle head =
        w.ready - params_.head_cycles() - (params_.switching == Switching::StoreAndForward ? p.flits - 1 : 0);
    const Cycle done = std::max(head + p.flits - 1, now_ + drain_cycles - 1);
    eject_free_[link] = done + 1;
    push_event(done, EventKind::Deliver, base + vc, w.packet);
    // The buffer's room goes back as its flits drain, no faster than new ones could fill it: all of it
    // once the first credit of the last stretch of flits-1 cycles is home.
    push_credit(done - (p.flits - 1) + params_.credit_cycles(), port_[ports_ + link].upstream * vcs_ + vc,
                static_cast<std::uint32_t>(needed_credits(p.flits)), port_[ports_ + link].upstream_credit);
    const std::uint32_t next = w.next;
    free_waiting_.push_back(f.head);
    f.head = next;
    if (--f.length == 0) f.tail = kNoWaiting;
    return;
  }
}

int PacketNetwork::injection_vc(int channel, int vnet, int need, Cycle& again) const {
  if (port_[channel].channel_free > now_) {
    again = std::min(again, port_[channel].channel_free);
    return -1;
  }
  // In order (RouterParams::in_order): the network's first VC only, as in the flit model.
  const int last = params_.in_order ? vnet * vcs_per_vnet_ + 1 : (vnet + 1) * vcs_per_vnet_;
  for (int k = vnet * vcs_per_vnet_; k < last; ++k) {
    const OutVc& o = out_vc_[static_cast<std::size_t>(channel) * vcs_ + k];
    if (o.free > now_) {
      again = std::min(again, o.free);
    } else if (o.credits >= need) {
      return k;
    }
  }
  return -1;  // short of room: the credit's return wakes the node
}

// A node starts the front packet of each virtual network on a link that can take it now: its channel
// free and a VC of that network free with room for the packet behind it; at random among such links.
// Drawing only when a packet goes keeps the draws independent of how often the node is tried, so a node
// that cannot send sleeps (returns the cycle a channel or VC frees; a credit's return wakes it sooner).
Cycle PacketNetwork::start_packets(NodeId v) {
  const int links = graph_.links_per_node;
  Cycle again = kNever;
  std::vector<std::pair<int, int>>& usable = usable_links_;  // (channel, VC) of each link that can take it
  for (int vn = 0; vn < vnets_; ++vn) {
    SourceQueue& q = sources_[static_cast<std::size_t>(v * vnets_ + vn)];
    while (q.head != kNoPacket) {
      const PacketId id = q.head;
      Packet& p = packets_[id];
      const int need = needed_credits(p.flits);
      usable.clear();
      for (int l = 0; l < links; ++l) {
        const int c = channel_of_node_link(v * links + l);
        const int k = injection_vc(c, vn, need, again);
        if (k >= 0) usable.emplace_back(c, k);
      }
      if (usable.empty()) break;  // this network waits; the other may go
      const std::size_t pick =
          usable.size() > 1 ? node_rng_[v].below(static_cast<std::uint32_t>(usable.size())) : 0;
      const auto [channel, vc] = usable[pick];
      q.head = p.next;
      if (q.head == kNoPacket) q.tail = kNoPacket;
      p.next = kNoPacket;
      --q.length;
      --queued_packets_;
      const std::size_t cv = static_cast<std::size_t>(channel) * vcs_ + vc;
      port_[channel].channel_free = now_ + p.flits;
      out_vc_[cv].free = now_ + p.flits;
      out_vc_[cv].credits -= need;
      p.injected = now_;
      counters_.flits_injected += p.flits;
      ++counters_.packets_injected;
      last_progress_ = now_;
      push_event(now_ + params_.channel_latency, EventKind::Arrive, port_[channel].downstream * vcs_ + vc, id,
                 {p.dest, p.flits, p.vnet});
    }
  }
  return again;
}

std::int64_t PacketNetwork::credit_deficit() const {
  std::int64_t missing = 0;
  for (std::size_t cv = 0; cv < out_vc_.size(); ++cv) {
    if (port_[cv / static_cast<std::size_t>(vcs_)].downstream >= 0)
      missing += params_.buffer_flits - out_vc_[cv].credits;
  }
  return missing;
}

std::string PacketNetwork::describe_blocked(int max_lines) const {
  std::string out;
  int lines = 0;
  for (std::size_t ivc = 0; ivc < fifo_.size() && lines < max_lines; ++ivc) {
    const Fifo& f = fifo_[ivc];
    if (f.length == 0) continue;
    const int port = static_cast<int>(ivc) / vcs_;
    const Carried& p = waiting_[f.head].carried;
    if (port < ports_) {
      const RouterId r = port_[port].router;
      out += fmt::format("router {} input port {} vc {}: {} packets wait, the first for node {}\n", r,
                         port - router_[r].port_base, ivc % vcs_, f.length, p.dest);
    } else {
      out += fmt::format("node {} ejection vc {}: {} packets wait (ejection held or draining)\n",
                         (port - ports_) / graph_.links_per_node, ivc % vcs_, f.length);
    }
    ++lines;
  }
  return out;
}

}  // namespace mppnet::net
