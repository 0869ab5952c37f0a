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
  // The sink to hand the application; empty when neither enabled nor expecting, so the run pays nothing
  // for it.
  const workload::apps::ProgressSink& sink() const { return sink_; }
  // Before the run: prints its expected work (about `messages` requests and replies) and the time that
  // takes at the rates measured; during it, a note as soon as the rate of its first seconds says it will
  // pass an hour (io::long_run_note).
  void expect(double messages);

 private:
  void print(const workload::apps::Progress& p);

  std::string app_;
  std::chrono::steady_clock::time_point start_, last_;
  workload::apps::ProgressSink sink_;
  bool lines_ = false;      // progress lines wanted
  long long expected_ = 0;  // messages expected in all (0: unknown)
  bool noted_ = false;      // the long-run note was printed
};

// The active messages a second that `mppnet app` runs at, from the slowest to the fastest measured on a
// 2-core host (docs/performance.md, "Node programs").
inline constexpr double kSlowestMessagesPerSecond = 70e3, kFastestMessagesPerSecond = 360e3;
// The line printed before a run of `messages` expected requests and replies (no newline).
std::string expected_work_line(const std::string& app, double messages);

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
