// app/app_report.hpp: what `mppnet app` prints and writes: the result, what is charged, the time by
// phase and node, and progress lines while it runs.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/apps/phases.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::app {

// What the simulated time of an application covers (docs/am.md, "Time"): printed with every result.
extern const char* const kChargedStatement;

// A progress line on stderr every few seconds of wall time, when `enabled` (stderr is a terminal, or
// --progress). Progress never reaches the results: it is wall-clock dependent.
class ProgressLines {
 public:
  ProgressLines(std::string app, bool enabled);
  ProgressLines(const ProgressLines&) = delete;  // the sink points at this object
  ProgressLines& operator=(const ProgressLines&) = delete;
  // The sink to hand the application; empty when not enabled, so the run pays nothing for it.
  const workload::apps::ProgressSink& sink() const { return sink_; }

 private:
  void print(const workload::apps::Progress& p);

  std::string app_;
  std::chrono::steady_clock::time_point start_, last_;
  workload::apps::ProgressSink sink_;
};

// Whether progress lines are drawn by default: stderr is a terminal.
bool stderr_is_terminal();

// `mppnet app --check`: the parameters fit; prints the machine's size and the fitted defaults. Returns 0.
int report_check(const std::string& name, const std::string& config, int nodes,
                 const std::vector<workload::apps::DefaultChange>& fitted);

// Prints what the run measured and writes <out>/app_<name>.json atomically. Returns 0 when the
// application's check passed, 1 when it failed.
int report_app(const std::string& name, const std::string& config, const workload::apps::AppResult& r,
               const std::string& machine, std::int64_t seed, const nlohmann::json& cfg,
               const std::vector<workload::apps::DefaultChange>& fitted, const std::filesystem::path& out);

}  // namespace mppnet::app
