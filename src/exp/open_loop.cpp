// exp/open_loop.cpp: the open-loop methodology (warm-up, batch-means measurement, drain, saturation).
//
// Packets created while measuring are tagged; latency statistics cover exactly those, after they have
// all drained, so a slow packet cannot escape the average by being late. The stopping rule and the
// confidence interval use batch means of the latency of packets delivered in each batch.
#include "exp/open_loop.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/calendar_queue.hpp"
#include "core/stats.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/routing.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

constexpr std::uint64_t kMeasured = 1;

enum class Phase { Warmup, Measure, Drain };

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Warmup:
      return "warm-up";
    case Phase::Measure:
      return "measure";
    case Phase::Drain:
      return "drain";
  }
  return "";
}

// Latency totals of the packets delivered in one batch.
struct BatchSum {
  std::int64_t latency = 0;
  std::int64_t packets = 0;
  double mean() const {
    return packets == 0 ? 0.0 : static_cast<double>(latency) / static_cast<double>(packets);
  }
};

void check_watchdog(const net::Network& network, const RunParams& run) {
  if (network.flits_in_network() == 0) return;
  if (network.now() - network.last_progress() <= run.watchdog_cycles) return;
  // Flits still on their wires are moving, not blocked (check_experiment keeps the watchdog longer than
  // any legal move, so this is a safety net).
  const std::string blocked = network.describe_blocked();
  if (blocked.empty()) return;
  throw DeadlockError(
      fmt::format("deadlock: no flit moved for {} cycles (cycle {}) with {} flits in the network; "
                  "blocked input VCs:\n{}",
                  run.watchdog_cycles, network.now(), network.flits_in_network(), blocked));
}

}  // namespace

