// net/packet_network.hpp: the packet-level network model: whole packets, not flits, on the same graph,
// routing and router parameters as the flit-level Network.
//
// A packet is decided once per router, in two steps as in the flit model: its head is given an output
// VC (one of its route's ports with a free VC, at random or by credits as the routing says), which it
// holds; then it is sent, holding the output channel for its serialisation time (one flit a cycle). Its
// head reaches the next input after the flit model's zero-load hop time (RouterParams::hop_cycles), and
// its tail follows flits - 1 cycles behind. So at zero load both models give the same latency to the
// cycle: channel latency + routers x hop cycles + flits - 1.
//
// What is counted instead of stepped:
//  - a channel takes one head every `flits` cycles; an input port sends one packet at a time;
//  - an output VC belongs to one packet from its VC allocation until its tail has passed (as in the
//    flit model);
//  - each input VC buffer holds `buffer_flits`; a packet is sent only when the buffer behind its VC has
//    room for the whole packet, or the whole buffer for a longer one (a wormhole packet is taken as if
//    the buffer absorbed it: the blocking a long wormhole packet spreads over several routers is not
//    seen; docs/assumptions.md), and the room returns credit_cycles after its tail has left;
//  - packets wait at each input VC in arrival order; a router's heads are taken in an order of input
//    ports that rotates with the cycle, each port's VCs round robin.
// A router is visited only in the cycles where one of its heads could move: a head that cannot sleeps
// until the first cycle a channel, VC or input it needs frees, or until a credit or a held VC returns to
// an output it waits on. Visiting it in the other cycles too would change nothing.
// Time advances by events (a head's arrival, a credit's return, a delivery) in a calendar queue; step()
// handles one cycle's events and then the routers and nodes that have waiting packets, so an idle
// network costs nothing and a busy one only what moves.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <map>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "net/network_model.hpp"
#include "topo/routing.hpp"

namespace mppnet::net {

class PacketNetwork final : public NetworkModel {
 public:
  // REQUIRES: `routing` was built for `graph` with params.vcs_per_vnet() VCs; both outlive the network.
  // Throws std::invalid_argument for a routing that multicasts (not modelled at the packet level).
  PacketNetwork(const topo::Graph& graph, const topo::Routing& routing, const RouterParams& params,
                std::uint64_t seed);

