// machines/cns1/mesh_ports.hpp: the T1's network interfaces on the CNS-1 mesh: each node's NiPort over
// the generic network's endpoint contract (net/endpoint.hpp), and the delivery of what the mesh brings
// into each NI's in-queue.
//
// The priorities are the network's two virtual networks, low (requests) 0 and high (replies) 1, which
// share every link and never block each other (note 002 §3.7). An NI output slot is a packet in the
// node's send queue of that network: a SEND succeeds while the queue has room, and fails (nicond = 0, no
// trap) when it is full (A13, A35). A message is one packet of flits for a routing word, the handler and
// its data words; an MCST asks the mesh for a path multicast (topo/path_multicast.hpp), which leaves a
// copy at every node from the source (excluded) to the destination (§3.13). A node whose NI in-queue of
// a priority is full holds ejection of that network, so messages back up into the mesh and then to
// their senders (§3.7, backpressure); the few already past the hold wait at the node, in order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "core/slot_pool.hpp"
#include "machines/cns1/network_interface.hpp"
#include "machines/cns1/ni_port.hpp"
#include "machines/cns1/t1_message.hpp"
#include "net/clocked_network.hpp"

namespace mppnet::machines::cns1 {

// A SEND or MCST named a node the machine does not have (A28: the destination's format is the
// implementation's; ours is the node id, 0 .. nodes - 1).
class BadDestination : public std::runtime_error {
 public:
  BadDestination(NodeId source, std::uint32_t destination, int nodes);
  NodeId source;
  std::uint32_t destination;
};

// Words a message takes on the wire beyond its data: a routing word (destination, priority, lengths,
// KU and multicast bits) and the handler address (the document defines no wire format, §3.6).
inline constexpr int kMessageOverheadWords = 2;

// Flits of a message: its words of 4 bytes in flits of flit_bytes, rounded up.
int message_flits(const T1Message& m, int flit_bytes);

class MeshPorts final : public net::DeliveryHandler {
 public:
  // `network` is a k x k mesh whose dimension 1 wraps, with two virtual networks; it outlives this.
  // Installs itself as its delivery handler.
  MeshPorts(net::ClockedNetwork& network, int k, int flit_bytes);
  MeshPorts(const MeshPorts&) = delete;
  MeshPorts& operator=(const MeshPorts&) = delete;

  NiPort& port(NodeId v) { return ports_[static_cast<std::size_t>(v)]; }
  // Messages for v go to ni from now on. REQUIRES: ni outlives this.
  void attach(NodeId v, NetworkInterface& ni) { inboxes_[static_cast<std::size_t>(v)].ni = &ni; }
  // Hands v's NI what waits for it at the node and resumes ejection once the NI has room: call after
  // v's processor ran (an event takes a message out of the NI's in-queue).
  void service(NodeId v) {
    if (inboxes_[static_cast<std::size_t>(v)].holding != 0) refill(v);
  }

  // Copies a message from src to dest leaves: one per node of the dimension-order path after src for
  // a multicast (one for a multicast to itself, A30's default), else one.
  int copies(NodeId src, NodeId dest, bool multicast) const;

  std::int64_t messages_sent() const { return messages_sent_; }
  std::int64_t copies_delivered() const { return copies_delivered_; }
  std::int64_t flits_sent() const { return flits_sent_; }

  // net::DeliveryHandler
  void on_delivery(net::PacketId id, const net::Packet& p, Picoseconds time_ps) override;

 private:
  class Port final : public NiPort {
   public:
    Port(MeshPorts& mesh, NodeId node) : mesh_(&mesh), node_(node) {}
    bool can_send(Priority priority) const override;
    bool try_send(const T1Message& message) override;

   private:
    MeshPorts* mesh_;
    NodeId node_;
  };
  // A message on its way, until its last copy is delivered.
  struct InFlight {
    T1Message message;
    int copies_left = 0;
    std::uint32_t next = 0xffffffffu;  // the pool's free list
  };
  struct Inbox {
    NetworkInterface* ni = nullptr;
    std::array<std::deque<T1Message>, 2> waiting;  // delivered while the NI was full, per priority
    unsigned holding = 0;                          // bit p: ejection of priority p is held
  };

  void deliver(NodeId v, const T1Message& m);
  void refill(NodeId v);
  // Holds ejection of priority p at v while v's NI has no room for it, and resumes it once it has.
  void update_hold(NodeId v, Priority p);

  net::ClockedNetwork& network_;
  int k_;
  int flit_bytes_;
  std::vector<Port> ports_;
  std::vector<Inbox> inboxes_;
  core::SlotPool<InFlight> in_flight_;
  std::int64_t messages_sent_ = 0;
  std::int64_t copies_delivered_ = 0;
  std::int64_t flits_sent_ = 0;
};

}  // namespace mppnet::machines::cns1
