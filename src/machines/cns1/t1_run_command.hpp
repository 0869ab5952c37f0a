// machines/cns1/t1_run_command.hpp: `mppnet run` on a T1 config: every node runs the program, and the
// run reports each node's cycles and instructions.
#pragma once

#include <nlohmann/json.hpp>

#include "machines/cns1/t1_machine.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cns1 {

// The run's record: the config, how it ended, the mesh's figures and one entry per node.
nlohmann::json run_record(const T1Machine& machine, const MachineResult& result);

// Writes results.json, results.csv (the scalar fields) and nodes.csv (a row per node) to request.out
// and prints the table. Exit status 0 when every program exited with status 0; 1 when one did not, one
// failed or the time limit passed; 2 for bad input (core::ConfigError).
int t1_run_command(const registry::ConfigRequest& request);

}  // namespace mppnet::machines::cns1