  Cycle now() const override { return now_; }
  PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag = 0, int vnet = 0,
                  std::uint64_t route_header = 0) override;
  PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                  const topo::SourceRoute& route) override;
  const topo::SourceRoute& source_route(PacketId id) const override {
    MPPNET_ASSERT(packets_.keeps_source_routes(), "this network's routing keeps no source routes");
    return packets_.source_route(id);
  }
  void hold_ejection(NodeId v, int vnet, bool hold) override;
  void step() override;
  std::span<const PacketId> delivered() const override { return delivered_; }
  const Packet& packet(PacketId id) const override { return packets_[id]; }
  std::uint64_t route_header(PacketId id) const override {
    return packets_.keeps_route_headers() ? packets_.route_header(id) : 0;
  }
  void release(PacketId id) override { packets_.release(id); }

  const NetworkCounters& counters() const override { return counters_; }
  std::vector<std::int64_t> port_flits() const override { return port_flits_; }
  std::int64_t flits_in_network() const override {
    return counters_.flits_injected - counters_.flits_ejected;
  }
  std::int64_t queued_packets() const override { return queued_packets_; }
  std::int64_t source_queue_length(NodeId v, int vnet) const override {
    return sources_[static_cast<std::size_t>(v * vnets_ + vnet)].length;
  }
  bool idle() const override { return flits_in_network() == 0 && queued_packets_ == 0; }
  Cycle last_progress() const override { return last_progress_; }
  std::string describe_blocked(int max_lines = 20) const override;
  // Room missing from the buffers the channels feed: zero whenever the network is idle.
  std::int64_t credit_deficit() const;
  void shuffle_visit_order(bool) override {}  // routers are visited in one fixed order; nothing to shuffle

  const topo::Graph& graph() const override { return graph_; }
  const RouterParams& params() const override { return params_; }

 private:
  // A packet waiting at an input VC (a router's, or a node's ejection buffer), linked in arrival order.
  static constexpr std::uint32_t kNoWaiting = 0xffffffffu;
  // What a router needs of a packet travels with it, so that granting never reads the packet's cold
  // pool slot.
  struct Carried {  // no member initializers: value-initialized where an event carries none
    NodeId dest;
    std::int32_t flits;
    std::int32_t vnet;
  };
  struct Waiting {
    PacketId packet = kNoPacket;
    Carried carried{};
    Cycle ready = 0;  // when its head may bid for an output
    std::uint32_t next = kNoWaiting;
    bool routed = false;
    topo::RouteSet route;  // once routed (output VCs already moved to the packet's network)
  };
  struct Fifo {
    std::uint32_t head = kNoWaiting, tail = kNoWaiting;
    std::int32_t length = 0;
    std::int32_t held = -1;  // the output VC (channel * vcs + vc) its head holds, once given one
    // When its head is worth trying: not before `not_before` (its ready cycle, or after a failed try the
    // first cycle a busy channel or VC of its route frees), unless a credit comes back to one of
    // `credit_ports` (bits of router-local ports, modulo 64), the outputs it lacked room on.
    Cycle not_before = 0;
    std::uint64_t credit_ports = 0;
  };
  struct SourceQueue {
    PacketId head = kNoPacket, tail = kNoPacket;
    std::int64_t length = 0;
  };
  // Who a credit (or a freed VC) on a channel concerns: the router driving it and its local port, or
  // (router -1) the node whose injection link it is. Kept with the channel's input port and carried by
  // the Credit event, so that handling it reads neither the channel's port nor the router's port base.
  struct CreditTo {  // no member initializers: a union member (Event) must be trivial
    RouterId router;
    std::int32_t port_or_node;  // router-local port, or the node
  };
  enum class EventKind : std::uint8_t { Arrive, Credit, Deliver, Drained, Wake, NodeWake };
  struct Event {
    EventKind kind;
    std::int32_t where;   // Arrive: input VC; Credit: channel VC; Deliver: ejection VC; Drained: node
                          // link; Wake: router; NodeWake: node
    std::uint32_t value;  // Arrive, Deliver: packet; Credit: flits
    union {
      Carried carried;     // Arrive
      CreditTo credit_to;  // Credit
    };
  };
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
  // Events by cycle: a ring of per-cycle lists for the near future (every delay of the model but a
  // slow drain is short), an ordered map beyond it; both keep insertion order among equal times.
  static constexpr int kWheel = 64;

  // Channels: every router output port (its global port index), then every node link's injection
  // channel. A channel feeds an input port: a router's (its global port index) or a node's ejection
  // buffer (router ports + node link). VCs are numbered channel * vcs + vc on both sides.
  int channel_of_node_link(int link) const { return ports_ + link; }
  void push_event(Cycle t, EventKind kind, std::int32_t where, std::uint32_t value, Carried carried = {}) {
    MPPNET_ASSERT(kind != EventKind::Credit, "a credit names whom it concerns: push_credit");
    schedule(t, Event{kind, where, value, {carried}});
  }
  void push_credit(Cycle t, std::int32_t channel_vc, std::uint32_t flits, CreditTo to) {
    Event e{EventKind::Credit, channel_vc, flits, {}};
    std::construct_at(&e.credit_to, to);  // the union's active member from here on
    schedule(t, e);
  }
  void schedule(Cycle t, const Event& e) {
    if (t - now_ < kWheel) {
      wheel_[static_cast<std::size_t>(t & (kWheel - 1))].push_back(e);
    } else {
      far_.emplace(t, e);
    }
    ++pending_events_;
  }
  void handle(const Event& e);
  void arrive(std::int32_t ivc, PacketId id, const Carried& carried);
  // Returns the next cycle worth trying again (kNever: only a credit or a new packet can help).
  Cycle start_packets(NodeId v);
  // The VC of virtual network `vnet` on which a node's injection channel can take a packet needing
  // `need` credits now, or -1; lowers `again` to the cycle the channel or a busy VC frees.
  int injection_vc(int channel, int vnet, int need, Cycle& again) const;
  // Grants what a router can; returns the next cycle it is worth visiting again (kNever: only an
  // arrival or a credit can help).
  Cycle allocate(RouterId r);
  static constexpr Cycle kGranted = -1;
  Cycle take_vc(RouterId r, int in_port, int vc, std::uint64_t& vc_ports);
  Cycle send(RouterId r, int in_port, int vc, std::uint64_t& credit_ports, std::uint64_t waiters);
  // The router is visited at cycle t (now: in this cycle's allocation), unless already due by then.
  void wake_router(RouterId r, Cycle t);
  // The node tries its source queues again at cycle t > now, unless already due by then.
  void wake_node(NodeId v, Cycle t);
  // A router's or node's wake at t > now needs an event unless the one `pending` (stale once past) comes
  // by then; records t as pending when it does. A later event finds itself stale and is dropped.
  bool sooner_wake(Cycle& pending, Cycle t) const;
  static std::uint64_t port_bit(int local_port) { return std::uint64_t{1} << (local_port & 63); }
  // The front packet of an input VC changed: it may bid from its ready cycle, waiting on nothing else.
  void begin_head(Fifo& f) {
    f.not_before = waiting_[f.head].ready;
    f.credit_ports = 0;
  }
  std::uint32_t new_waiting();
  void drain(int link);  // a node's ejection port: delivers what it may
  void activate_router(RouterId r);
  void activate_node(NodeId v);
  int needed_credits(int flits) const { return flits < params_.buffer_flits ? flits : params_.buffer_flits; }

  const topo::Graph& graph_;
  const topo::Routing& routing_;
  RouterParams params_;
  std::uint64_t route_key_ = 0;
  int vcs_ = 0, vnets_ = 0, vcs_per_vnet_ = 0, ports_ = 0, links_ = 0;
  Cycle now_ = 0;
  Cycle last_progress_ = 0;

  PacketPool packets_;
  std::vector<std::vector<Event>> wheel_;
  std::multimap<Cycle, Event> far_;
  std::int64_t pending_events_ = 0;
  std::vector<SourceQueue> sources_;  // per node and virtual network
  std::int64_t queued_packets_ = 0;

  // What allocation reads of a router, of a port and of a VC, each kept together: on a large network
  // every separate array would be one more cache miss per hop.
  struct alignas(64) RouterState {
    std::uint64_t credited = 0;     // ports credited since its last allocation
    std::uint64_t credit_wake = 0;  // ports whose credit (or freed VC) would wake it
    Cycle wake_at = -1;             // the earliest Wake event pending for it (a later one finds it stale)
    // Its input ports with a waiting packet (bits of router-local ports, used for routers of at most 64
    // ports: a visit passes the others by without reading them).
    std::uint64_t ports_waiting = 0;
    std::int32_t waiting = 0;    // packets waiting at its inputs
    std::int32_t port_base = 0;  // its first global port
    std::int32_t ports = 0;
    core::RandomStream rng;  // its choices among free outputs
  };
  static_assert(sizeof(RouterState) == 64, "a router's state is one cache line");
  std::vector<RouterState> router_;
  // Per global port: its input side (router ports and node ejection ports) and the channel it drives
  // (router output ports and node injection links).
  struct PortState {
    std::uint64_t waiting = 0;         // input: its VCs with a packet waiting
    Cycle in_free = 0;                 // input: the next cycle it can send a head
    Cycle channel_free = 0;            // channel: the next cycle it can take a head
    std::int32_t upstream = -1;        // input: the channel feeding it
    CreditTo upstream_credit{-1, -1};  // input: who that channel's credits concern
    std::int32_t downstream = -1;      // channel: the input port it feeds
    RouterId router = -1;              // a router port's router
    std::uint8_t next_vc = 0;          // input: the VC after its last send
  };
  std::vector<PortState> port_;
  struct OutVc {
    Cycle free = 0;            // the next cycle the VC can be given (kNever: a head holds it)
    std::int32_t credits = 0;  // flits of room in the buffer it feeds
  };
  std::vector<OutVc> out_vc_;     // per channel VC
  std::vector<Fifo> fifo_;        // per input VC
  std::vector<Waiting> waiting_;  // records, linked through `next`
  std::vector<std::uint32_t> free_waiting_;
  std::vector<std::uint8_t> eject_hold_;  // per node and virtual network
  std::vector<Cycle> eject_free_;         // per node link: when the ejection port can drain the next

  // Who has work: routers with waiting packets, nodes with queued packets, ejection ports with packets.
  std::vector<std::uint64_t> router_due_;  // bit per router: visit it in this cycle's allocation
  std::vector<RouterId> again_next_;       // step()'s scratch: routers to visit in the next cycle
  std::vector<NodeId> active_nodes_;
  std::vector<std::pair<int, int>> usable_links_;  // start_packets' scratch
  std::vector<std::uint8_t> node_active_;
  std::vector<Cycle> node_wake_at_;  // the earliest NodeWake event pending for it (as RouterState::wake_at)
  std::vector<core::RandomStream> node_rng_;

  NetworkCounters counters_;
  std::vector<std::int64_t> port_flits_;
  std::vector<PacketId> delivered_;
};

}  // namespace mppnet::net
