// machines/cm5/diagnose_command.hpp: `mppnet cm5-diagnose`, the diagnostic network finding a stuck-at
// fault in a data-network chip and the machine going on without it (machines/cm5/diagnose_run.hpp).
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

// Options: --nodes N, --fault-chip ID or --fault-level L (0: any), --stuck 0|1, --fault-bit B, --seed S,
// --messages M. A bad value throws core::ConfigError naming the option (mppnet prints one line, exit 2);
// the command exits 1 when the diagnosis misses the chip or the traffic check fails.
registry::Command diagnose_command_entry();

}  // namespace mppnet::machines::cm5
