// exp/experiment_config.hpp: one experiment, as read from a TOML file plus --set overrides.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/error.hpp"
#include "exp/run_params.hpp"
#include "exp/sweep_params.hpp"
#include "net/router_params.hpp"
#include "topo/topology_params.hpp"
#include "workload/traffic_params.hpp"

namespace mppnet::io {
struct ConfigFile;
}

namespace mppnet::exp {

struct MachineParams {
  std::string model = "network";   // the generic packet network (registry::model_of picks the loader by it)
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
// The preset is the last `--set machine.preset=...` if any, else the file's [machine] preset; it is
// always applied first, whatever the order of the file, so the file and --set override it. The keys
// a preset sets get the location of the machine.preset that chose it as their origin. Only the first
// problem is reported (in file order, then --set order, then check_experiment's order).
ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& sets);

// The same from a file already read and parsed (one parse per command). Sections named in
// `foreign_sections` (an application run's [am] and [app]) belong to another reader of the same file and
// are passed over, as are --set arguments the caller routed elsewhere.
ExperimentConfig load_experiment(const io::ConfigFile& file, const std::vector<std::string>& sets,
                                 const std::vector<std::string>& foreign_sections = {});

// The same from TOML text already in memory; `name` stands for the file in messages.
ExperimentConfig load_experiment_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& sets);

// The whole config, every key with its value (defaults included), grouped by section:
// {"router": {"vcs": 4, ...}, "topology": {"kind": "fat_tree", ...}, ...}, for result files.
nlohmann::json to_json(const ExperimentConfig& c);

// Checks every key's own type and range (a config filled in code has not been through the loader),
// then across keys, in this order: topo::check, workload::check on the topology's node count,
// switching vs buffer depth, run limits, sweep bounds. Throws ConfigError for the first problem,
// located at the origin of the key at fault, or at the file with no line when that key is a default.
void check_experiment(const ExperimentConfig& c);

}  // namespace mppnet::exp
