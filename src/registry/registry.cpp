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
  // Two places that claim one name would make `mppnet` pick whichever came first: a bug in a machine
  // folder, caught the first time the registry is built (every test run builds it). The machine is
  // added first, so that a name it repeats in its own lists is caught as well as one another machine has.
  MPPNET_ASSERT(!machine.name.empty(), "a machine registers without a name");
  MPPNET_ASSERT(!has_name(machines_, machine.name, [](const Machine& m) { return m.name; }),
                "two machines register the same name");
  machines_.push_back(std::move(machine));
  const Machine& added = machines_.back();
  auto count = [this](auto list_of, std::string_view name) {
    long n = 0;
    for (const Machine& m : machines_)
      for (const auto& item : list_of(m)) n += item.name == name;
    return n;
  };
  for (const Model& model : added.models) {
    MPPNET_ASSERT(model.name != kNetworkModel &&
                      count(
                          [](const Machine& m) -> auto& { return m.models; }, model.name) == 1,
                  "two machines register the same model (or one machine twice)");
    MPPNET_ASSERT(model.keys && model.check, "a model registers without its key table or loader");
  }
  for (const Preset& preset : added.presets) {
    long same = 0;
    for (const Preset* other : presets_for(preset.model)) same += other->name == preset.name;
    // "generic" is the generic network's own preset (exp/): a machine's of that name would never be found.
    MPPNET_ASSERT(preset.name != "generic" && same == 1,
                  "two machines register the same preset (or one machine twice, or one named generic)");
  }
  for (const Command& command : added.commands) {
    MPPNET_ASSERT(command.declare != nullptr, "a command registers without its declaration");
    MPPNET_ASSERT(count(
                      [](const Machine& m) -> auto& { return m.commands; }, command.name) == 1,
                  "two machines register the same command (or one machine twice)");
  }
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
