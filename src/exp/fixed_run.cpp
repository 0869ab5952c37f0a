// exp/fixed_run.cpp: the fixed-length open-loop run.
#include "exp/fixed_run.hpp"

#include "core/calendar_queue.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/routing.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

FixedRunCounts run_fixed_cycles(ExperimentConfig cfg, double offered, std::int64_t warmup,
                                std::int64_t measure) {
  cfg.traffic.rate = offered;
  const topo::Graph graph = topo::build(cfg.topology);
  const topo::Routing routing(cfg.topology, graph, cfg.router.vcs);
  const auto seed = static_cast<std::uint64_t>(cfg.run.seed);
  net::Network network(graph, routing, cfg.router, seed);
  workload::Traffic traffic(cfg.traffic, graph.num_nodes, seed);
  core::CalendarQueue<NodeId> arrivals;
  for (NodeId v = 0; v < graph.num_nodes; ++v) arrivals.push(traffic.first_arrival(v, 0), v);
  std::int64_t ejected_at_start = 0;
  for (Cycle t = 0; t < warmup + measure; ++t) {
    if (t == warmup) ejected_at_start = network.counters().flits_ejected;
    while (!arrivals.empty() && arrivals.top_time() <= t) {
      const NodeId v = arrivals.pop().payload;
      network.inject(v, traffic.destination(v), traffic.packet_flits(v));
      arrivals.push(traffic.next_arrival(v, t), v);
    }
    network.step();
    for (const net::PacketId id : network.delivered()) network.release(id);
  }
  FixedRunCounts c;
  c.nodes = graph.num_nodes;
  c.cycles = warmup + measure;
  c.measured_cycles = measure;
  c.flits_ejected = network.counters().flits_ejected - ejected_at_start;
  c.flit_hops = network.counters().flit_hops;
  return c;
}

}  // namespace mppnet::exp
