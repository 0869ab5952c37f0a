// exp/dragonfly_validation.hpp: the dragonfly's validation cases (docs/validation.md, "Dragonfly").
#pragma once

#include <vector>

#include "exp/experiment_config.hpp"
#include "exp/validation.hpp"
#include "topo/dragonfly.hpp"

namespace mppnet::exp {

std::vector<ValidationCase> dragonfly_validation_cases();

// The preset configs/dragonfly-72.toml as a config: p = 2, a = 4, h = 2 (9 groups, 72 nodes), 4 VCs x
// 8 flits, 4-flit packets.
ExperimentConfig dragonfly_72_config(topo::DragonflyRouting routing);

// Largest |simulated - analytic| zero-load latency over node pairs (every `stride`-th destination), where
// the analytic value L + R (P + L) + S - 1 counts the routers R of each packet's own route: for Valiant
// routing through the intermediate group it drew (read back from its header).
double dragonfly_zero_load_max_error(const ExperimentConfig& cfg, int flits, int stride);

}  // namespace mppnet::exp
