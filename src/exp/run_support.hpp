// exp/run_support.hpp: what every open-loop driver (latency, throughput and fixed runs, probes) shares:
// the watched run loop and the channel utilisation of a measured window.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/scheduler.hpp"
#include "core/stats.hpp"
#include "exp/experiment_config.hpp"
#include "exp/open_loop.hpp"
#include "exp/run_params.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"
#include "net/network.hpp"
#include "topo/graph.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

// What every synthetic-traffic run builds: the network, its traffic, and the scheduler that steps the
// network as a component of its own clock domain behind the endpoint contract.
struct TrafficRig {
  TrafficRig(const ExperimentConfig& cfg, const net::ClockedNetworkOptions& endpoint_options);
  net::BuiltNetwork built;
  workload::Traffic traffic;
  core::Scheduler scheduler;
  core::DomainId domain;
  net::ClockedNetwork endpoint;
};

// Latency statistics of a set of delivered packets.
struct PacketLatencies {
  core::Histogram latency;  // creation to tail delivery, cycles
  std::int64_t network_latency_sum = 0, hops_sum = 0;
  void add(const net::Packet& p) {
    latency.add(p.delivered - p.created);
    network_latency_sum += p.delivered - p.injected;
    hops_sum += p.hops;
  }
  // Fills packets_measured, the latency figures, network_latency_avg and hops_avg of r.
  void report(OpenLoopResult& r) const;
};

// Runs `scheduler` until `done` holds, with the no-progress watchdog on the network's domain: flits in
// the network and input VCs blocked for run.watchdog_cycles cycles throw DeadlockError listing them.
void run_watched(core::Scheduler& scheduler, const net::NetworkModel& network, core::DomainId domain,
                 const RunParams& run, std::function<bool()> done);

// Flits per router-to-router channel per cycle over `cycles`, from the port counters at the window's
// start (`at_start`) to now.
double channel_utilization(const topo::Graph& graph, const std::vector<std::int64_t>& now,
                           const std::vector<std::int64_t>& at_start, Cycle cycles);

}  // namespace mppnet::exp
