// machines/cm1/run_command.hpp: `mppnet run` on a CM-1/CM-2 router config.
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::cm1 {

// One routing instruction: prints petit cycles, bit-times, wire utilisation and messages per second, and
// writes <out>/results.json. Returns 1 when the run did not terminate or broke an invariant, else 0.
int run_command(const registry::ConfigRequest& request);

}  // namespace mppnet::machines::cm1
