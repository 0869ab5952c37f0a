// exp/fixed_run.hpp: a fixed number of cycles at a fixed offered load, for saturation figures and speed.
#pragma once

#include <cstdint>

#include "exp/experiment_config.hpp"

namespace mppnet::exp {

struct FixedRunCounts {
  int nodes = 0;
  std::int64_t cycles = 0;  // warm-up + measured
  std::int64_t measured_cycles = 0;
  std::int64_t flits_ejected = 0;  // while measuring
  std::int64_t flit_hops = 0;      // over the whole run
  double accepted() const {        // flits per node per cycle while measuring
    return static_cast<double>(flits_ejected) /
           (static_cast<double>(nodes) * static_cast<double>(measured_cycles));
  }
};

// Offers cfg.traffic at `offered` flits/node/cycle for warmup + measure cycles (no drain).
FixedRunCounts run_fixed_cycles(ExperimentConfig cfg, double offered, std::int64_t warmup,
                                std::int64_t measure);

}  // namespace mppnet::exp
