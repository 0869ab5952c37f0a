// machines/cs2/cs2_network.hpp: the CS-2's data network for traffic: machine.layers layers, each a generic
// flit-level net::Network on the layer's graph, with the Elite switch's timing and the route bytes of the
// routes module steering every packet (topo::ByteSteeredRouting).
//
// The mapping (docs/cs2.md "Traffic"; reference note 003 §6): a flit is one byte, since a link carries a
// byte per 70 MHz cycle in each direction (Meiko, "CS-2 Communications Network Overview", 1993, §3,
// L78, L339-L347); wormhole switching with one VC and a credit per byte of the elite.buffer_bytes input
// FIFO (note §6 #14); a byte spends elite.data_cycles in a switch ("the latency through a switch is 7
// cycles for data", L386-L387) and elite.wire_cycles on each wire (note §6 #25). In the generic router a
// flit granted the switch at t reaches the next input at t + pipeline_cycles + channel_latency, and a
// head at the front of its buffer bids at once (no routing or VC delay), so pipeline_cycles =
// data_cycles - 1 and channel_latency = wire_cycles + 1 give data_cycles + wire_cycles per switch.
//
// The layers are identical graphs with the same route tables (L92-L93, routes.hpp); each PE stripes its
// packets over them in turn (packet i of a PE on layer i mod layers) and draws the alternative of its
// table entry per packet, uniformly among routing.alternatives.
//
// Broadcasts (when the config asks for them, wants_broadcasts()): a range of PEs is cut into aligned
// boxes (decompose_range), each reached by one multicast packet whose range bytes the switches replicate
// in lockstep (topo::ByteSteeredRouting<true>, net/multicast.cpp), with one merged ack per packet. The
// climb takes plane 0 (routing.broadcast_tree = "canonical") or a plane drawn per packet ("any_plane").
// Unicast-only configs keep ByteSteeredRouting<false>; both run on the bitmask router (net/fast_router.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/rng.hpp"
#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/config.hpp"
#include "machines/cs2/faults.hpp"
#include "machines/cs2/routes.hpp"
#include "net/network.hpp"
#include "topo/routing.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {

// The generic router's parameters for the Elite's timing under `c` (see above).
net::RouterParams elite_router_params(const Cs2Config& c);

// Cycles from a packet entering its source queue on an idle layer to its last byte drained at the
// destination, for a route through `switches` switches and `bytes` bytes: the head leaves the PE in the
// cycle it is queued and spends wire_cycles + 1 on the PE's link, (data_cycles + wire_cycles) per
// switch, and the last byte follows bytes - 1 cycles behind the first (one byte per cycle). docs/cs2.md
// derives it; cs2_network_test.cpp checks it against the simulation for every switch count.
std::int64_t zero_load_cycles(const EliteParams& e, int switches, int bytes);

// The simulated zero-load latency in cycles of one packet of `bytes` bytes from src to dest along
// alternative 0 on layer 0 of an idle network built from `c`, and the switches it passed.
struct Probe {
  std::int64_t cycles = 0;
  int switches = 0;
};

class Cs2Network;
Probe probe_latency(Cs2Network& net, NodeId src, NodeId dest, int bytes);

class Cs2Network {
 public:
  // With `acks`, every delivered packet's ack returns to its source on the layer's ack path
  // (net/ack_path.hpp): elite.ack_cycles per switch, elite.wire_cycles per link and
  // elan.turnaround_cycles at the destination; with a `window` > 0 too, a PE starts a packet on a layer
  // only while fewer than `window` of its packets on that layer are unacknowledged.
  // With `replicate`, the layers replicate broadcasts even when the traffic has none (the Elans'
  // collectives, elan_collectives.hpp).
  // REQUIRES: check_cs2(c) passed; window == 0 unless acks; replicate only on one tree (not back to
  // back), without rearranged tables or a failed link (can_broadcast).
  explicit Cs2Network(const Cs2Config& c, bool acks = false, int window = 0, bool replicate = false);

  const Cs2Config& config() const { return config_; }
  // The route bytes of alternative `alt` of src's table entry for dest. REQUIRES: 0 <= alt < 4.
  topo::SourceRoute route(NodeId src, NodeId dest, int alt) const;
  // The same in layer `l`'s table, rebuilt around faults.failed_link when it is in that layer: length 0
  // when src or dest lost its own link there (docs/cs2.md "Faults").
  topo::SourceRoute route_on(int l, NodeId src, NodeId dest, int alt) const;

  int pes() const { return shape_.pes(); }
  int layers() const { return static_cast<int>(layers_.size()); }
  const LayerShape& shape() const { return shape_; }
  net::Network& layer(int l) { return *layers_[static_cast<std::size_t>(l)]; }
  const net::Network& layer(int l) const { return *layers_[static_cast<std::size_t>(l)]; }

