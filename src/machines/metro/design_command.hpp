// machines/metro/design_command.hpp: `mppnet design <calculator>`, the design arithmetic of DeHon's thesis.
//
// One sub-subcommand per calculator of design.hpp. Every option's default reproduces the thesis's worked
// example (note 004c §8 targets, note 004a R6), so `mppnet design rn1` prints 34 ns.
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::metro {

// A bad option value throws core::ConfigError naming the calculator and the option.
registry::Command design_command_entry();

}  // namespace mppnet::machines::metro
