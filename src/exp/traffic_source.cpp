// exp/traffic_source.cpp: arrivals, in the order the calendar queue gives them.
#include "exp/traffic_source.hpp"

#include "core/error.hpp"

namespace mppnet::exp {

TrafficSource::TrafficSource(workload::Traffic& traffic, net::Endpoint& endpoint, core::Scheduler& scheduler,
                             core::DomainId domain)
    : traffic_(traffic),
      endpoint_(endpoint),
      scheduler_(scheduler),
      period_ps_(scheduler.period_ps(domain)),
      id_(scheduler.add(domain, *this, false)) {
  for (NodeId v = 0; v < endpoint.nodes(); ++v)
    scheduler.schedule(traffic.first_arrival(v, 0) * period_ps_, id_, 0, static_cast<std::uint64_t>(v));
}

void TrafficSource::on_event(std::uint32_t, std::uint64_t node) {
  const auto v = static_cast<NodeId>(node);
  const Cycle now = scheduler_.now() / period_ps_;
  const NodeId dest = traffic_.destination(v);
  const int flits = traffic_.packet_flits(v);
  const net::PacketId id = endpoint_.try_send(v, dest, flits, tag_, 0);
  MPPNET_ASSERT(id != net::kNoPacket, "an open-loop source's unbounded send queue refused a packet");
  tagged_created_ += tag_ != 0;
  scheduler_.schedule(traffic_.next_arrival(v, now) * period_ps_, id_, 0, node);
}

}  // namespace mppnet::exp
