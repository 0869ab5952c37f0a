// exp/fixed_run.cpp: the fixed-length open-loop run.
#include "exp/fixed_run.hpp"

#include "core/scheduler.hpp"
#include "exp/traffic_source.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

// Counts what the measured window ejected; the network itself counts the rest.
class WindowCounter final : public net::DeliveryHandler {
 public:
  WindowCounter(const net::NetworkModel& network, Cycle warmup) : network_(network), warmup_(warmup) {}
  void on_delivery(net::PacketId, const net::Packet&, Picoseconds) override {}
  // The measured window starts after cycle warmup - 1.
  void after_cycle(Picoseconds) override {
    if (network_.now() == warmup_) ejected_at_start = network_.counters().flits_ejected;
  }
  std::int64_t ejected_at_start = 0;

 private:
  const net::NetworkModel& network_;
  Cycle warmup_;
};

}  // namespace

FixedRunCounts run_fixed_cycles(ExperimentConfig cfg, double offered, std::int64_t warmup,
                                std::int64_t measure) {
  cfg.traffic.rate = offered;
  const auto seed = static_cast<std::uint64_t>(cfg.run.seed);
  net::BuiltNetwork built(cfg.topology, cfg.router, seed);
  workload::Traffic traffic(cfg.traffic, built.graph.num_nodes, seed);
  core::Scheduler scheduler;
  const core::DomainId domain = scheduler.add_domain("network", cfg.router.cycle_ps);
  net::ClockedNetwork endpoint(built.network, scheduler, domain);
  TrafficSource source(traffic, endpoint, scheduler, domain);
  WindowCounter window(built.network, warmup);
  endpoint.set_delivery_handler(&window);
  // Cycles 0 .. warmup + measure - 1, each after the arrivals of its own time.
  if (warmup + measure > 0) scheduler.run_until_time((warmup + measure - 1) * cfg.router.cycle_ps);
  FixedRunCounts c;
  c.nodes = built.graph.num_nodes;
  c.cycles = warmup + measure;
  c.measured_cycles = measure;
  c.flits_ejected = built.network.counters().flits_ejected - window.ejected_at_start;
  c.flit_hops = built.network.counters().flit_hops;
  return c;
}

}  // namespace mppnet::exp
