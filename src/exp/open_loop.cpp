// exp/open_loop.cpp: the open-loop methodology (warm-up, batch-means measurement, drain, saturation).
//
// Packets created while measuring are tagged; latency statistics cover exactly those, after they have
// all drained, so a slow packet cannot escape the average by being late. The stopping rule and the
// confidence interval use batch means of the latency of packets delivered in each batch.
#include "exp/open_loop.hpp"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "core/scheduler.hpp"
#include "core/stats.hpp"
#include "exp/run_support.hpp"
#include "exp/traffic_source.hpp"
#include "exp/window_run.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

constexpr std::uint64_t kOpenLoopMeasured = 1;

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

// One open-loop run: the scheduler steps the network every cycle and the traffic source's arrivals come
// before each cycle; this measures what each cycle delivered and moves through the phases.
class OpenLoopRun final : public net::DeliveryHandler {
 public:
  OpenLoopRun(const ExperimentConfig& cfg, const OpenLoopOptions& options)
      : options_(options),
        run_(cfg.run),
        rig_(cfg, {}),
        network_(rig_.built.network),
        nodes_(rig_.built.graph.num_nodes),
        source_(rig_.traffic, rig_.endpoint, rig_.scheduler, rig_.domain) {
    network_.shuffle_visit_order(options.shuffle_visit_order);
    rig_.endpoint.set_delivery_handler(this);
    result_.offered = cfg.traffic.rate;
    result_.cycle_ps = cfg.router.cycle_ps;
    port_flits_at_window_ = network_.port_flits();
  }

  OpenLoopResult run() {
    run_watched(rig_.scheduler, network_, rig_.domain, run_, [this] { return done_; });
    return finish();
  }

  void on_delivery(net::PacketId, const net::Packet& p, Picoseconds) override {
    batch_.latency += p.delivered - p.created;
    ++batch_.packets;
    window_.delivered.add(p);
    if (p.tag == kOpenLoopMeasured) {
      measured_.add(p);
      ++tagged_done_;
      measured_latency_ += p.delivered - p.created;
    }
  }

  void after_cycle(Picoseconds) override {
    const Cycle elapsed = network_.now();
    if (phase_ == Phase::Drain) {
      if (tagged_done_ == source_.tagged_created()) {
        done_ = true;
      } else if (elapsed - measure_end_ > run_.drain_cycles) {
        saturate(fmt::format("{} measured packets still undelivered {} cycles after measurement",
                             source_.tagged_created() - tagged_done_, run_.drain_cycles));
        done_ = true;
      }
      return;
    }
    if (elapsed % run_.batch_cycles != 0) return;
    if (options_.on_progress) options_.on_progress(elapsed, phase_name(phase_));
    const double mean = batch_.mean();
    result_.last_batch_latency_avg = mean;
    const std::int64_t delivered_in_batch = batch_.packets;
    batch_ = BatchSum{};
    if (phase_ == Phase::Warmup) {
      end_of_warmup_batch(elapsed, mean);
    } else {
      end_of_measure_batch(elapsed, mean, delivered_in_batch);
    }
  }

 private:
  void saturate(std::string why) {
    result_.saturated = true;
    result_.saturation_reason = std::move(why);
  }

  void end_of_warmup_batch(Cycle elapsed, double mean) {
    // Warm-up ends once the batch latency stops rising (within 5%); in saturation it rises forever.
    // Under the fixed rule it ends at warmup_cycles whatever the latency does, as BookSim's does when
    // warmup_periods > 0 (trafficmanager.cpp, _SingleSim): only the latency limit stops it earlier.
    const bool fixed = run_.warmup_rule == WarmupRule::Fixed;
    const bool settled = fixed || (previous_batch_mean_ >= 0 && mean <= 1.05 * previous_batch_mean_);
    previous_batch_mean_ = mean;
    previous_rate_ = static_cast<double>(network_.counters().flits_ejected - ejected_at_batch_) /
                     (static_cast<double>(nodes_) * static_cast<double>(run_.batch_cycles));
    ejected_at_batch_ = network_.counters().flits_ejected;
    if (mean > run_.saturation_latency) {
      saturate(
          fmt::format("the mean latency of a warm-up batch, {:.1f} cycles, exceeds "
                      "run.saturation_latency = {}",
                      mean, run_.saturation_latency));
      result_.warmup_cycles = elapsed;
      done_ = true;
      return;
    }
    if (!fixed && elapsed >= run_.max_warmup_cycles && !settled) {
      saturate(fmt::format("latency still rising after run.max_warmup_cycles = {}", run_.max_warmup_cycles));
      result_.warmup_cycles = elapsed;
      done_ = true;
      return;
    }
    if (window_start_ == 0) open_window(elapsed);  // the first batch filled the network
    if (elapsed < run_.warmup_cycles || !settled) return;
    open_window(elapsed);
    phase_ = Phase::Measure;
    source_.set_tag(kOpenLoopMeasured);
    result_.warmup_cycles = elapsed;
    measure_start_ = elapsed;
    ejected_at_start_ = network_.counters().flits_ejected;
    queued_at_start_ = network_.queued_packets();
    port_flits_at_start_ = network_.port_flits();
  }

