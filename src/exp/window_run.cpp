// exp/window_run.cpp: throughput and fixed-length runs: warm up for a set number of cycles, then measure
// what the network delivers in batches, without the latency mode's adaptive warm-up or drain.
#include "exp/window_run.hpp"

#include <algorithm>
#include <optional>

#include "core/scheduler.hpp"
#include "core/stats.hpp"
#include "exp/run_support.hpp"
#include "exp/traffic_source.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

constexpr std::uint64_t kWindowMeasured = 1;

// Keeps every node's send queue full: after each network cycle, a node whose queue has room gets a new
// packet (destination and length from the traffic pattern). The queue holds one packet besides the one
// being injected, so a source never idles and never builds an unbounded backlog.
class BackloggedSource final : public core::Component {
 public:
  BackloggedSource(workload::Traffic& traffic, net::Endpoint& endpoint, core::Scheduler& scheduler,
                   core::DomainId domain)
      : traffic_(traffic), endpoint_(endpoint) {
    scheduler.add(domain, *this, true);
  }
  bool tick(Cycle) override {
    for (NodeId v = 0; v < endpoint_.nodes(); ++v)
      while (endpoint_.space_to_send(v, 0) > 0)
        endpoint_.try_send(v, traffic_.destination(v), traffic_.packet_flits(v), tag_, 0);
    return true;
  }
  void set_tag(std::uint64_t tag) { tag_ = tag; }

 private:
  workload::Traffic& traffic_;
  net::Endpoint& endpoint_;
  std::uint64_t tag_ = 0;
};

class WindowRun final : public net::DeliveryHandler {
 public:
  WindowRun(const ExperimentConfig& cfg, const OpenLoopOptions& options)
      : options_(options),
        run_(cfg.run),
        throughput_(cfg.run.mode == RunMode::Throughput),
        rig_(cfg, {throughput_ ? std::int64_t{1} : net::Endpoint::kUnbounded, false}),
        network_(rig_.built.network),
        nodes_(rig_.built.graph.num_nodes),
        source_flits_(static_cast<std::size_t>(nodes_), 0) {
    network_.shuffle_visit_order(options.shuffle_visit_order);
    rig_.endpoint.set_delivery_handler(this);
    if (throughput_) {
      backlogged_.emplace(rig_.traffic, rig_.endpoint, rig_.scheduler, rig_.domain);
    } else {
      open_loop_.emplace(rig_.traffic, rig_.endpoint, rig_.scheduler, rig_.domain);
    }
    // Without warm-up the measurement starts before the first cycle, so that cycle 0 counts too.
    if (run_.warmup_cycles == 0) start_measuring(0);
    result_.mode = throughput_ ? "throughput" : "fixed";
    result_.offered = throughput_ ? 1.0 : cfg.traffic.rate;
    result_.cycle_ps = cfg.router.cycle_ps;
  }

  OpenLoopResult run() {
    run_watched(rig_.scheduler, network_, rig_.domain, run_, [this] { return done_; });
    return finish();
  }

  void on_delivery(net::PacketId, const net::Packet& p, Picoseconds) override {
    if (!measuring_) return;
    source_flits_[static_cast<std::size_t>(p.src)] += p.flits;
    if (p.tag != kWindowMeasured) return;
    measured_.add(p);
    batch_latency_ += p.delivered - p.created;
    ++batch_packets_;
  }

