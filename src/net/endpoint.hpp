// net/endpoint.hpp: the contract between a network model and the network interfaces of its nodes.
//
// A node program's runtime (am/), a machine's network interface (the CM-5's, the T1's) and the open-loop
// traffic sources talk to a network only through this contract, so that any of them runs on any network
// model: the flit-level network (net::ClockedNetwork) today, a packet-level one beside it later. It
// follows the shape of SST's SimpleNetwork interface (send, spaceToSend, notify on receive):
//  - try_send puts a packet in the node's send queue for one virtual network, or refuses when the queue
//    is full; space_to_send says how many more it would take. How deep the queue is, is a policy of the
//    endpoint: unbounded for open-loop experiments (a source never blocks, its queue grows instead), the
//    interface's depth for a machine;
//  - every delivered packet is announced to the delivery handler, once, at the time its tail arrived;
//    on a network with an ack path, so is every ack, at the time it reached the packet's source;
//  - a node that cannot accept more of one virtual network holds ejection: arriving packets back up into
//    the network until it resumes.
// Each call is once per packet, not per flit: a virtual call here costs nothing measurable.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "core/scheduler.hpp"
#include "core/types.hpp"
#include "net/ack_path.hpp"
#include "net/packet.hpp"

namespace mppnet::net {

class DeliveryHandler {
 public:
  virtual ~DeliveryHandler() = default;
  // Packet `id` (fields in `p`; times in the network's own cycles) reached its destination at time_ps.
  // The packet's slot is released when this returns.
  virtual void on_delivery(PacketId id, const Packet& p, Picoseconds time_ps) = 0;
  // The ack of packet a.packet reached its source a.src at time_ps (a network with an ack path,
  // net/ack_path.hpp); called after the cycle's deliveries.
  virtual void on_ack(const Ack& a, Picoseconds time_ps) {
    static_cast<void>(a);
    static_cast<void>(time_ps);
  }
  // The end of every network cycle at time_ps, after its deliveries: send queues may have room again.
  virtual void after_cycle(Picoseconds time_ps) { static_cast<void>(time_ps); }
  // Node v's send queues took a packet into the network in this cycle, so space_to_send(v, ...) may be
  // larger now. Called only by endpoints whose reports_space() is true; others leave the handler to
  // look at every waiting sender after each cycle.
  virtual void on_space(NodeId v) { static_cast<void>(v); }
};

// What the watchdog of whoever drives a run needs to tell "busy" from "stuck".
struct EndpointActivity {
  std::int64_t flits_in_network = 0;  // sent and not yet drained
  std::int64_t queued_packets = 0;    // in send queues, not yet started
  Cycle cycles_without_progress = 0;  // network cycles since any flit last moved
};

class Endpoint {
 public:
  static constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();

  virtual ~Endpoint() = default;

  virtual int nodes() const = 0;
  virtual int vnets() const = 0;

  // A packet of `flits` flits from src to dest on virtual network vnet, carrying the caller's `tag`.
  // Returns its id, or kNoPacket when src's send queue of that network is full (nothing was sent).
  // REQUIRES: 0 <= vnet < vnets(), flits >= 1.
  virtual PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) = 0;
  // Packets src's send queue of vnet can still take (kUnbounded for an unbounded queue).
  virtual std::int64_t space_to_send(NodeId src, int vnet) const = 0;
  // Whether the delivery handler hears of every cycle in which a node's space_to_send may have grown
  // (DeliveryHandler::on_space), so that waiting senders need not be polled.
  virtual bool reports_space() const { return false; }

  // While held, node v accepts no packet of network vnet: they wait in the network.
  virtual void hold_ejection(NodeId v, int vnet, bool hold) = 0;
  // Receives every delivery from now on (nullptr: deliveries are released unannounced).
  virtual void set_delivery_handler(DeliveryHandler* handler) = 0;

  // Diagnostics for watchdogs and reports.
  virtual EndpointActivity activity() const = 0;
  virtual std::string describe_blocked() const = 0;  // one line per stuck place, or empty
  virtual std::int64_t cycles_run() const = 0;       // cycles the network model was evaluated
  // The clock domain whose edges step the network model: where a driver's watchdog counts its cycles.
  virtual core::DomainId domain() const = 0;
};

}  // namespace mppnet::net
