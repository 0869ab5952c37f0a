// net/clocked_network.hpp: the flit-level network as a scheduler component and an endpoint.
//
// It steps a network model (net::Network or net::PacketNetwork) once per edge of its clock domain, announces
// what each cycle delivered to the delivery handler, and keeps each node's send queue within the endpoint's
// depth. It ticks only while the network has work, and for a few cycles after the last flit moved so that the
// last credits land
// (`sleeps_when_idle`); asleep, it costs nothing, and try_send wakes it. The network's own cycle counter
// counts only the cycles it was stepped, so the adapter maps its cycles to the scheduler's time: a jump
// over an idle stretch changes no timing inside the network.
// Open-loop experiments keep it ticking every cycle (their sources inject at every cycle anyway).
#pragma once

#include <cstdint>
#include <string>

#include "core/scheduler.hpp"
#include "net/endpoint.hpp"
#include "net/network.hpp"

namespace mppnet::net {

struct ClockedNetworkOptions {
  std::int64_t send_queue_packets = Endpoint::kUnbounded;  // per node and virtual network
  bool sleeps_when_idle = false;
};

// Cycles a network must still be stepped after its last flit moved before it may sleep: the last
// credit is on the wire that long, and a jump over the sleep must change no timing.
int settle_cycles(const RouterParams& p);

class ClockedNetwork final : public core::Component, public Endpoint {
 public:
  // Adds itself to `scheduler` in domain `domain`, whose period must be the router's cycle_ps.
  // REQUIRES: `network` and `scheduler` outlive it.
  ClockedNetwork(NetworkModel& network, core::Scheduler& scheduler, core::DomainId domain,
                 const ClockedNetworkOptions& options = {});

  // core::Component
  bool tick(Cycle cycle) override;

  // Endpoint
  int nodes() const override { return network_.graph().num_nodes; }
  int vnets() const override { return network_.params().vnets; }
  PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) override {
    return try_send(src, dest, flits, tag, vnet, 0);
  }
  // The same with the routing word the first router sees (NetworkModel::inject), for a routing that reads
  // one: topo::kPathMulticast asks for a path multicast (the T1's MCST).
  PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                    std::uint64_t route_header);
  std::int64_t space_to_send(NodeId src, int vnet) const override {
    return options_.send_queue_packets == kUnbounded
               ? kUnbounded
               : options_.send_queue_packets - network_.source_queue_length(src, vnet);
  }
  void hold_ejection(NodeId v, int vnet, bool hold) override { network_.hold_ejection(v, vnet, hold); }
  void set_delivery_handler(DeliveryHandler* handler) override { handler_ = handler; }
  EndpointActivity activity() const override;
  std::string describe_blocked() const override { return network_.describe_blocked(); }
  std::int64_t cycles_run() const override { return cycles_run_; }
  core::DomainId domain() const override { return domain_; }

 private:
  NetworkModel& network_;
  core::Scheduler& scheduler_;
  ClockedNetworkOptions options_;
  Picoseconds period_ps_;
  core::DomainId domain_;
  core::ComponentId id_;
  // After the last flit moved its credit is still on the wire for credit_delay cycles: the network
  // is stepped that long before it may sleep, so that a jump never changes timing.
  int settle_cycles_;
  Cycle offset_ = 0;  // scheduler cycle minus network cycle
  std::int64_t cycles_run_ = 0;
  DeliveryHandler* handler_ = nullptr;
};

}  // namespace mppnet::net
