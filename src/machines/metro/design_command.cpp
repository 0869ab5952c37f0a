// machines/metro/design_command.cpp: `mppnet design CALCULATOR [--option value]...`, one subcommand per
// calculator of design_calculators.cpp.
#include "machines/metro/design_command.hpp"

#include <memory>

#include "core/error.hpp"
#include "machines/metro/design_calculator.hpp"

namespace mppnet::machines::metro {

using design::Args;
using design::Calculator;
using design::CalculatorState;
using design::OptionSpec;

registry::Command design_command_entry() {
  return {
      .name = "design",
      .help = "Design calculators of DeHon's thesis (mppnet design --help)",
      .model = "",
      .declare = [](CLI::App& command, const registry::Registry&) -> std::function<int()> {
        command.require_subcommand(1);
        // Stable addresses: CLI11 binds each option to a value inside these states.
        auto states = std::make_shared<std::vector<std::unique_ptr<CalculatorState>>>();
        for (const Calculator& c : design::calculators()) {
          auto s = std::make_unique<CalculatorState>();
          s->calculator = &c;
          s->command = command.add_subcommand(c.name, c.help);
          for (const OptionSpec& o : c.options) {
            std::string& value = s->values[o.name];
            value = o.value;
            auto* option =
                s->command->add_option(std::string("--") + o.name, value, o.help)->type_name(o.type);
            if (*o.value) option->capture_default_str();
          }
          for (const OptionSpec& f : c.flags)
            s->command->add_flag(std::string("--") + f.name, s->flags[f.name], f.help);
          states->push_back(std::move(s));
        }
        return [states] {
          for (const auto& s : *states) {
            if (!s->command->parsed()) continue;
            s->calculator->run(Args(*s));
            return 0;
          }
          MPPNET_ASSERT(false,
                        "mppnet design ran without a calculator; require_subcommand(1) should prevent it");
          return 0;
        };
      },
  };
}

}  // namespace mppnet::machines::metro
