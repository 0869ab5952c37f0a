// app/app_presets_test.cpp: every preset in configs/ runs every application it claims, with its defaults.
//
// A preset claims every application of `mppnet list apps` when its model runs node programs (the generic
// network, and machine models that register node programs: the CM-5). Presets of other models (CM-1, METRO)
// claim none, and `mppnet app` says which commands they are for. Here every pair on presets of up to
// kMaxNodesHere nodes runs (about 10 s in all); on the presets of about 1,000 nodes, where the defaults are
// fitted to P, every pair is checked without running
// (`mppnet app --check`: the application's own parameter checks), since their runs take from 0.1 s to
// minutes each; tests/app_presets.sh runs them.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/app_commands.hpp"
#include "core/error.hpp"
#include "io/config_loader.hpp"
#include "registry/config_command.hpp"
#include "registry/registry.hpp"
#include "topo/build.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::app {
namespace {

constexpr long long kMaxNodesHere = 128;

struct Preset {
  std::filesystem::path path;
  const registry::Model* model = nullptr;  // nullptr: the generic network
};

// The presets whose model runs node programs and that claim applications.
std::vector<Preset> claiming_presets() {
  std::vector<Preset> out;
  for (const auto& entry : std::filesystem::directory_iterator(MPPNET_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    const io::ConfigFile file = io::open_config_file(entry.path().string());
    const std::string model = registry::model_of(file, {});
    if (model == registry::kNetworkModel) {
      out.push_back({entry.path(), nullptr});
      continue;
    }
    const registry::Model* m = registry::machines().find_model(model);
    if (m != nullptr && m->node_programs.build) out.push_back({entry.path(), m});
  }
  std::sort(out.begin(), out.end(), [](const Preset& a, const Preset& b) { return a.path < b.path; });
  return out;
}

class PresetApps : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mppnet_app_presets_" + std::to_string(::getpid()));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

// The preset's node count: the network's, or the machine model's machine.nodes (the CM-5 presets) or
// machine.pes (the CS-2's).
long long nodes_of(const Preset& p, const io::ConfigFile& file) {
  if (p.model == nullptr) return topo::node_count(load_app_config(file, {}).experiment.topology);
  const auto machine = file.doc["machine"];
  return machine["nodes"].value<long long>().value_or(machine["pes"].value<long long>().value_or(0));
}

// `mppnet app NAME PRESET [--check]` with the preset's defaults; its status, or -1 after a failure that
// names the pair.
int run_pair(const Preset& p, const io::ConfigFile& file, const std::string& app,
             const std::filesystem::path& out, bool check_only) {
  try {
    const AppRunOptions options{.progress = false, .check_only = check_only};
    return p.model == nullptr ? app_command(app, file, {}, out, options)
                              : app_command(app, file, {}, out, *p.model, options);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "mppnet app " << app << " " << p.path.filename() << ": " << e.what();
  }
  return -1;
}

TEST_F(PresetApps, EverySmallPresetRunsEveryApplicationWithItsDefaults) {
  int ran = 0;
  for (const Preset& p : claiming_presets()) {
    const io::ConfigFile file = io::open_config_file(p.path.string());
    const long long nodes = nodes_of(p, file);
    ASSERT_GT(nodes, 0) << p.path;
    if (nodes > kMaxNodesHere) continue;
    for (const auto& app : workload::apps::applications()) {
      const int status = run_pair(p, file, app.name, dir_ / (p.path.stem().string() + "-" + app.name), false);
      EXPECT_EQ(status, 0) << "mppnet app " << app.name << " " << p.path.filename();
      ++ran;
    }
  }
  // mesh8x8, torus8x8, tree4ary3, dragonfly-72, cm5-32 and cs2-64: 6 presets x 9 applications at least.
  EXPECT_GE(ran, 54);
}

TEST_F(PresetApps, EveryLargePresetAcceptsEveryApplicationsDefaults) {
  int checked = 0;
  for (const Preset& p : claiming_presets()) {
    const io::ConfigFile file = io::open_config_file(p.path.string());
    if (nodes_of(p, file) <= kMaxNodesHere) continue;
    for (const auto& app : workload::apps::applications()) {
      const auto out = dir_ / (p.path.stem().string() + "-" + app.name);
      EXPECT_EQ(run_pair(p, file, app.name, out, true), 0)
          << "mppnet app " << app.name << " " << p.path.filename();
      EXPECT_FALSE(std::filesystem::exists(out)) << "--check wrote results";
      ++checked;
    }
  }
  // cm5_1024, demo, hypercube1024, dragonfly-1056 and cm5-1024: 5 presets x 9 applications at least.
  EXPECT_GE(checked, 45);
}

TEST_F(PresetApps, EveryApplicationFitsACm5OfSizesThatAreNotPowersOfTwo) {
  // The largest CM-5 preset at sizes between its powers of two, above the 4,096 nodes where the
  // transpose FFT stops: every application's defaults fit (the FFT's binary exchange on the power of
  // two below, the rest on every node).
  const io::ConfigFile file = io::open_config_file(MPPNET_SOURCE_DIR "/configs/cm5-16384.toml");
  const registry::Model* model = registry::machines().find_model("cm5");
  ASSERT_NE(model, nullptr);
  for (const int nodes : {96, 4128, 8224, 16352})
    for (const auto& app : workload::apps::applications()) {
      const AppRunOptions options{.progress = false, .check_only = true};
      try {
        EXPECT_EQ(app_command(app.name, file, {"machine.nodes=" + std::to_string(nodes)}, dir_ / "x", *model,
                              options),
                  0)
            << app.name << " on " << nodes;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "mppnet app " << app.name << " on " << nodes << " nodes: " << e.what();
      }
    }
}

// The xor all-to-all on a CM-5 whose size is not a power of two: rounds whose partner lies beyond the
// machine are skipped, and every block still arrives (the run's check passes: status 0).
TEST_F(PresetApps, TheXorAllToAllRunsOnACm5OfASizeThatIsNotAPowerOfTwo) {
  const io::ConfigFile file = io::open_config_file(MPPNET_SOURCE_DIR "/configs/cm5-16384.toml");
  const registry::Model* model = registry::machines().find_model("cm5");
  ASSERT_NE(model, nullptr);
  const AppRunOptions options{.progress = false, .check_only = false};
  EXPECT_EQ(app_command("alltoall", file, {"machine.nodes=96", "app.alltoall_schedule=xor"}, dir_ / "xor",
                        *model, options),
            0);
}

}  // namespace
}  // namespace mppnet::app
