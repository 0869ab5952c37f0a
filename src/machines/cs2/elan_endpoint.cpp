// machines/cs2/elan_endpoint.cpp: the layers stepped from the scheduler behind the endpoint contract.
#include "machines/cs2/elan_endpoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "net/clocked_network.hpp"

namespace mppnet::machines::cs2 {

ElanEndpoint::ElanEndpoint(Cs2Network& net, core::Scheduler& scheduler, core::DomainId domain,
                           const ElanEndpointOptions& options)
    : net_(net),
      scheduler_(scheduler),
      options_(options),
      period_ps_(scheduler.period_ps(domain)),
      domain_(domain),
      id_(scheduler.add(domain, *this, true)),  // it sleeps once it finds nothing to do
      settle_cycles_(net::settle_cycles(net.layer(0).params())) {
  MPPNET_ASSERT(options.vnets == 1 || (options.vnets == 2 && net.layers() == 2),
                "requests and replies each need a layer");
  MPPNET_ASSERT(options.send_queue_packets >= 1, "a send queue holds at least one packet");
  MPPNET_ASSERT(net.layer(0).ack_path().enabled(), "the Elan's window needs the layers' acks");
}

bool ElanEndpoint::tick(Cycle cycle) {
  offset_ = cycle - net_.layer(0).now();
  net_.step();
  ++cycles_run_;
  bool busy = false;
  for (int l = 0; l < net_.layers(); ++l) {
    net::Network& layer = net_.layer(l);
    for (const net::PacketId id : layer.delivered()) {
      const net::Packet& p = layer.packet(id);
      if ((p.tag & kBroadcastTag) != 0) {
        listener_->on_copy(p.dest, p.tag);
      } else if (handler_ != nullptr) {
        handler_->on_delivery(id, p, (p.delivered + offset_) * period_ps_);
      }
      layer.release(id);
    }
    for (const net::Ack& a : layer.acknowledged()) {
      if ((a.tag & kBroadcastTag) != 0) {  // never NACKed: byte errors corrupt unicast packets only
        listener_->on_merged_ack(a);
        continue;
      }
      if (a.nack) {
        // A byte error aborted the packet at its destination: the Elan sends it again on the same layer
        // without the processor (note 003 §4.9), which never hears of it, as nothing was committed.
        net_.resend(l, a);
        ++resent_;
        continue;
      }
      if (handler_ != nullptr) handler_->on_ack(a, (a.arrives + offset_) * period_ps_);
    }
    busy = busy || !layer.idle() || layer.now() - layer.last_progress() <= settle_cycles_;
  }
  if (handler_ != nullptr) handler_->after_cycle(cycle * period_ps_);
  return busy;
}

int ElanEndpoint::broadcast(int layer, NodeId src, int bytes, std::uint64_t tag) {
  MPPNET_ASSERT(listener_ != nullptr, "a broadcast with nobody to hear it");
  const NodeId last = static_cast<NodeId>(net_.pes() - 1);
  net_.broadcast_on(layer, src, 0, last, bytes, tag | kBroadcastTag);
  scheduler_.activate(id_);
  return static_cast<int>(decompose_range(net_.shape(), 0, last).size());
}

std::int64_t ElanEndpoint::room(NodeId src, int layer) const {
  return std::max<std::int64_t>(0,
                                options_.send_queue_packets - net_.layer(layer).source_queue_length(src, 0));
}

net::PacketId ElanEndpoint::try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) {
  int layer = vnet;
  if (options_.vnets == 1) {
    // The stripe's layer, or the next with room when its queue is full: a sender holding places against
    // space_to_send (the sum over the layers) is never refused while any layer has room.
    layer = net_.next_layer(src);
    for (int k = 1; k < net_.layers() && room(src, layer) == 0; ++k) layer = (layer + 1) % net_.layers();
  }
  if (room(src, layer) == 0) return net::kNoPacket;
  const net::PacketId id = net_.send_on(layer, src, dest, flits, tag);
  scheduler_.activate(id_);
  return id;
}

std::int64_t ElanEndpoint::space_to_send(NodeId src, int vnet) const {
  if (options_.vnets == 2) return room(src, vnet);
  std::int64_t all = 0;
  for (int l = 0; l < net_.layers(); ++l) all += room(src, l);
  return all;
}

void ElanEndpoint::hold_ejection(NodeId v, int vnet, bool hold) {
  if (options_.vnets == 2) {
    net_.layer(vnet).hold_ejection(v, 0, hold);
    return;
  }
  for (int l = 0; l < net_.layers(); ++l) net_.layer(l).hold_ejection(v, 0, hold);
}

net::EndpointActivity ElanEndpoint::activity() const {
  net::EndpointActivity a;
  a.cycles_without_progress = net_.layer(0).now() + 1;
  for (int l = 0; l < net_.layers(); ++l) {
    const net::Network& layer = net_.layer(l);
    a.flits_in_network += layer.flits_in_network();
    a.queued_packets += layer.queued_packets();
    a.cycles_without_progress = std::min(a.cycles_without_progress, layer.now() - layer.last_progress());
  }
  return a;
}

std::string ElanEndpoint::describe_blocked() const {
  std::string lines;
  for (int l = 0; l < net_.layers(); ++l) {
    const std::string b = net_.layer(l).describe_blocked();
    if (!b.empty()) lines += fmt::format("layer {}:\n{}", l, b);
  }
  return lines;
}

}  // namespace mppnet::machines::cs2
