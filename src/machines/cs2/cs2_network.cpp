// machines/cs2/cs2_network.cpp: the layers of generic networks with the Elite's timing (cs2_network.hpp).
#include "machines/cs2/cs2_network.hpp"

#include <array>
#include <cmath>

#include "core/error.hpp"
#include "machines/cs2/routes.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {

net::RouterParams elite_router_params(const Cs2Config& c) {
  net::RouterParams p;
  p.model = net::NetworkModelKind::Flit;
  p.vcs = 1;  // the Elite has no virtual channels: one FIFO per input link (note 003 §6 #14)
  p.buffer_flits = c.elite.buffer_bytes;
  // data_cycles per switch in all: data_cycles - 1 through the crossbar, one more to latch at the far
  // end of the wire (the generic channel's minimum of one cycle), wire_cycles on the wire itself.
  p.st_delay = c.elite.data_cycles - 1;
  p.sw_alloc_delay = 0;
  p.pipeline_cycles = p.st_delay;
  p.channel_latency = c.elite.wire_cycles + 1;
  p.routing_delay = 0;
  p.vc_alloc_delay = 0;
  p.credit_delay = 0;  // a flow-control token takes the wire back, as data does
  p.switching = net::Switching::Wormhole;
  p.eject_flits_per_cycle = 1.0;  // the Elan takes a byte per cycle from each link
  p.vnets = 1;
  // Each Elite output arbitrates round robin among the inputs asking for it (note 003 §4.8).
  p.vc_arbiter = net::VcArbiter::PerOutputVc;
  p.cycle_ps = c.elite.clock_ps;
  return p;
}

std::int64_t zero_load_cycles(const EliteParams& e, int switches, int bytes) {
  return (e.wire_cycles + 1) + static_cast<std::int64_t>(switches) * (e.data_cycles + e.wire_cycles) +
         (bytes - 1);
}

namespace {

topo::Routing byte_steered(const LayerShape& shape, int vcs, bool multicast) {
  // Hops are for reports only (the route bytes steer): the minimal route's switch count.
  const auto hops = [shape](NodeId x, NodeId d) {
    const int j = lca_stage(shape, x, d);
    return shape.back_to_back() && j > shape.stages() ? 2 * shape.stages() : 2 * j - 1;
  };
  // Replication only where broadcasts are asked for (a routing that may multicast costs the bitmask
  // router a mask test per router visit).
  if (multicast) return topo::Routing::bind(topo::ByteSteeredRouting<true>(vcs, hops), vcs);
  return topo::Routing::bind(topo::ByteSteeredRouting<false>(vcs, hops), vcs);
}

}  // namespace

Cs2Network::Cs2Network(const Cs2Config& c, bool acks, int window, bool replicate)
    : config_(c),
      shape_(layer_shape(c)),
      graph_(build_layer(shape_)),
      params_(elite_router_params(c)),
      routing_(byte_steered(shape_, params_.vcs, wants_broadcasts(c) || replicate)),
      next_layer_(static_cast<std::size_t>(shape_.pes()), 0),
      broadcasts_(wants_broadcasts(c) || replicate) {
  MPPNET_ASSERT(acks || window == 0, "a send window needs acks");
  MPPNET_ASSERT(!replicate || can_broadcast(c) == nullptr, "replicating layers need one tree");
  for (int l = 0; l < c.machine.layers; ++l)
    layers_.push_back(std::make_unique<net::Network>(
        graph_, routing_, params_, static_cast<std::uint64_t>(c.run.seed) + static_cast<std::uint64_t>(l)));
  // Ack tokens take the reverse direction of each link and each switch's return route: 5 cycles per
  // switch (L386-L387) and the wire, never held up by data (L352-L353, L362-L364; note §2.8).
  if (acks)
    for (auto& n : layers_)
      n->enable_acks({.enabled = true,
                      .router_cycles = c.elite.ack_cycles,
                      .channel_cycles = c.elite.wire_cycles,
                      .turnaround_cycles = c.elan.turnaround_cycles,
                      .window = window});
  faulty_ = resolve_link(shape_, graph_, c.faults.link);
  byte_error_rate_ = c.faults.byte_error_rate;
  failed_ = resolve_link(shape_, graph_, c.faults.failed_link);
  // A stream of its own, so that byte errors leave every other draw of the run as it was.
  fault_rng_ = core::RandomStream(static_cast<std::uint64_t>(c.run.seed), 0, core::Stream::Fault);
  route_rng_.reserve(static_cast<std::size_t>(shape_.pes()));
  for (int x = 0; x < shape_.pes(); ++x)
    route_rng_.emplace_back(static_cast<std::uint64_t>(c.run.seed), static_cast<std::uint64_t>(x),
                            core::Stream::RouteChoice);
  // A stream of its own per PE, so that broadcasts leave the unicast alternatives' draws as they were.
  if (broadcasts_)
    for (int x = 0; x < shape_.pes(); ++x)
      plane_rng_.emplace_back(static_cast<std::uint64_t>(c.run.seed),
                              static_cast<std::uint64_t>(shape_.pes() + x), core::Stream::RouteChoice);
}

