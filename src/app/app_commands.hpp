// app/app_commands.hpp: `mppnet app NAME CONFIG` and `mppnet list apps`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "am/am_params.hpp"
#include "exp/experiment_config.hpp"
#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "registry/registry.hpp"
#include "workload/apps/app_params.hpp"

namespace mppnet::app {

// The [am] and [app] tables of a config file.
struct AppSettings {
  am::AmParams am;
  workload::apps::AppParams app;
  io::Origins origin;
  std::string source_file;
};

struct AppRunConfig {
  exp::ExperimentConfig experiment;  // everything else: the network model's keys
  AppSettings settings;
};

// Loads an application run from the parsed file: the network model reads every section but [am] and
// [app], the application settings read those two, each --set goes to the owner of its section. Throws
// core::ConfigError with file and line, also for VC counts that cannot be split between requests and
// replies.
AppRunConfig load_app_config(const io::ConfigFile& file, const std::vector<std::string>& sets);
// The same from TOML `text`, parsed first; `name` stands for the file.
AppRunConfig load_app_config_text(const std::string& text, const std::string& name,
                                  const std::vector<std::string>& sets);

struct AppRunOptions {
  bool progress = false;    // a line on stderr every few seconds
  bool check_only = false;  // check the parameters against the machine, print the fitted ones, run nothing
};

// Runs application `name` on the generic network that `file` describes, with its [am] and [app]
// tables; defaults that do not fit the machine are fitted to it (workload/apps/sized_defaults.hpp); prints
// simulated time, what it charges, the time by phase and node, per-node bandwidth and message counts, and
// writes <out>/app_<name>.json atomically. Returns 0 when the application's self-check passed (or, with
// check_only, its parameters fit), 1 when it failed. Throws core::ConfigError for bad input and
// am::DeadlockError when the network deadlocks.
int app_command(const std::string& name, const io::ConfigFile& file, const std::vector<std::string>& sets,
                const std::filesystem::path& out, const AppRunOptions& options = {});

// The same on a machine model with node programs of its own (registry::Model::node_programs): the
// model reads its sections, [am] starts from the machine's cost model.
int app_command(const std::string& name, const io::ConfigFile& file, const std::vector<std::string>& sets,
                const std::filesystem::path& out, const registry::Model& model,
                const AppRunOptions& options = {});

// One line per application, then the [app] keys it reads with their defaults.
int list_apps();

// The keys `mppnet app` reads besides the network model's: [am] and [app].
std::vector<io::KeyInfo> app_key_list();

}  // namespace mppnet::app