  void end_of_measure_batch(Cycle elapsed, double mean, std::int64_t delivered_in_batch) {
    // A batch that delivered nothing has no mean latency; counting it as 0 would pull the interval away
    // from the latency it is printed beside.
    if (delivered_in_batch > 0) batch_means_.add_batch(mean);
    ++measured_windows_;  // bounds the measurement even when few batches deliver anything
    const auto batches = static_cast<int>(batch_means_.batches());
    const bool precise =
        run_.stop_rule == StopRule::Converged
            ? converged(elapsed)
            : batches >= run_.min_batches && batch_means_.relative_half_width() <= run_.target_ci;
    if (mean > run_.saturation_latency) {
      saturate(
          fmt::format("the mean latency of a measured batch, {:.1f} cycles, exceeds "
                      "run.saturation_latency = {}",
                      mean, run_.saturation_latency));
    }
    if (!precise && measured_windows_ < run_.max_batches && !result_.saturated) return;
    measure_end_ = elapsed;
    ejected_at_end_ = network_.counters().flits_ejected;
    port_flits_at_end_ = network_.port_flits();  // the drain's flits are not the measurement's
    // Source queues that grew by more than 5% of what was offered (plus one packet per node of slack
    // for the random walk near saturation) mean the network cannot keep up.
    const std::int64_t growth = network_.queued_packets() - queued_at_start_;
    if (!result_.saturated && growth > source_.tagged_created() / 20 + nodes_) {
      saturate(fmt::format("source queues grew by {} packets while measuring", growth));
    }
    if (result_.saturated) {
      done_ = true;
      return;
    }
    phase_ = Phase::Drain;
    source_.set_tag(0);
  }

  // BookSim's stopping rule (trafficmanager.cpp, _SingleSim): after each batch, the mean latency of the
  // measured packets delivered so far and the accepted rate since measuring began are compared with
  // their values a batch earlier (the first measured batch with the last warm-up batch's); min_batches
  // changes in a row of at most converge_change each end the measurement.
  bool converged(Cycle elapsed) {
    const double latency =
        tagged_done_ > 0 ? static_cast<double>(measured_latency_) / static_cast<double>(tagged_done_) : 0.0;
    const double rate = static_cast<double>(network_.counters().flits_ejected - ejected_at_start_) /
                        (static_cast<double>(nodes_) * static_cast<double>(elapsed - measure_start_));
    auto change = [](double now, double before) { return now > 0 ? std::fabs(now - before) / now : 1.0; };
    const bool steady = change(latency, previous_batch_mean_) <= run_.converge_change &&
                        change(rate, previous_rate_) <= run_.converge_change;
    converged_batches_ = steady ? converged_batches_ + 1 : 0;
    previous_batch_mean_ = latency;
    previous_rate_ = rate;
    return converged_batches_ >= run_.min_batches;
  }

