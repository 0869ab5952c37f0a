// exp/run_params.hpp: how an open-loop experiment is run ([run] table).
#pragma once

#include <cstdint>

namespace mppnet::exp {

// What a run measures (run.mode).
enum class RunMode {
  Latency,  // open loop at traffic.rate: adaptive warm-up, batch means until precise, drain (exp/open_loop)
  Throughput,  // every source always has a packet waiting: accepted throughput (exp/window_run)
  Fixed,       // open loop at traffic.rate for exactly run.cycles cycles, no drain (exp/window_run)
};

// How the latency mode's warm-up ends (run.warmup_rule).
enum class WarmupRule {
  Settle,  // at warmup_cycles or later, once a batch's latency is within 5% of the one before
  Fixed,   // at exactly warmup_cycles (rounded up to whole batches), as BookSim with warmup_periods > 0
};

// How the latency mode's measurement ends (run.stop_rule).
enum class StopRule {
  Confidence,  // the batch means' 95% CI half-width / mean is below target_ci
  Converged,   // min_batches batches in a row changed the running mean latency and the accepted rate
               // by at most converge_change each (BookSim's rule)
};

struct RunParams {
  RunMode mode = RunMode::Latency;
  std::int64_t cycles = 0;  // fixed mode: the run's length, warm-up included
  std::int64_t seed = 1;
  int warmup_cycles = 1000;       // minimum warm-up; extended until batch latencies stop drifting
  int max_warmup_cycles = 20000;  // warm-up that never stabilises means saturation
  int batch_cycles = 1000;        // length of one batch of the batch-means estimator
  int min_batches = 10;
  int max_batches = 50;
  double target_ci = 0.05;  // stop measuring once the 95% CI half-width / mean is below this
  WarmupRule warmup_rule = WarmupRule::Settle;
  StopRule stop_rule = StopRule::Confidence;
  double converge_change = 0.05;    // stop_rule = converged: largest relative change of a converged batch
  double saturation_latency = 500;  // mean packet latency (cycles) above which a run counts as saturated
  int drain_cycles = 50000;         // limit on draining the measured packets after measurement
  double max_memory_gb = 0;    // refuse a network estimated to need more (0: the host's available memory)
  int watchdog_cycles = 5000;  // cycles without any flit moving while flits are in flight: deadlock
};

}  // namespace mppnet::exp
