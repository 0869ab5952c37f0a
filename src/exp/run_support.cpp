// exp/run_support.cpp: the watched run loop and channel utilisation.
#include "exp/run_support.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::exp {

TrafficRig::TrafficRig(const ExperimentConfig& cfg, const net::ClockedNetworkOptions& endpoint_options)
    : built(cfg.topology, cfg.router, static_cast<std::uint64_t>(cfg.run.seed)),
      traffic(cfg.traffic, built.graph.num_nodes, static_cast<std::uint64_t>(cfg.run.seed)),
      domain(scheduler.add_domain("network", cfg.router.cycle_ps)),
      endpoint(built.network, scheduler, domain, endpoint_options) {}

void PacketLatencies::report(OpenLoopResult& r) const {
  r.packets_measured = static_cast<std::int64_t>(latency.count());
  if (latency.empty()) return;
  const auto n = static_cast<double>(latency.count());
  r.latency_avg = latency.mean();
  r.latency_p50 = latency.percentile(0.5);
  r.latency_p99 = latency.percentile(0.99);
  r.latency_max = latency.max();
  r.network_latency_avg = static_cast<double>(network_latency_sum) / n;
  r.hops_avg = static_cast<double>(hops_sum) / n;
}

void run_watched(core::Scheduler& scheduler, const net::NetworkModel& network, core::DomainId domain,
                 const RunParams& run, std::function<bool()> done) {
  // Stuck means flits in the network and input VCs blocked. Flits still on their wires are moving, not
  // blocked (check_experiment keeps the watchdog longer than any legal move, so that half is a safety
  // net).
  const core::Scheduler::Watchdog watchdog{
      domain, run.watchdog_cycles, [&network] { return network.now() - network.last_progress(); },
      [&network] { return network.flits_in_network() > 0 && !network.describe_blocked().empty(); }};
  if (scheduler.run({core::Scheduler::kForever, std::move(done), watchdog}) !=
      core::Scheduler::Stop::NoProgress)
    return;
  throw core::DeadlockError(fmt::format(
      "deadlock: no flit moved for {} cycles (cycle {}) with {} flits in the network; "
      "blocked input VCs:\n{}",
      run.watchdog_cycles, network.now(), network.flits_in_network(), network.describe_blocked()));
}

double channel_utilization(const topo::Graph& graph, const std::vector<std::int64_t>& now,
                           const std::vector<std::int64_t>& at_start, Cycle cycles) {
  std::int64_t channel_flits = 0, channels = 0;
  for (std::size_t gp = 0; gp < graph.ports.size(); ++gp) {
    if (graph.ports[gp].kind != topo::PeerKind::Router) continue;
    channel_flits += now[gp] - at_start[gp];
    ++channels;
  }
  if (channels == 0 || cycles <= 0) return 0;
  return static_cast<double>(channel_flits) / (static_cast<double>(channels) * static_cast<double>(cycles));
}

}  // namespace mppnet::exp
