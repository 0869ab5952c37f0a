// machines/cm5/diagnose_command_test.cpp: `mppnet cm5-diagnose` parses its options, prints every step and
// exits 0 when the fault is found and the machine works; a bad option throws the one-line ConfigError
// that mppnet prints before exiting 2. The report's figures go to diagnose.json and diagnose.csv.
#include "machines/cm5/diagnose_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/error_testing.hpp"

namespace mppnet::machines::cm5 {
namespace {

std::function<int()> declared(CLI::App& app, const std::string& args) {
  const registry::Registry none;
  CLI::App* sub = app.add_subcommand("cm5-diagnose");
  std::function<int()> run = diagnose_command_entry().declare(*sub, none);
  app.parse("cm5-diagnose " + args, false);
  return run;
}

TEST(DiagnoseCommand, PrintsEachStepAndSucceeds) {
  CLI::App app;
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "cm5-diagnose-test";
  std::filesystem::remove_all(dir);
  const auto run =
      declared(app, "--nodes 1024 --fault-chip 969 --stuck 1 --fault-bit 40 --out " + dir.string());
  testing::internal::CaptureStdout();
  EXPECT_EQ(run(), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  // The report's figures are also written: the chip found, and the traffic check's counts.
  std::ifstream file(dir / "diagnose.json");
  const nlohmann::json doc = nlohmann::json::parse(file);
  EXPECT_EQ(doc.at("chips_found"), nlohmann::json::array({969}));
  EXPECT_EQ(doc.at("messages_delivered"), 4000);
  EXPECT_EQ(doc.at("passed"), true);
  EXPECT_TRUE(std::filesystem::exists(dir / "diagnose.csv"));
  std::filesystem::remove_all(dir);
  // Chip 969 is side 1, level 3, node 2, index 1: chip(1, 3, 2, 1) of diagnose_run_test.cpp, whose board
  // 210 (address 011010010) that test derives.
  for (const char* line :
       {"level 3: address 0110BBBBB -> 32 pods: FAIL", "pod found: 210 (address 011010010)",
        "FAIL -> chip 969 (side 1, level 3, node 2, index 1)", "4. repair: route around chip 969",
        "4000 delivered, 0 through the failed chip", "result: fault found and repaired"})
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
}

TEST(DiagnoseCommand, BadOptionsAreOneLineInputErrors) {
  {
    CLI::App app;
    const auto run = declared(app, "--nodes 1000");
    EXPECT_EQ(core::config_error_of(run),
              "--nodes: a CM-5 has a multiple of 32 nodes from 32 to 16384 (got 1000)");
  }
  {
    CLI::App app;
    const auto run = declared(app, "--nodes 64 --fault-chip 200");
    EXPECT_EQ(core::config_error_of(run),
              "--fault-chip: chip 200 is not in a 64-node machine (chips 0 to 55)");
  }
}

}  // namespace
}  // namespace mppnet::machines::cm5
