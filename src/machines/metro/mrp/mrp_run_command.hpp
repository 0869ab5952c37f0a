// machines/metro/mrp/mrp_run_command.hpp: `mppnet run` on a METRO config: MRP traffic (mrp_run.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "machines/metro/metro_config.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::metro::mrp {

// Loads the config, runs its load, prints a table and writes results.json and results.csv to the output
// directory. Bad input throws core::ConfigError (exit status 2); a run that reaches metro.mrp.max_cycles
// with messages left, or reports a message failed, returns kExitRunFailed.
// The figures of a run as results.json holds them, with the config that produced them.
nlohmann::json result_json(const MetroConfig& cfg, const MrpRunResult& r);

int run_command(const registry::ConfigRequest& request);

}  // namespace mppnet::machines::metro::mrp