OpenLoopResult run_open_loop(const ExperimentConfig& cfg, const OpenLoopOptions& options) {
  const topo::Graph graph = topo::build(cfg.topology);
  const topo::Routing routing(cfg.topology, graph, cfg.router.vcs);
  const auto seed = static_cast<std::uint64_t>(cfg.run.seed);
  net::Network network(graph, routing, cfg.router, seed);
  network.shuffle_visit_order(options.shuffle_visit_order);
  const int nodes = graph.num_nodes;
  workload::Traffic traffic(cfg.traffic, nodes, seed);
  const RunParams& run = cfg.run;

  core::CalendarQueue<NodeId> arrivals;
  for (NodeId v = 0; v < nodes; ++v) arrivals.push(traffic.first_arrival(v, 0), v);

  OpenLoopResult result;
  result.offered = cfg.traffic.rate;
  result.cycle_ps = cfg.router.cycle_ps;
  Phase phase = Phase::Warmup;
  BatchSum batch;
  double previous_batch_mean = -1;
  int measured_windows = 0;
  core::BatchMeans batch_means;
  core::Histogram latency;
  std::int64_t network_latency_sum = 0, hops_sum = 0;
  std::int64_t tagged_created = 0, tagged_done = 0;
  Cycle measure_start = 0, measure_end = 0;
  std::int64_t ejected_at_start = 0, ejected_at_end = 0, queued_at_start = 0;
  std::vector<std::int64_t> port_flits_at_start;

  auto saturate = [&](std::string why) {
    result.saturated = true;
    result.saturation_reason = std::move(why);
  };

  while (true) {
    const Cycle now = network.now();
    while (!arrivals.empty() && arrivals.top_time() <= now) {
      const NodeId v = arrivals.pop().payload;
      const NodeId dest = traffic.destination(v);
      const int flits = traffic.packet_flits(v);
      const bool tagged = phase == Phase::Measure;
      network.inject(v, dest, flits, tagged ? kMeasured : 0);
      tagged_created += tagged;
      arrivals.push(traffic.next_arrival(v, now), v);
    }
    network.step();
    for (const net::PacketId id : network.delivered()) {
      const net::Packet& p = network.packet(id);
      const std::int64_t lat = p.delivered - p.created;
      batch.latency += lat;
      ++batch.packets;
      if (p.tag == kMeasured) {
        latency.add(lat);
        network_latency_sum += p.delivered - p.injected;
        hops_sum += p.hops;
        ++tagged_done;
      }
      network.release(id);
    }
    check_watchdog(network, run);

    const Cycle elapsed = network.now();
    if (phase == Phase::Drain) {
      if (tagged_done == tagged_created) break;
      if (elapsed - measure_end > run.drain_cycles) {
        saturate(fmt::format("{} measured packets still undelivered {} cycles after measurement",
                             tagged_created - tagged_done, run.drain_cycles));
        break;
      }
      continue;
    }
    if (elapsed % run.batch_cycles != 0) continue;
    if (options.on_progress) options.on_progress(elapsed, phase_name(phase));
    const double mean = batch.mean();
    const std::int64_t delivered_in_batch = batch.packets;
    batch = BatchSum{};

    if (phase == Phase::Warmup) {
      // Warm-up ends once the batch latency stops rising (within 5%); in saturation it rises forever.
      const bool settled = previous_batch_mean >= 0 && mean <= 1.05 * previous_batch_mean;
      previous_batch_mean = mean;
      if (mean > run.saturation_latency) {
        saturate(fmt::format("mean latency {:.1f} cycles during warm-up exceeds run.saturation_latency = {}",
                             mean, run.saturation_latency));
        result.warmup_cycles = elapsed;
        break;
      }
      if (elapsed >= run.max_warmup_cycles && !settled) {
        saturate(fmt::format("latency still rising after run.max_warmup_cycles = {}", run.max_warmup_cycles));
        result.warmup_cycles = elapsed;
        break;
      }
      if (elapsed < run.warmup_cycles || !settled) continue;
      phase = Phase::Measure;
      result.warmup_cycles = elapsed;
      measure_start = elapsed;
      ejected_at_start = network.counters().flits_ejected;
      queued_at_start = network.queued_packets();
      port_flits_at_start = network.port_flits();
      continue;
    }

    // Phase::Measure. A batch that delivered nothing has no mean latency; counting it as 0 would pull the
    // interval away from the latency it is printed beside.
    if (delivered_in_batch > 0) batch_means.add_batch(mean);
    ++measured_windows;  // bounds the measurement even when few batches deliver anything
    const auto batches = static_cast<int>(batch_means.batches());
    const bool precise = batches >= run.min_batches && batch_means.relative_half_width() <= run.target_ci;
    if (mean > run.saturation_latency) {
      saturate(fmt::format("mean latency {:.1f} cycles exceeds run.saturation_latency = {}", mean,
                           run.saturation_latency));
    }
    if (!precise && measured_windows < run.max_batches && !result.saturated) continue;
    measure_end = elapsed;
    ejected_at_end = network.counters().flits_ejected;
    // Source queues that grew by more than 5% of what was offered (plus one packet per node of slack
    // for the random walk near saturation) mean the network cannot keep up.
    const std::int64_t growth = network.queued_packets() - queued_at_start;
    if (!result.saturated && growth > tagged_created / 20 + nodes) {
      saturate(fmt::format("source queues grew by {} packets while measuring", growth));
    }
    if (result.saturated) break;
    phase = Phase::Drain;
  }

  result.batches = static_cast<int>(batch_means.batches());
  if (measure_end == 0) measure_end = network.now();
  result.measure_cycles = measure_start > 0 ? measure_end - measure_start : 0;
  result.drain_cycles = measure_start > 0 ? network.now() - measure_end : 0;
  if (result.measure_cycles > 0) {
    if (ejected_at_end == 0) ejected_at_end = network.counters().flits_ejected;
    result.accepted = static_cast<double>(ejected_at_end - ejected_at_start) /
                      (static_cast<double>(nodes) * static_cast<double>(result.measure_cycles));
    std::int64_t channel_flits = 0, channels = 0;
    const auto port_flits = network.port_flits();
    for (std::size_t gp = 0; gp < graph.ports.size(); ++gp) {
      if (graph.ports[gp].kind != topo::PeerKind::Router) continue;
      channel_flits += port_flits[gp] - port_flits_at_start[gp];
      ++channels;
    }
    if (channels > 0)
      result.channel_utilization =
          static_cast<double>(channel_flits) /
          (static_cast<double>(channels) * static_cast<double>(result.measure_cycles));
  }
  result.latency_ci95 = batch_means.batches() >= 2 ? batch_means.half_width_95() : 0;
  result.packets_measured = static_cast<std::int64_t>(latency.count());
  if (!latency.empty()) {
    result.latency_avg = latency.mean();
    result.latency_p50 = latency.percentile(0.5);
    result.latency_p99 = latency.percentile(0.99);
    result.latency_max = latency.max();
    result.network_latency_avg =
        static_cast<double>(network_latency_sum) / static_cast<double>(latency.count());
    result.hops_avg = static_cast<double>(hops_sum) / static_cast<double>(latency.count());
  }
  result.flit_hops = network.counters().flit_hops;
  result.node_cycles = static_cast<std::int64_t>(nodes) * network.now();
  return result;
}

SinglePacket run_single_packet(const ExperimentConfig& cfg, NodeId src, NodeId dest, int flits) {
  const topo::Graph graph = topo::build(cfg.topology);
  const topo::Routing routing(cfg.topology, graph, cfg.router.vcs);
  net::Network network(graph, routing, cfg.router, static_cast<std::uint64_t>(cfg.run.seed));
  const net::PacketId id = network.inject(src, dest, flits);
  while (network.delivered().empty()) {
    network.step();
    check_watchdog(network, cfg.run);
  }
  const net::Packet& p = network.packet(id);
  return {p.delivered - p.created, p.hops};
}

}  // namespace mppnet::exp
