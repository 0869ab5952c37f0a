// machines/cm5/preset.hpp: the CM-5 data network as a preset of the generic packet network.
#pragma once

#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

// `[machine] preset = "cm5"`: the keys of the generic network (exp/experiment_keys.cpp) that make it the
// CM-5 data network; the file's own keys and --set override them.
registry::Preset data_network_preset();

}  // namespace mppnet::machines::cm5
