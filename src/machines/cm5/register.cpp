// machines/cm5/register.cpp: what the CM-5 adds to mppnet (registry/registry.hpp): its data network as
// a model of its own (machine.model = "cm5") and, for node programs until the network interface joins
// it, a preset of the generic packet network with the same shape.
#include "machines/cm5/config.hpp"
#include "machines/cm5/control_validation.hpp"
#include "machines/cm5/diagnose_command.hpp"
#include "machines/cm5/diagnostic_validation.hpp"
#include "machines/cm5/node_machine.hpp"
#include "machines/cm5/preset.hpp"
#include "machines/cm5/run_command.hpp"
#include "machines/cm5/sets_command.hpp"
#include "machines/cm5/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "cm5",
      .doc = "CM-5 data network: configs/cm5-1024.toml (machine.model = \"cm5\"); its shape as a preset of "
             "the generic network: machine.preset = \"cm5\", configs/cm5_1024.toml",
      .models = {{
          .name = "cm5",
          .title = "cm5: the CM-5 data network (machine.model = \"cm5\", configs/cm5-1024.toml)",
          .keys = cm5_key_list,
          .check =
              [](const io::ConfigFile& file, const std::vector<std::string>& sets) {
                load_cm5(file, sets, {"am", "app"});
              },
          .run = run_command,
          .node_programs = {.am_defaults = cm5_software_costs(), .build = build_node_machine},
      }},
      .presets = {data_network_preset()},
      .validation_cases =
          [] {
            auto cases = control_validation_cases();
            for (auto& c : cm5_validation_cases()) cases.push_back(std::move(c));
            for (auto& c : diagnostic_validation_cases()) cases.push_back(std::move(c));
            // A case that declares no kind holds a number or behaviour the paper (Leiserson et al. 1992)
            // reports for the machine; the others say what they are (cm5.v17, the figure the software
            // cost was fitted to; cm5.v20's derived funnel time).
            for (auto& c : cases)
              if (c.evidence == core::Evidence::Unclassified) c.evidence = core::Evidence::Behaviour;
            return cases;
          },
      .commands = {diagnose_command_entry(), sets_command_entry()},
  });
}

}  // namespace mppnet::machines::cm5
