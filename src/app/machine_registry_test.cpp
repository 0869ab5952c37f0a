// app/machine_registry_test.cpp: every registered machine is complete, and every preset and shipped
// config loads through the model it names (app/ and exp/ find machines only through the registry).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "exp/experiment_config.hpp"
#include "exp/experiment_keys.hpp"
#include "io/config_loader.hpp"
#include "registry/config_command.hpp"
#include "registry/registry.hpp"

namespace mppnet::app {
namespace {

const registry::Registry& machines() {
  return registry::machines();
}

TEST(MachineRegistry, EveryMachineHasANameADocAndAKeyTableToConfigureIt) {
  ASSERT_FALSE(machines().machines().empty());
  for (const registry::Machine& m : machines().machines()) {
    EXPECT_FALSE(m.name.empty());
    EXPECT_FALSE(m.doc.empty()) << m.name;
    // A machine is configured through a model of its own or through presets of another model's keys.
    EXPECT_FALSE(m.models.empty() && m.presets.empty())
        << m.name << " registers neither a model nor a preset";
    for (const registry::Model& model : m.models) {
      EXPECT_FALSE(model.title.empty()) << model.name;
      const auto keys = model.keys();
      EXPECT_FALSE(keys.empty()) << model.name;
      const bool declares_model = std::any_of(keys.begin(), keys.end(),
                                              [](const io::KeyInfo& k) { return k.name == "machine.model"; });
      EXPECT_TRUE(declares_model) << model.name << " does not declare machine.model";
    }
  }
}

TEST(MachineRegistry, EveryPresetLoadsThroughTheModelItBelongsTo) {
  for (const registry::Machine& m : machines().machines()) {
    for (const registry::Preset& p : m.presets) {
      const std::string text = "[machine]\npreset = \"" + p.name + "\"\n";
      if (p.model == registry::kNetworkModel) {
        EXPECT_NO_THROW(exp::load_experiment_text(text, "t.toml", {})) << p.name;
        EXPECT_EQ(exp::machine_preset(p.name).sets, p.sets) << p.name;
      } else {
        const registry::Model* model = machines().find_model(p.model);
        ASSERT_NE(model, nullptr) << p.name << " is a preset of unregistered model " << p.model;
        EXPECT_NO_THROW(model->check(io::config_file_from_text(text, "t.toml"), {})) << p.name;
      }
    }
  }
}

TEST(MachineRegistry, CasesAndCommandsAreNamedAfterTheirMachineAndDoNotClash) {
  const std::set<std::string> built_in = {"run", "sweep", "app", "list", "validate"};
  for (const registry::Machine& m : machines().machines()) {
    if (m.validation_cases) {
      for (const auto& c : m.validation_cases()) EXPECT_EQ(c.id.rfind(m.name + ".", 0), 0u) << c.id;
    }
    for (const registry::Command& c : m.commands) {
      EXPECT_EQ(built_in.count(c.name), 0u) << m.name << " registers built-in command " << c.name;
      if (!c.model.empty()) {
        EXPECT_NE(machines().find_model(c.model), nullptr) << c.name;
      }
    }
  }
}

TEST(MachineRegistry, EveryShippedConfigLoadsThroughTheModelItNames) {
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MPPNET_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    const io::ConfigFile file = io::open_config_file(entry.path().string());
    const std::string model = registry::model_of(file, {});
    if (model == registry::kNetworkModel) {
      EXPECT_NO_THROW(exp::load_experiment(file, {})) << file.path;
    } else {
      const registry::Model* m = machines().find_model(model);
      ASSERT_NE(m, nullptr) << file.path << " names unregistered model " << model;
      EXPECT_NO_THROW(m->check(file, {})) << file.path;
    }
    ++loaded;
  }
  EXPECT_GT(loaded, 0);
}

}  // namespace
}  // namespace mppnet::app
