// machines/cm5/sets_command.hpp: `mppnet cm5-sets`, the completion of whole message sets on the data
// network against the paper's load estimate (machines/cm5/sets_run.hpp).
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

// Options: --nodes N, --sets a,b, --copies K, --first-round R, --rounds C, --words W, --buffer-nibbles B,
// --deterministic, --seed S, --out DIR. A bad value throws core::ConfigError naming the option (mppnet
// prints one line, exit 2).
registry::Command sets_command_entry();

}  // namespace mppnet::machines::cm5