  void after_cycle(Picoseconds) override {
    const Cycle elapsed = network_.now();
    if (!measuring_) {
      if (elapsed < run_.warmup_cycles) return;
      start_measuring(elapsed);
    }
    if (!throughput_ && elapsed >= run_.cycles) done_ = true;
    if ((elapsed - measure_start_) % run_.batch_cycles != 0 || elapsed == measure_start_) return;
    if (options_.on_progress) options_.on_progress(elapsed, "measure");
    // A batch's accepted throughput: flits delivered per node per cycle.
    accepted_batches_.add_batch(static_cast<double>(network_.counters().flits_ejected - ejected_at_batch_) /
                                (static_cast<double>(nodes_) * static_cast<double>(run_.batch_cycles)));
    ejected_at_batch_ = network_.counters().flits_ejected;
    if (batch_packets_ > 0)
      latency_batches_.add_batch(static_cast<double>(batch_latency_) / static_cast<double>(batch_packets_));
    batch_latency_ = batch_packets_ = 0;
    if (!throughput_) return;  // a fixed run ends at run.cycles, whatever its precision
    const auto batches = static_cast<int>(accepted_batches_.batches());
    const bool precise =
        batches >= run_.min_batches && accepted_batches_.relative_half_width() <= run_.target_ci;
    done_ = precise || batches >= run_.max_batches;
  }

 private:
  // From cycle `at` on, what is delivered is measured and what is created is tagged.
  void start_measuring(Cycle at) {
    measuring_ = true;
    measure_start_ = at;
    set_tag(kWindowMeasured);
    ejected_at_start_ = ejected_at_batch_ = network_.counters().flits_ejected;
    port_flits_at_start_ = network_.port_flits();
  }
  void set_tag(std::uint64_t tag) {
    if (backlogged_) backlogged_->set_tag(tag);
    if (open_loop_) open_loop_->set_tag(tag);
  }

  OpenLoopResult finish() {
    OpenLoopResult& r = result_;
    const Cycle now = network_.now();
    r.warmup_cycles = measure_start_;
    r.measure_cycles = now - measure_start_;
    r.batches = static_cast<int>(accepted_batches_.batches());
    const double node_cycles = static_cast<double>(nodes_) * static_cast<double>(r.measure_cycles);
    r.accepted = static_cast<double>(network_.counters().flits_ejected - ejected_at_start_) / node_cycles;
    r.accepted_ci95 = accepted_batches_.batches() >= 2 ? accepted_batches_.half_width_95() : 0;
    r.latency_ci95 = latency_batches_.batches() >= 2 ? latency_batches_.half_width_95() : 0;
    const auto [lo, hi] = std::minmax_element(source_flits_.begin(), source_flits_.end());
    r.accepted_min_source = static_cast<double>(*lo) / static_cast<double>(r.measure_cycles);
    r.accepted_max_source = static_cast<double>(*hi) / static_cast<double>(r.measure_cycles);
    for (const std::int64_t flits : source_flits_)
      r.accepted_per_source.push_back(static_cast<double>(flits) / static_cast<double>(r.measure_cycles));
    r.channel_utilization =
        channel_utilization(rig_.built.graph, network_.port_flits(), port_flits_at_start_, r.measure_cycles);
    measured_.report(r);
    r.flit_hops = network_.counters().flit_hops;
    r.simulated_cycles = now;
    r.node_cycles = static_cast<std::int64_t>(nodes_) * now;
    return r;
  }

  const OpenLoopOptions& options_;
  const RunParams& run_;
  const bool throughput_;
  TrafficRig rig_;
  net::NetworkModel& network_;
  int nodes_;
  std::optional<BackloggedSource> backlogged_;
  std::optional<TrafficSource> open_loop_;

  OpenLoopResult result_;
  bool done_ = false, measuring_ = false;
  Cycle measure_start_ = 0;
  std::int64_t ejected_at_start_ = 0, ejected_at_batch_ = 0;
  std::vector<std::int64_t> port_flits_at_start_;
  std::vector<std::int64_t> source_flits_;  // flits delivered while measuring, by source
  core::BatchMeans accepted_batches_, latency_batches_;
  std::int64_t batch_latency_ = 0, batch_packets_ = 0;  // measured packets delivered in this batch
  PacketLatencies measured_;                            // packets created and delivered while measuring
};

}  // namespace

OpenLoopResult run_window(const ExperimentConfig& cfg, const OpenLoopOptions& options) {
  return WindowRun(cfg, options).run();
}

}  // namespace mppnet::exp