topo::SourceRoute Cs2Network::broadcast_route_of(NodeId src, const BroadcastBox& box) {
  if (config_.routing.broadcast_tree == BroadcastTree::Canonical) return broadcast_route(shape_, src, box);
  std::array<int, topo::kMaxRouteBytes> ups{};
  auto& rng = plane_rng_[static_cast<std::size_t>(src)];
  for (int& u : ups) u = static_cast<int>(rng.below(4));
  return broadcast_route_via(shape_, src, box, ups);
}

std::int64_t Cs2Network::broadcast(NodeId src, NodeId a, NodeId b, int bytes, std::uint64_t tag) {
  const auto s = static_cast<std::size_t>(src);
  const int l = static_cast<int>(next_layer_[s]);
  next_layer_[s] = static_cast<std::uint32_t>((l + 1) % layers());
  return broadcast_on(l, src, a, b, bytes, tag);
}

std::int64_t Cs2Network::broadcast_on(int l, NodeId src, NodeId a, NodeId b, int bytes, std::uint64_t tag,
                                      std::vector<net::PacketId>* ids) {
  MPPNET_ASSERT(broadcasts_, "a broadcast on layers built without replication (traffic.broadcast_fraction)");
  MPPNET_ASSERT(0 <= a && a <= b && b < pes(), "a broadcast range of populated PEs");
  std::int64_t copies = 0;
  for (const BroadcastBox& box : decompose_range(shape_, a, b)) {
    const net::PacketId id =
        layer(l).inject(src, static_cast<NodeId>(box.first), bytes, tag, 0, broadcast_route_of(src, box));
    if (ids != nullptr) ids->push_back(id);
    copies += box.count;
  }
  return copies;
}

int Cs2Network::send(NodeId src, NodeId dest, int bytes, std::uint64_t tag) {
  int l = next_layer(src);
  // A PE whose own link failed in this layer is reached on (or reaches through) the other one.
  if (failed_.layer == l && failed_.pe >= 0 && (src == failed_.pe || dest == failed_.pe))
    l = (l + 1) % layers();
  send_on(l, src, dest, bytes, tag);
  return l;
}

int Cs2Network::next_layer(NodeId src) {
  const auto s = static_cast<std::size_t>(src);
  const int l = static_cast<int>(next_layer_[s]);
  next_layer_[s] = static_cast<std::uint32_t>((l + 1) % layers());
  return l;
}

net::PacketId Cs2Network::send_on(int l, NodeId src, NodeId dest, int bytes, std::uint64_t tag) {
  const int alt = static_cast<int>(route_rng_[static_cast<std::size_t>(src)].below(
      static_cast<std::uint32_t>(config_.routing.alternatives)));
  return send_on(l, src, dest, bytes, tag, alt);
}

