// exp/traffic_source.hpp: open-loop synthetic traffic as timed events of the scheduler.
//
// Each node's next arrival is one event (a calendar queue holds them, so an idle node costs nothing).
// At an arrival the source draws the destination and the length and offers the packet to the
// network's endpoint, whose unbounded send queue never refuses it (open loop: the offered load does not
// depend on how the network copes), then draws the node's next arrival.
#pragma once

#include <cstdint>

#include "core/scheduler.hpp"
#include "net/endpoint.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

class TrafficSource final : public core::Component {
 public:
  // Schedules every node's first arrival at or after cycle 0 of `domain`.
  // REQUIRES: the endpoint's send queues are unbounded; every argument outlives the source.
  TrafficSource(workload::Traffic& traffic, net::Endpoint& endpoint, core::Scheduler& scheduler,
                core::DomainId domain);

  // The tag every packet created from now on carries (e.g. "created while measuring").
  void set_tag(std::uint64_t tag) { tag_ = tag; }
  // Packets created with a nonzero tag so far.
  std::int64_t tagged_created() const { return tagged_created_; }

  bool tick(Cycle) override { return false; }
  void on_event(std::uint32_t kind, std::uint64_t node) override;

 private:
  workload::Traffic& traffic_;
  net::Endpoint& endpoint_;
  core::Scheduler& scheduler_;
  Picoseconds period_ps_;
  core::ComponentId id_;
  std::uint64_t tag_ = 0;
  std::int64_t tagged_created_ = 0;
};

}  // namespace mppnet::exp
