// app/design_commands.cpp: `mppnet design CALCULATOR [--option value]...`, one subcommand per calculator.
#include "app/design_commands.hpp"

#include <memory>

#include "app/design_calculator.hpp"
#include "core/error.hpp"

namespace mppnet::app {

using design::Args;
using design::Calculator;
using design::CalculatorState;
using design::OptionSpec;

struct DesignCommand::State {
  CLI::App* design = nullptr;
  std::vector<std::unique_ptr<CalculatorState>> calculators;  // stable addresses: CLI11 binds to them
};

DesignCommand::DesignCommand(CLI::App& app) : state_(std::make_unique<State>()) {
  state_->design =
      app.add_subcommand("design", "Design calculators of DeHon's thesis (mppnet design --help)");
  state_->design->require_subcommand(1);
  for (const Calculator& c : design::calculators()) {
    auto s = std::make_unique<CalculatorState>();
    s->calculator = &c;
    s->command = state_->design->add_subcommand(c.name, c.help);
    for (const OptionSpec& o : c.options) {
      std::string& value = s->values[o.name];
      value = o.value;
      auto* option = s->command->add_option(std::string("--") + o.name, value, o.help)->type_name(o.type);
      if (*o.value) option->capture_default_str();
    }
    for (const OptionSpec& f : c.flags)
      s->command->add_flag(std::string("--") + f.name, s->flags[f.name], f.help);
    state_->calculators.push_back(std::move(s));
  }
}

DesignCommand::~DesignCommand() = default;

bool DesignCommand::selected() const {
  return state_->design->parsed();
}

int DesignCommand::run() const {
  for (const auto& s : state_->calculators) {
    if (!s->command->parsed()) continue;
    s->calculator->run(Args(*s));
    return 0;
  }
  MPPNET_ASSERT(false, "mppnet design ran without a calculator; require_subcommand(1) should prevent it");
  return 0;
}

}  // namespace mppnet::app
