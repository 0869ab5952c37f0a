// app/model_sweep.hpp: `mppnet sweep` over a key of a config of any model (network, cm1, cm5, metro's
// yield and harvest, node programs with --app), each point replicated over --seeds N seeds, with the
// mean and 95% interval of every numeric result field per point.
//
// The network model's own sweep (cli.cpp: a numeric range, no --seeds, --app or --command) keeps its
// journal, results.csv and latency plot; every other sweep comes here. Each run is the model's own
// command (`run`, `yield`, `harvest`, `app NAME`) with `--set KEY=V` (and `--set run.seed=S`), writing
// its usual files in OUT/points/KEY=V[/seed-S] with its terminal output in output.txt there; the network
// model's runs are measured in this process and write no files of their own.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "io/config_loader.hpp"

namespace mppnet::app {

struct ModelSweepRequest {
  std::string config;  // the path as given: commands open it again by it
  const io::ConfigFile& file;
  std::vector<std::string> sets;
  std::string sweep;    // the --sweep text; "" takes a network config's [sweep] table
  int seeds = 0;        // --seeds N; 0: not given (one run per point, at the config's seed)
  std::string app;      // --app NAME: run node programs at each point
  std::string command;  // --command NAME: the model's command to run ("" : run, or its first command)
  std::filesystem::path out;
};

// Whether `mppnet sweep` with these options takes the network model's own path (cli.cpp) rather than
// model_sweep: a network config, a range (not a list), and no --seeds, --app or --command.
bool is_network_sweep(bool network_model, const std::string& sweep, int seeds, const std::string& app,
                      const std::string& command);

// Checks everything first (the key belongs to the model, each value passes the model's own checks, the
// model has a seed key when --seeds is given), then runs every point and seed and writes OUT/sweep.csv,
// OUT/sweep_runs.csv and OUT/sweep.json atomically. Returns 0, or the first nonzero status a run returned
// (a CM-1 livelock, an application whose self-check failed: its figures are in the tables all the same).
// Throws core::ConfigError (exit status 2) for bad input.
int model_sweep(const ModelSweepRequest& request);

}  // namespace mppnet::app
