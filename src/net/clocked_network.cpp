// net/clocked_network.cpp: stepping the network from the scheduler and announcing its deliveries.
#include "net/clocked_network.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::net {

ClockedNetwork::ClockedNetwork(NetworkModel& network, core::Scheduler& scheduler, core::DomainId domain,
                               const ClockedNetworkOptions& options)
    : network_(network),
      scheduler_(scheduler),
      options_(options),
      period_ps_(scheduler.period_ps(domain)),
      domain_(domain),
      id_(scheduler.add(domain, *this, true)),  // it sleeps once it finds nothing to do
      settle_cycles_(settle_cycles(network.params())) {
  MPPNET_ASSERT(options.send_queue_packets >= 1, "a send queue holds at least one packet");
}

int settle_cycles(const RouterParams& p) {
  return std::max(p.channel_latency, p.credit_cycles()) + p.pipeline_cycles + p.head_cycles() + 2;
}

bool ClockedNetwork::tick(Cycle cycle) {
  offset_ = cycle - network_.now();
  network_.step();
  ++cycles_run_;
  for (const PacketId id : network_.delivered()) {
    if (handler_ != nullptr) {
      const Packet& p = network_.packet(id);
      handler_->on_delivery(id, p, (p.delivered + offset_) * period_ps_);
    }
    network_.release(id);
  }
  if (handler_ != nullptr)
    for (const Ack& a : network_.acknowledged()) handler_->on_ack(a, (a.arrives + offset_) * period_ps_);
  if (handler_ != nullptr) handler_->after_cycle(cycle * period_ps_);
  if (!options_.sleeps_when_idle) return true;
  return !network_.idle() || network_.now() - network_.last_progress() <= settle_cycles_;
}

PacketId ClockedNetwork::try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                                  std::uint64_t route_header) {
  if (space_to_send(src, vnet) <= 0) return kNoPacket;
  const PacketId id = network_.inject(src, dest, flits, tag, vnet, route_header);
  scheduler_.activate(id_);
  return id;
}

EndpointActivity ClockedNetwork::activity() const {
  return {network_.flits_in_network(), network_.queued_packets(), network_.now() - network_.last_progress()};
}

}  // namespace mppnet::net
