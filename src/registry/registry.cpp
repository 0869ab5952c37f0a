// registry/registry.cpp: adding machines, and finding their models, presets, commands and cases.
#include "registry/registry.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::registry {

namespace {

template <class Range, class Name>
bool has_name(const Range& items, std::string_view name, Name name_of) {
  return std::any_of(items.begin(), items.end(), [&](const auto& item) { return name_of(item) == name; });
}

}  // namespace

void Registry::add(Machine machine) {
  // Two folders that claim one name would make `mppnet` pick whichever registered last: a bug in a
  // machine folder, caught the first time the registry is built (every test run builds it).
  MPPNET_ASSERT(!machine.name.empty(), "a machine registers without a name");
  MPPNET_ASSERT(!has_name(machines_, machine.name, [](const Machine& m) { return m.name; }),
                "two machines register the same name");
  for (const Model& model : machine.models) {
    MPPNET_ASSERT(model.name != kNetworkModel && find_model(model.name) == nullptr,
                  "two machines register the same model");
    MPPNET_ASSERT(model.keys && model.check, "a model registers without its key table or loader");
  }
  for (const Preset& preset : machine.presets) {
    for (const Preset* other : presets_for(preset.model))
      MPPNET_ASSERT(other->name != preset.name, "two machines register the same preset");
  }
  for (const Command& command : machine.commands) {
    MPPNET_ASSERT(command.declare != nullptr, "a command registers without its declaration");
    for (const Machine& m : machines_)
      MPPNET_ASSERT(!has_name(m.commands, command.name, [](const Command& c) { return c.name; }),
                    "two machines register the same command");
  }
  machines_.push_back(std::move(machine));
}

const Model* Registry::find_model(std::string_view name) const {
  for (const Machine& m : machines_)
    for (const Model& model : m.models)
      if (model.name == name) return &model;
  return nullptr;
}

std::vector<const Preset*> Registry::presets_for(std::string_view model) const {
  std::vector<const Preset*> out;
  for (const Machine& m : machines_)
    for (const Preset& p : m.presets)
      if (p.model == model) out.push_back(&p);
  return out;
}

std::string Registry::commands_hint(std::string_view model) const {
  std::vector<std::string> commands;
  if (const Model* m = find_model(model); m != nullptr && m->run) commands.push_back("mppnet run");
  for (const Machine& m : machines_)
    for (const Command& c : m.commands)
      if (c.model == model) commands.push_back("mppnet " + c.name);
  std::string hint;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) hint += i + 1 == commands.size() ? " or " : ", ";
    hint += commands[i];
  }
  return hint.empty() ? "" : "use " + hint;
}

std::vector<core::ValidationCase> Registry::validation_cases() const {
  std::vector<core::ValidationCase> all;
  for (const Machine& m : machines_) {
    if (!m.validation_cases) continue;
    for (auto& c : m.validation_cases()) all.push_back(std::move(c));
  }
  return all;
}

}  // namespace mppnet::registry
