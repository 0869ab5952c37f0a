// workload/apps/registry.hpp: the applications `mppnet app` can run, each verifying its own result.
//
// An application is one file: a function that runs its node programs on a ready machine, checks the
// outcome and fills an AppResult, plus one line in registry.cpp naming it, its doc and the [app] keys it
// reads. Timing and message counts come from the machine's totals.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "am/am_params.hpp"
#include "am/param_error.hpp"
#include "am/simulated_machine.hpp"
#include "workload/apps/app_params.hpp"
#include "workload/apps/expected_work.hpp"
#include "workload/apps/phases.hpp"

namespace mppnet::workload::apps {

// A parameter that does not fit the machine, blamed on a config key (am/param_error.hpp).
using AppParamError = am::ParamError;

struct AppResult {
  bool passed = false;
  std::string check;  // what was verified, or the first thing found wrong
  int nodes = 0;
  am::MachineTotals totals;
  std::string collectives_path;  // how barriers, broadcasts, reductions and scans were done
  std::vector<std::pair<std::string, double>> metrics;  // the application's own figures
  // Where the time went (workload/apps/phases.hpp): per phase, the slowest node's time and the mean;
  // when each node's program ended.
  std::vector<PhaseTime> phases;
  NodeEnds ends;

  double time_us() const { return static_cast<double>(totals.finish_ps) * 1e-6; }
  // Argument and data bytes each node sent, per microsecond of simulated time (= MB/s).
  double bytes_per_node_per_us() const {
    return totals.finish_ps == 0 ? 0.0 : static_cast<double>(totals.payload_bytes) / nodes / time_us();
  }
};

struct AppInfo {
  std::string name;
  std::string doc;                // one line
  std::vector<std::string> keys;  // the [app] keys it reads ("app.alltoall_bytes")
  // REQUIRES: the machine has not run yet. Throws AppParamError for parameters that do not fit the
  // machine (e.g. memory), before anything runs. `seed` is the run's seed, for applications that draw their
  // data.
  // Throws AppParamError when `params` do not fit a machine of `nodes` nodes with cost model `am`; `run`
  // calls it first, and it can be called without running (tests of every preset's defaults).
  void (*check)(const AppParams& params, int nodes, const am::AmParams& am);
  // `progress` (may be empty) hears of the run now and then.
  AppResult (*run)(am::Machine& m, const AppParams& params, std::uint64_t seed, const ProgressSink& progress);
  // Its requests and replies in closed form, before it runs (expected_work.hpp).
  ExpectedMessages expected_messages;
};

const std::vector<AppInfo>& applications();
// nullptr when there is no application of that name.
const AppInfo* find_application(std::string_view name);

// Builds the machine (topology, router with am's virtual networks, cost model) and runs `app` on it.
AppResult run_application(const AppInfo& app, const topo::TopologyParams& topology,
                          const net::RouterParams& router, const am::AmParams& am, const AppParams& params,
                          std::uint64_t seed, std::int64_t watchdog_cycles,
                          const ProgressSink& progress = {});

// Runs `app` on a machine built elsewhere (a machine model with its own network interface).
// REQUIRES: the machine has not run yet.
AppResult run_application_on(const AppInfo& app, am::Machine& machine, const AppParams& params,
                             std::uint64_t seed, const ProgressSink& progress = {});

// Each application's check of its parameters against the machine (AppInfo::check).
void check_alltoall(const AppParams& params, int nodes, const am::AmParams& am);
void check_shared_counter(const AppParams& params, int nodes, const am::AmParams& am);
void check_permutations(const AppParams& params, int nodes, const am::AmParams& am);
void check_stencil2d(const AppParams& params, int nodes, const am::AmParams& am);
void check_stencil3d(const AppParams& params, int nodes, const am::AmParams& am);
void check_sample_sort(const AppParams& params, int nodes, const am::AmParams& am);
void check_radix_sort(const AppParams& params, int nodes, const am::AmParams& am);
void check_fft(const AppParams& params, int nodes, const am::AmParams& am);
void check_getput(const AppParams& params, int nodes, const am::AmParams& am);

// The applications, one file each.
// alltoall and counter draw nothing; the default keeps bench/speed.cpp's two-argument call.
AppResult run_alltoall(am::Machine& m, const AppParams& params, std::uint64_t seed = 0,
                       const ProgressSink& progress = {});
AppResult run_shared_counter(am::Machine& m, const AppParams& params, std::uint64_t seed = 0,
                             const ProgressSink& progress = {});
AppResult run_permutations(am::Machine& m, const AppParams& params, std::uint64_t seed,
                           const ProgressSink& progress = {});
AppResult run_stencil2d(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress = {});
AppResult run_stencil3d(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress = {});
AppResult run_sample_sort(am::Machine& m, const AppParams& params, std::uint64_t seed,
                          const ProgressSink& progress = {});
AppResult run_radix_sort(am::Machine& m, const AppParams& params, std::uint64_t seed,
                         const ProgressSink& progress = {});
AppResult run_fft(am::Machine& m, const AppParams& params, std::uint64_t seed,
                  const ProgressSink& progress = {});
AppResult run_getput(am::Machine& m, const AppParams& params, std::uint64_t seed,
                     const ProgressSink& progress = {});

}  // namespace mppnet::workload::apps
