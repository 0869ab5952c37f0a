// machines/cs2/register.cpp: what the Meiko CS-2 model adds to mppnet (registry/registry.hpp).
//
// So far the network's static structure: layers, naming, route bytes and static channel loads, with the
// cs2-names command and the structural validation cases. There is no `run` yet: traffic on the CS-2
// comes with its unicast network (docs/cs2.md, "What is not modelled yet").
#include "machines/cs2/config.hpp"
#include "machines/cs2/names_command.hpp"
#include "machines/cs2/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cs2 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "cs2",
      .doc = "Meiko CS-2 network structure, names and routes: configs/cs2-64.toml (machine.model = \"cs2\")",
      .models = {{
          .name = "cs2",
          .title = "cs2: the Meiko CS-2 network (machine.model = \"cs2\", configs/cs2-64.toml)",
          .keys = cs2_key_list,
          .check = [](const io::ConfigFile& file,
                      const std::vector<std::string>& sets) { load_cs2(file, sets); },
          .run = nullptr,  // no traffic yet: the structure is studied by cs2-names and validate
      }},
      .presets = {},
      .validation_cases = cs2_validation_cases,
      .commands = {names_command_entry()},
  });
}

}  // namespace mppnet::machines::cs2
