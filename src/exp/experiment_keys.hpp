// exp/experiment_keys.hpp: the one table of experiment config keys, and the machine presets.
//
// Every field of every params struct in ExperimentConfig is declared here once, with its check and
// a one-line doc; defaults stay in the struct initialisers. The loader, --set, `mppnet list keys`
// and docs/config.md all come from this table.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exp/experiment_config.hpp"
#include "io/key_table.hpp"

namespace mppnet::exp {

const io::KeyTable<ExperimentConfig>& experiment_keys();

// Every key with type, default, range and doc, in declaration order (sections in file order).
// Render with io::render_text or io::render_markdown.
std::vector<io::KeyInfo> experiment_key_list();

// A named machine: (key, TOML value) pairs applied after the defaults and before the file's own keys.
// "generic" is the network model's own; the others are registered by machine folders
// (registry::Preset), in registration order.
struct MachinePreset {
  std::string name;
  std::string doc;  // one line, for `mppnet list machines`
  std::vector<std::pair<std::string, std::string>> sets;
};

const std::vector<MachinePreset>& machine_presets();
// REQUIRES: `name` is one of machine_presets() (machine.preset accepts nothing else).
const MachinePreset& machine_preset(std::string_view name);

}  // namespace mppnet::exp