  // Sends a packet of `bytes` bytes from src to dest on the next layer of src's stripe (the other layer
  // when that one's table has no route, as an Elan falls back), along an
  // alternative of src's table entry drawn from src's own stream. Returns the layer it went on; the
  // packet carries `tag`. No heap allocation (the route is built on the stack and copied into the
  // packet pool's slot).
  int send(NodeId src, NodeId dest, int bytes, std::uint64_t tag);
  // The layer src's next packet takes on its stripe; the stripe moves on.
  int next_layer(NodeId src);
  // The same without moving the stripe.
  int stripe_layer(NodeId src) const { return static_cast<int>(next_layer_[static_cast<std::size_t>(src)]); }
  // Sends on `layer` along an alternative of src's table entry drawn from src's own stream.
  net::PacketId send_on(int layer, NodeId src, NodeId dest, int bytes, std::uint64_t tag);
  // The same on a given layer and alternative (for tests and probes). REQUIRES: 0 <= alt < 4.
  net::PacketId send_on(int layer, NodeId src, NodeId dest, int bytes, std::uint64_t tag, int alt);

  // Byte errors on faults.link: a unicast packet whose route crosses it is corrupted with probability
  // 1 - (1 - faults.byte_error_rate)^bytes, drawn when it is sent from the network's own fault stream
  // (its route fixes every link it will cross), and marked at the input that will see the bad CRC
  // (net::Network::mark_corrupt). Packets marked so far, and whether the last send_on marked its packet.
  std::int64_t corrupted() const { return corrupted_; }
  bool last_corrupted() const { return last_corrupted_; }
  const LinkRef& faulty_link() const { return faulty_; }
  const LinkRef& failed_link() const { return failed_; }
  const topo::Graph& graph() const { return graph_; }
  // Sends again, on the same layer, every packet whose NACK reached its source in layer l's last step
  // (the Elan's resend on NACK, note 003 §4.9); returns how many. The tag, size and ends are the ack's.
  int resend_nacked(int l);
  // Sends the packet that NACK `a` stands for again on layer l, as it was (ends, size and tag), along an
  // alternative drawn afresh: the Elan's resend, for every sender that reads acks itself.
  // REQUIRES: a.nack.
  void resend(int l, const net::Ack& a) { send_on(l, a.src, a.dest, a.flits, a.tag); }

  // Whether the layers replicate: the config asks for broadcasts (wants_broadcasts()) or the
  // constructor's `replicate` did.
  bool broadcasts() const { return broadcasts_; }
  // The route bytes of a broadcast packet from src to `box` under routing.broadcast_tree: the canonical
  // plane-0 tree, or up-ports drawn from src's own broadcast stream.
  topo::SourceRoute broadcast_route_of(NodeId src, const BroadcastBox& box);
  // Sends a broadcast of `bytes` bytes from src to PEs [a, b] on the next layer of src's stripe, one
  // multicast packet per aligned box, each carrying `tag`. Returns the copies it delivers (b - a + 1).
  // REQUIRES: broadcasts(); 0 <= a <= b < pes().
  std::int64_t broadcast(NodeId src, NodeId a, NodeId b, int bytes, std::uint64_t tag);
  // The same on a given layer; appends the packets' ids to `ids` when given.
  std::int64_t broadcast_on(int layer, NodeId src, NodeId a, NodeId b, int bytes, std::uint64_t tag,
                            std::vector<net::PacketId>* ids = nullptr);

  // From now on, src's packets to flows[i].dest take route(src, dest) on every layer and alternative:
  // the tables loaded with one route per source (rearranged routes, rearrange.hpp).
  // REQUIRES: each source at most once in `flows`.
  void load_routes(std::span<const Flow> flows, const RouteOf& route);

  // Steps every layer one link cycle (for callers that do not run a scheduler: tests, probes).
  void step();
  bool idle() const;

 private:
  Cs2Config config_;
  LayerShape shape_;
  topo::Graph graph_;
  net::RouterParams params_;
  topo::Routing routing_;
  std::vector<std::unique_ptr<net::Network>> layers_;
  std::vector<std::uint32_t> next_layer_;      // per PE: the layer its next packet takes
  std::vector<core::RandomStream> route_rng_;  // per PE: the alternative of each packet
  bool broadcasts_ = false;
  std::vector<core::RandomStream> plane_rng_;  // per PE: a broadcast's planes under "any_plane"
  std::vector<NodeId> loaded_dest_;            // per PE: the destination of its loaded route, or -1
  std::vector<topo::SourceRoute> loaded_route_;
  // Faults: the link with byte errors and its rate, the failed link, the corruption draws.
  LinkRef faulty_;
  double byte_error_rate_ = 0;
  LinkRef failed_;
  core::RandomStream fault_rng_;
  std::int64_t corrupted_ = 0;
  bool last_corrupted_ = false;
  // The failed layer's rebuilt entries, keyed by (src, dest, alt), filled on first use: the same routes
  // as rebuilding every entry at load, without pes^2 work on large machines.
  mutable std::unordered_map<std::uint64_t, topo::SourceRoute> rebuilt_;
};

}  // namespace mppnet::machines::cs2
