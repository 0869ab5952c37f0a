// net/network_model.hpp: what every network model offers the drivers: the flit-level Network and the
// packet-level PacketNetwork behind one interface.
//
// Drivers (open-loop experiments, fixed runs, the endpoint that node programs use) step a model one
// cycle at a time, inject packets into its source queues and collect what it delivered. The calls are
// per cycle or per packet, never per flit, so a virtual call costs nothing measurable; inside a model
// every call is direct (both are final classes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "net/ack_path.hpp"
#include "net/packet.hpp"
#include "net/router_params.hpp"
#include "topo/graph.hpp"

namespace mppnet::net {

// Counters that only grow; callers take differences over a measurement window.
struct NetworkCounters {
  std::int64_t flits_injected = 0;    // flits that left a source onto a link
  std::int64_t flits_ejected = 0;     // flits drained at a destination
  std::int64_t packets_injected = 0;  // heads that left a source
  std::int64_t packets_delivered = 0;
  std::int64_t flit_hops = 0;         // flits granted through a router crossbar (each multicast copy counts)
  std::int64_t flits_replicated = 0;  // flit copies a multicast made beyond the first
};

class NetworkModel {
 public:
  virtual ~NetworkModel() = default;

  virtual Cycle now() const = 0;
  // Puts a packet in src's source queue at now(); its id is valid until release(). `route_header` is the
  // routing word the first router sees, for routings that read one.
  virtual PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag = 0, int vnet = 0,
                          std::uint64_t route_header = 0) = 0;
  // Puts a packet steered by `route` (topo/source_route.hpp) in src's source queue: each router it
  // reaches consumes one byte. Throws std::invalid_argument, naming the byte, for a route that names no
  // output. REQUIRES: the routing needs_source_route(); 0 <= vnet < params().vnets.
  virtual PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                          const topo::SourceRoute& route) = 0;
  // The packet's route bytes. REQUIRES: the routing needs_source_route().
  virtual const topo::SourceRoute& source_route(PacketId id) const = 0;
  // While held, node v accepts no packet of virtual network vnet: they back up into the network.
  virtual void hold_ejection(NodeId v, int vnet, bool hold) = 0;
  // Advances one cycle.
  virtual void step() = 0;
  // Packets whose tail reached their destination during the last step.
  virtual std::span<const PacketId> delivered() const = 0;
  virtual const Packet& packet(PacketId id) const = 0;
  virtual std::uint64_t route_header(PacketId id) const = 0;
  virtual void release(PacketId id) = 0;
  // The acks that reached their sources during the last step (net/ack_path.hpp), for a model whose ack
  // path is switched on; none otherwise.
  virtual std::span<const Ack> acknowledged() const { return {}; }

  virtual const NetworkCounters& counters() const = 0;
  // Flits sent on each router output port so far, indexed by graph.port_base[r] + p.
  virtual std::vector<std::int64_t> port_flits() const = 0;
  virtual std::int64_t flits_in_network() const = 0;
  virtual std::int64_t queued_packets() const = 0;  // waiting in source queues
  virtual std::int64_t source_queue_length(NodeId v, int vnet) const = 0;
  virtual bool idle() const = 0;
  // Last cycle in which anything moved.
  virtual Cycle last_progress() const = 0;
  // One line per place where packets wait, for deadlock reports.
  virtual std::string describe_blocked(int max_lines = 20) const = 0;
  // Test mode: visit active routers in a random order every cycle (must not change any result).
  virtual void shuffle_visit_order(bool on) = 0;

  virtual const topo::Graph& graph() const = 0;
  virtual const RouterParams& params() const = 0;
};

}  // namespace mppnet::net