void Cs2Network::load_routes(std::span<const Flow> flows, const RouteOf& route) {
  loaded_dest_.assign(static_cast<std::size_t>(pes()), -1);
  loaded_route_.assign(static_cast<std::size_t>(pes()), {});
  for (const Flow& f : flows) {
    const auto s = static_cast<std::size_t>(f.src);
    MPPNET_ASSERT(loaded_dest_[s] < 0, "one loaded route per source");
    loaded_dest_[s] = static_cast<NodeId>(f.dest);
    loaded_route_[s] = route(f.src, f.dest);
  }
}

topo::SourceRoute Cs2Network::route(NodeId src, NodeId dest, int alt) const {
  MPPNET_ASSERT(alt >= 0 && alt < kAlternatives, "a table entry holds 4 alternatives");
  if (!loaded_dest_.empty() && loaded_dest_[static_cast<std::size_t>(src)] == dest)
    return loaded_route_[static_cast<std::size_t>(src)];
  return policy_route(shape_, src, dest, config_.routing.policy, config_.routing.turn,
                      alt % config_.routing.alternatives, static_cast<std::uint64_t>(config_.run.seed));
}

topo::SourceRoute Cs2Network::route_on(int l, NodeId src, NodeId dest, int alt) const {
  topo::SourceRoute r = route(src, dest, alt);
  if (failed_.layer != l || crossing_input(graph_, src, r, failed_) < 0) return r;
  const std::uint64_t key = (static_cast<std::uint64_t>(src) * static_cast<std::uint64_t>(pes()) +
                             static_cast<std::uint64_t>(dest)) *
                                kAlternatives +
                            static_cast<std::uint64_t>(alt);
  const auto it = rebuilt_.find(key);
  if (it != rebuilt_.end()) return it->second;
  r = route_avoiding(shape_, graph_, src, dest, config_.routing.turn, alt, failed_);
  rebuilt_.emplace(key, r);
  return r;
}

net::PacketId Cs2Network::send_on(int l, NodeId src, NodeId dest, int bytes, std::uint64_t tag, int alt) {
  const topo::SourceRoute r = route_on(l, src, dest, alt);
  MPPNET_ASSERT(r.length > 0, "a packet sent on a layer whose table has no route for it");
  const net::PacketId id = layer(l).inject(src, dest, bytes, tag, 0, r);
  last_corrupted_ = false;
  if (faulty_.layer != l || byte_error_rate_ <= 0) return id;
  const std::int32_t input = crossing_input(graph_, src, r, faulty_);
  // Each byte is corrupted independently, so the CRC fails with 1 - (1 - p)^bytes (note 003 §5 R13).
  if (input >= 0 && fault_rng_.bernoulli(1 - std::pow(1 - byte_error_rate_, bytes))) {
    layer(l).mark_corrupt(id, input);
    ++corrupted_;
    last_corrupted_ = true;
  }
  return id;
}

int Cs2Network::resend_nacked(int l) {
  int sent = 0;
  for (const net::Ack& a : layer(l).acknowledged()) {
    if (!a.nack) continue;
    resend(l, a);
    ++sent;
  }
  return sent;
}

void Cs2Network::step() {
  for (auto& n : layers_) n->step();
}

bool Cs2Network::idle() const {
  for (const auto& n : layers_)
    if (!n->idle()) return false;
  return true;
}

Probe probe_latency(Cs2Network& net, NodeId src, NodeId dest, int bytes) {
  MPPNET_ASSERT(net.idle(), "a probe needs an idle network");
  net::Network& layer = net.layer(0);
  net.send_on(0, src, dest, bytes, 0, 0);
  // Long enough for any route of an idle network: the bound is the watchdog, not the measurement.
  for (int t = 0; t < 100000; ++t) {
    net.step();
    for (const net::PacketId d : layer.delivered()) {
      const net::Packet& p = layer.packet(d);
      const Probe r{p.delivered - p.created, p.hops};
      layer.release(d);
      // Let the last credits come home, so that the next probe sees an idle network again.
      for (int s = 0; s < 256; ++s) net.step();
      return r;
    }
  }
  MPPNET_ASSERT(false, "a probe packet was not delivered on an idle network");
  return {};
}

}  // namespace mppnet::machines::cs2
