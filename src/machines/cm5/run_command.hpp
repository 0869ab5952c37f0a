// machines/cm5/run_command.hpp: `mppnet run` on a CM-5 config.
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

// Per-node bandwidth by locality beside the paper's figures: a table on stdout, results.json,
// bandwidth.csv and the bandwidth plot in the output directory. Returns the exit status.
int run_command(const registry::ConfigRequest& request);

}  // namespace mppnet::machines::cm5
