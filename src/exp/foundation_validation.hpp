// exp/foundation_validation.hpp: the generic network's own cases: zero-load latency and saturation bounds.
#pragma once

#include <string>
#include <vector>

#include "exp/experiment_config.hpp"
#include "exp/validation.hpp"

namespace mppnet::exp {

std::vector<ValidationCase> foundation_validation_cases();

// The band of every saturation case against a channel-load bound (this network's and the dragonfly's),
// and where it comes from: nothing above the bound, and "just under" it (the requirement
// docs/validation.md states) read as within 10%.
core::Tolerance saturation_tolerance();
const char* saturation_tolerance_origin();

// The configurations the cases use (also used by tests and benchmarks).
ExperimentConfig mesh_8x8_config();
ExperimentConfig torus_8x8_config();
ExperimentConfig hypercube_1024_config();
ExperimentConfig kary_ntree_config(int k, int n);
ExperimentConfig fat_tree_224_config(int levels);

// Accepted throughput (flits/node/cycle) of `cfg` when every node offers `offered` flits/node/cycle,
// measured over `measure` cycles after `warmup` cycles: the saturation throughput once `offered` is
// beyond saturation.
double accepted_throughput(ExperimentConfig cfg, double offered, int warmup, int measure);

// Over node pairs (all pairs, or every `stride`-th destination), simulated zero-load latency minus its
// analytic value L + R H + S - 1 (H = RouterParams::hop_cycles(), docs/router.md); 0 when every pair is
// exact. Returns the largest |difference|.
double zero_load_max_error(const ExperimentConfig& cfg, int flits, int stride);

// Router pipelines with per-stage delays whose zero-load latency is a validation case.
struct PipelineCase {
  std::string id, setup;
  ExperimentConfig config;
  int stride = 1;
};
std::vector<PipelineCase> pipeline_cases();

}  // namespace mppnet::exp
