// exp/window_run.hpp: the throughput and fixed-length modes (run.mode = "throughput" | "fixed").
#pragma once

#include "exp/experiment_config.hpp"
#include "exp/open_loop.hpp"

namespace mppnet::exp {

// Throughput: every source always has a packet waiting (a send queue of one packet kept full), so the
// offered load is 1 flit per node per cycle whatever the network accepts; after run.warmup_cycles the
// accepted throughput is measured in batches of run.batch_cycles until its 95% interval is within
// run.target_ci (at least run.min_batches, at most run.max_batches).
// Fixed: open-loop traffic at traffic.rate for exactly run.cycles cycles; what was delivered after
// run.warmup_cycles is measured; nothing drains.
// Both report accepted flits per node per cycle with its batch-means interval, the slowest and fastest
// source's delivered rate, and the latency of packets created and delivered in the measured window.
// REQUIRES: check_experiment(cfg) passed and cfg.run.mode is Throughput or Fixed.
OpenLoopResult run_window(const ExperimentConfig& cfg, const OpenLoopOptions& options = {});

}  // namespace mppnet::exp
