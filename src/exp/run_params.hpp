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

struct RunParams {
  RunMode mode = RunMode::Latency;
  std::int64_t cycles = 0;  // fixed mode: the run's length, warm-up included
  std::int64_t seed = 1;
  int warmup_cycles = 1000;       // minimum warm-up; extended until batch latencies stop drifting
  int max_warmup_cycles = 20000;  // warm-up that never stabilises means saturation
  int batch_cycles = 1000;        // length of one batch of the batch-means estimator
  int min_batches = 10;
  int max_batches = 50;
  double target_ci = 0.05;          // stop measuring once the 95% CI half-width / mean is below this
  double saturation_latency = 500;  // mean packet latency (cycles) above which a run counts as saturated
  int drain_cycles = 50000;         // limit on draining the measured packets after measurement
  double max_memory_gb = 0;    // refuse a network estimated to need more (0: the host's available memory)
  int watchdog_cycles = 5000;  // cycles without any flit moving while flits are in flight: deadlock
};

}  // namespace mppnet::exp
