// machines/cs2/names_command.hpp: `mppnet cs2-names CONFIG [--pe P]... [--to D]...`: Meiko's names of
// PEs and switches and the route bytes of a PE's route table on a CS-2 config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "machines/cs2/config.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cs2 {

// What the command prints for `pes` (each PE's name and its switch) and for every pair pe -> to (the
// table's alternatives and the switches the first one passes). Throws core::ConfigError for a PE the
// machine does not have ("--pe: PE 64 does not exist: the machine has PEs 0 .. 63").
struct NamesReport {
  std::string text;
  nlohmann::json json;
  std::vector<std::vector<std::string>> csv_rows;  // src, dest, alternative, bytes, switches
};
NamesReport names_report(const Cs2Config& c, const std::vector<std::int64_t>& pes,
                         const std::vector<std::int64_t>& to);

registry::Command names_command_entry();

}  // namespace mppnet::machines::cs2
