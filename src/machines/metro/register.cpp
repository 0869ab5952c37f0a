// machines/metro/register.cpp: what the METRO model adds to mppnet (registry/registry.hpp).
#include "machines/metro/design_command.hpp"
#include "machines/metro/metro_config.hpp"
#include "machines/metro/mlink/mbta_node_machine.hpp"
#include "machines/metro/mrp/mrp_run_command.hpp"
#include "machines/metro/study_commands.hpp"
#include "machines/metro/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::metro {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "metro",
      .doc = "METRO multipath networks: configs/metro-*.toml (machine.model = \"metro\")",
      .models = {{
                     .name = "metro",
                     .title =
                         "metro: METRO multipath networks (machine.model = \"metro\", configs/metro-*.toml)",
                     .keys = metro_key_list,
                     .check = [](const io::ConfigFile& file,
                                 const std::vector<std::string>& sets) { load_metro(file, sets); },
                     .run = mrp::run_command,  // MRP traffic on the multibutterfly (mrp/mrp_run.hpp)
                 },
                 {
                     // The MBTA (Ch. 10-11): the same files with machine.model = "mbta" and MLINK.
                     .name = "mbta",
                     .title = "mbta: the MBTA, a METRO multibutterfly whose nodes run programs over MLINK "
                              "(machine.model = \"mbta\", configs/mbta-64.toml)",
                     .keys = metro_key_list,
                     .check =
                         [](const io::ConfigFile& file, const std::vector<std::string>& sets) {
                           load_metro(file, sets, {"am", "app"});
                         },
                     .run = mrp::run_command,
                     .node_programs = {.am_defaults = mlink::mbta_software_costs(),
                                       .build = mlink::build_node_machine},
                 }},
      .presets = {},
      .validation_cases = metro_validation_cases,
      .commands = {yield_command_entry(), harvest_command_entry(), design_command_entry()},
  });
}

}  // namespace mppnet::machines::metro