  OpenLoopResult finish() {
    OpenLoopResult& r = result_;
    r.batches = static_cast<int>(batch_means_.batches());
    if (measure_end_ == 0) measure_end_ = network_.now();
    r.measure_cycles = measure_start_ > 0 ? measure_end_ - measure_start_ : 0;
    r.drain_cycles = measure_start_ > 0 ? network_.now() - measure_end_ : 0;
    if (r.saturated && measure_start_ == 0) {
      // Stopped in warm-up: throughput over the window instead of a measurement that never began.
      r.measure_cycles = measure_end_ - window_start_;
      ejected_at_start_ = window_.ejected_at_start;
      port_flits_at_start_ = port_flits_at_window_;
    }
    if (r.measure_cycles > 0) {
      if (ejected_at_end_ == 0) ejected_at_end_ = network_.counters().flits_ejected;
      if (port_flits_at_end_.empty()) port_flits_at_end_ = network_.port_flits();
      r.accepted = static_cast<double>(ejected_at_end_ - ejected_at_start_) /
                   (static_cast<double>(nodes_) * static_cast<double>(r.measure_cycles));
      r.channel_utilization =
          channel_utilization(rig_.built.graph, port_flits_at_end_, port_flits_at_start_, r.measure_cycles);
    }
    r.latency_ci95 = batch_means_.batches() >= 2 ? batch_means_.half_width_95() : 0;
    // A saturated point's measured packets never all arrived: its latency is that of every packet
    // delivered in the window before the stop (the slowest are missing, so it is a lower bound).
    (r.saturated ? window_.delivered : measured_).report(r);
    r.flit_hops = network_.counters().flit_hops;
    r.simulated_cycles = network_.now();
    r.node_cycles = static_cast<std::int64_t>(nodes_) * network_.now();
    return r;
  }

  // Starts the window a saturated point reports: what was delivered from here to the stop.
  void open_window(Cycle elapsed) {
    window_start_ = elapsed;
    window_ = Window{};
    window_.ejected_at_start = network_.counters().flits_ejected;
    port_flits_at_window_ = network_.port_flits();
  }

  const OpenLoopOptions& options_;
  const RunParams& run_;
  TrafficRig rig_;
  net::NetworkModel& network_;
  int nodes_;
  TrafficSource source_;

  OpenLoopResult result_;
  bool done_ = false;
  Phase phase_ = Phase::Warmup;
  BatchSum batch_;
  double previous_batch_mean_ = -1;
  double previous_rate_ = 0;           // accepted flits per node and cycle, as previous_batch_mean_
  std::int64_t ejected_at_batch_ = 0;  // flits ejected when the last warm-up batch began
  std::int64_t measured_latency_ = 0;  // total latency of the measured packets delivered
  int converged_batches_ = 0;
  int measured_windows_ = 0;
  core::BatchMeans batch_means_;
  PacketLatencies measured_;  // the packets created while measuring
  std::int64_t tagged_done_ = 0;
  Cycle measure_start_ = 0, measure_end_ = 0;
  std::int64_t ejected_at_start_ = 0, ejected_at_end_ = 0, queued_at_start_ = 0;
  std::vector<std::int64_t> port_flits_at_start_, port_flits_at_end_;
  // The window of a saturated point: the measurement once it began, else the warm-up after its first
  // batch (the whole warm-up if the first batch already saturated).
  struct Window {
    PacketLatencies delivered;
    std::int64_t ejected_at_start = 0;
  };
  Cycle window_start_ = 0;
  Window window_;
  std::vector<std::int64_t> port_flits_at_window_;
};

}  // namespace

OpenLoopResult run_open_loop(const ExperimentConfig& cfg, const OpenLoopOptions& options) {
  if (cfg.run.mode != RunMode::Latency) return run_window(cfg, options);
  return OpenLoopRun(cfg, options).run();
}

ProbeNetwork::ProbeNetwork(const ExperimentConfig& cfg)
    : run_(cfg.run),
      built_(cfg.topology, cfg.router, static_cast<std::uint64_t>(cfg.run.seed)),
      endpoint_(built_.network, scheduler_, scheduler_.add_domain("network", cfg.router.cycle_ps)) {
  endpoint_.set_delivery_handler(this);
}

void ProbeNetwork::on_delivery(net::PacketId id, const net::Packet& p, Picoseconds) {
  last_ = {p.delivered - p.created, p.hops, built_.network.route_header(id)};
  delivered_ = true;
}

SinglePacket ProbeNetwork::send(NodeId src, NodeId dest, int flits) {
  delivered_ = false;
  static_cast<void>(endpoint_.try_send(src, dest, flits, 0, 0));
  run_watched(scheduler_, built_.network, endpoint_.domain(), run_, [&] { return delivered_; });
  // The last credits come home (a channel latency after the tail) before the next packet starts.
  const net::RouterParams& router = built_.network.params();
  scheduler_.run_until_time(scheduler_.now() + (router.credit_cycles() + 1) * router.cycle_ps);
  return last_;
}

SinglePacket run_single_packet(const ExperimentConfig& cfg, NodeId src, NodeId dest, int flits) {
  return ProbeNetwork(cfg).send(src, dest, flits);
}

}  // namespace mppnet::exp
