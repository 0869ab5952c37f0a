// machines/cm1/register.cpp: what the CM-1/CM-2 router model adds to mppnet (registry/registry.hpp).
#include "machines/cm1/config.hpp"
#include "machines/cm1/run_command.hpp"
#include "machines/cm1/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cm1 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "cm1",
      .doc = "CM-1/CM-2 router model: configs/cm1.toml, configs/cm2.toml (machine.model = \"cm1\")",
      .models = {{
          .name = "cm1",
          .title = "cm1: the CM-1/CM-2 router (machine.model = \"cm1\", configs/cm1.toml)",
          .keys = cm1_key_list,
          .check = [](const io::ConfigFile& file,
                      const std::vector<std::string>& sets) { load_cm1(file, sets); },
          .run = run_command,
      }},
      .presets = {},
      .validation_cases = cm1_validation_cases,
      .commands = {},
  });
}

}  // namespace mppnet::machines::cm1
