// machines/cs2/register.cpp: what the Meiko CS-2 model adds to mppnet (registry/registry.hpp).
//
// The network's structure (layers, naming, route bytes, static channel loads) with the cs2-names command
// and the structural validation cases, unicast traffic on the layers under `mppnet run` with the
// per-switch latency cases, the acknowledgements and the Elan's send window with their cases, and node
// programs on the Elans under `mppnet app` (docs/cs2.md).
#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_run.hpp"
#include "machines/cs2/names_command.hpp"
#include "machines/cs2/node_machine.hpp"
#include "machines/cs2/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cs2 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "cs2",
      .doc = "Meiko CS-2 network: structure, names, routes, unicast traffic and node programs: "
             "configs/cs2-64.toml "
             "(machine.model = \"cs2\")",
      .models = {{
          .name = "cs2",
          .title = "cs2: the Meiko CS-2 network (machine.model = \"cs2\", configs/cs2-64.toml)",
          .keys = cs2_key_list,
          .check =
              [](const io::ConfigFile& file, const std::vector<std::string>& sets) {
                load_cs2(file, sets, {"am", "app"});
              },
          .run = run_command,
          .node_programs = {.am_defaults = cs2_software_costs(), .build = build_node_machine},
      }},
      .presets = {},
      .validation_cases = cs2_validation_cases,
      .commands = {names_command_entry()},
  });
}

}  // namespace mppnet::machines::cs2
