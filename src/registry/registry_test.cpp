// registry/registry_test.cpp: finding models, presets, commands and cases among registered machines.
#include "registry/registry.hpp"

#include <gtest/gtest.h>

namespace mppnet::registry {
namespace {

Model model_named(std::string name, bool runs) {
  Model m;
  m.name = std::move(name);
  m.title = m.name + ": a test model";
  m.keys = [] { return std::vector<io::KeyInfo>{}; };
  m.check = [](const io::ConfigFile&, const std::vector<std::string>&) {};
  if (runs) m.run = [](const ConfigRequest&) { return 0; };
  return m;
}

Command command_for(std::string name, std::string model) {
  return {std::move(name), "help", std::move(model),
          [](CLI::App&, const Registry&) -> std::function<int()> { return [] { return 0; }; }};
}

core::ValidationCase case_named(std::string id) {
  core::ValidationCase c;
  c.id = std::move(id);
  return c;
}

Registry two_machines() {
  Registry r;
  r.add({.name = "alpha",
         .doc = "a machine with its own model",
         .models = {model_named("alpha", true)},
         .presets = {},
         .validation_cases =
             [] {
               return std::vector{case_named("alpha.one"), case_named("alpha.two")};
             },
         .commands = {command_for("study", "alpha"), command_for("probe", "alpha")}});
  r.add({.name = "beta",
         .doc = "a preset of the generic network",
         .models = {},
         .presets = {{std::string(kNetworkModel), "beta", "doc", {{"router.vcs", "2"}}}},
         .validation_cases = nullptr,
         .commands = {}});
  return r;
}

TEST(Registry, FindsModelsByNameAndLeavesTheNetworkModelToExp) {
  const Registry r = two_machines();
  ASSERT_NE(r.find_model("alpha"), nullptr);
  EXPECT_EQ(r.find_model("alpha")->title, "alpha: a test model");
  EXPECT_EQ(r.find_model("network"), nullptr);
  EXPECT_EQ(r.find_model("gamma"), nullptr);
}

TEST(Registry, PresetsAreListedPerModelInRegistrationOrder) {
  const Registry r = two_machines();
  const auto network = r.presets_for(kNetworkModel);
  ASSERT_EQ(network.size(), 1u);
  EXPECT_EQ(network[0]->name, "beta");
  EXPECT_TRUE(r.presets_for("alpha").empty());
}

TEST(Registry, HintNamesRunThenTheMachinesCommandsForTheModel) {
  const Registry r = two_machines();
  EXPECT_EQ(r.commands_hint("alpha"), "use mppnet run, mppnet study or mppnet probe");
  EXPECT_EQ(r.commands_hint("network"), "");
}

TEST(Registry, GathersValidationCasesMachineByMachine) {
  const auto cases = two_machines().validation_cases();
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "alpha.one");
  EXPECT_EQ(cases[1].id, "alpha.two");
}

TEST(RegistryDeathTest, TwoMachinesCannotClaimOneName) {
  Registry r = two_machines();
  EXPECT_DEATH(r.add({.name = "alpha",
                      .doc = "",
                      .models = {},
                      .presets = {},
                      .validation_cases = nullptr,
                      .commands = {}}),
               "two machines register the same name");
}

TEST(RegistryDeathTest, TwoMachinesCannotClaimOneCommand) {
  Registry r = two_machines();
  EXPECT_DEATH(r.add({.name = "gamma",
                      .doc = "",
                      .models = {},
                      .presets = {},
                      .validation_cases = nullptr,
                      .commands = {command_for("study", "")}}),
               "two machines register the same command");
}

TEST(RegistryDeathTest, NoMachineMayRegisterTheNetworkModel) {
  Registry r;
  EXPECT_DEATH(r.add({.name = "gamma",
                      .doc = "",
                      .models = {model_named("network", false)},
                      .presets = {},
                      .validation_cases = nullptr,
                      .commands = {}}),
               "two machines register the same model");
}

TEST(RegistryDeathTest, OneMachineCannotListACommandTwice) {
  Registry r;
  EXPECT_DEATH(r.add({.name = "gamma",
                      .doc = "",
                      .models = {},
                      .presets = {},
                      .validation_cases = nullptr,
                      .commands = {command_for("study", ""), command_for("study", "")}}),
               "two machines register the same command");
}

TEST(RegistryDeathTest, NoMachineMayNameAPresetGeneric) {
  // The generic network's own preset is "generic": a machine's of that name would never be found.
  Registry r;
  EXPECT_DEATH(r.add({.name = "gamma",
                      .doc = "",
                      .models = {},
                      .presets = {{std::string(kNetworkModel), "generic", "doc", {}}},
                      .validation_cases = nullptr,
                      .commands = {}}),
               "two machines register the same preset");
}

}  // namespace
}  // namespace mppnet::registry
