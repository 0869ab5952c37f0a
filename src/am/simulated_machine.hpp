// am/simulated_machine.hpp: a network built from topology and router params, with its am::Machine.
#pragma once

#include <cstdint>

#include "am/am_params.hpp"
#include "am/machine.hpp"
#include "core/scheduler.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::am {

// The router's virtual channels with am's virtual networks set: 2 when requests and replies are
// separate, else 1. The routing sees vcs / vnets VCs per network.
inline net::RouterParams with_vnets(net::RouterParams r, const AmParams& a) {
  r.vnets = a.separate_vnets ? 2 : 1;
  return r;
}

// Owns everything a run needs, built in dependency order: the network, the scheduler with the network's
// clock domain, the network's endpoint (send queues as deep as am.send_queue_packets, asleep while the
// network is quiet) and the machine. REQUIRES: topo::check(topology, vcs / vnets) is empty.
struct SimulatedMachine {
  SimulatedMachine(const topo::TopologyParams& topology, const net::RouterParams& router, const AmParams& am,
                   std::uint64_t seed, std::int64_t watchdog_cycles = 5000)
      : built(topology, with_vnets(router, am), seed),
        network(built.network),
        network_domain(scheduler.add_domain("network", built.network.params().cycle_ps)),
        endpoint(built.network, scheduler, network_domain,
                 {.send_queue_packets = am.send_queue_packets, .sleeps_when_idle = true}),
        machine(endpoint, scheduler, am, watchdog_cycles) {}

  net::BuiltNetwork built;
  net::NetworkModel& network;
  core::Scheduler scheduler;
  core::DomainId network_domain;
  net::ClockedNetwork endpoint;
  Machine machine;
};

}  // namespace mppnet::am
