// machines/metro/study_commands.hpp: `mppnet yield` and `mppnet harvest` on METRO multipath networks.
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::metro {

// `mppnet yield CONFIG [--trials N]`: Monte Carlo of the faults tolerated while the network stays complete.
registry::Command yield_command_entry();

// `mppnet harvest CONFIG`: fraction of nodes still usable after Chong's reconfiguration, per fault level.
registry::Command harvest_command_entry();

}  // namespace mppnet::machines::metro
