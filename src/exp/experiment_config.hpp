// exp/experiment_config.hpp: one experiment, as read from a TOML file plus --set overrides.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "exp/run_params.hpp"
#include "exp/sweep_params.hpp"
#include "net/router_params.hpp"
#include "topo/topology_params.hpp"
#include "workload/traffic_params.hpp"

namespace mppnet::exp {

struct MachineParams {
  std::string preset = "generic";  // a named set of defaults, applied before the file's own keys
};

struct ExperimentConfig {
  MachineParams machine;
  topo::TopologyParams topology;
  net::RouterParams router;
  workload::TrafficParams traffic;
  RunParams run;
  SweepParams sweep;

  // Where each key was set ("topology.k" -> file and line), for errors found after loading.
  std::map<std::string, core::SourceLocation> origin;
  std::string source_file;  // the config file, or "" when built in code
};

// Reads `path`, applies the machine preset it names, then its own keys, then each "key=value" of `sets`
// in order. Throws core::ConfigError naming file, line, key and reason for every kind of bad input:
// unreadable file, TOML syntax, unknown key (with a did-you-mean), wrong type, value out of range,
// and impossible combinations (topology, traffic pattern vs node count, switching vs buffer depth).
ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& sets);

// The same from TOML text already in memory; `name` stands for the file in messages.
ExperimentConfig load_experiment_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& sets);

// The whole config as TOML-equivalent JSON text (every key, defaults included), for result files.
std::string to_json_text(const ExperimentConfig& c);

// Checks across keys; throws ConfigError pointing at the key at fault (with its origin).
void check_experiment(const ExperimentConfig& c);

}  // namespace mppnet::exp
