// app/app_report.cpp: the report of `mppnet app`: stdout, app_<name>.json, and progress on stderr.
#include "app/app_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/json_csv.hpp"
#include "io/progress.hpp"

namespace mppnet::app {

namespace {

// Seconds of wall time between two progress lines: often enough to show a run is alive, rarely enough
// not to scroll the terminal.
constexpr double kProgressSeconds = 3.0;

double us(Picoseconds ps) {
  return static_cast<double>(ps) * 1e-6;
}

nlohmann::json metrics_json(const workload::apps::AppResult& r) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : r.metrics) j[k] = v;
  return j;
}

// Per phase: the slowest node's time (its column adds up to when its program ended) and the mean.
void print_phases(const workload::apps::AppResult& r) {
  if (r.phases.empty() || r.ends.slowest < 0) return;
  std::size_t width = std::string("time by phase").size();
  for (const auto& p : r.phases) width = std::max(width, p.name.size() + 2);
  const std::string slowest = fmt::format("slowest node {}", r.ends.slowest);
  std::fputs(
      fmt::format("{:<{}}  {:>17}  {:>14}\n", "time by phase", width, slowest, "mean of nodes").c_str(),
      stdout);
  Picoseconds total_slowest = 0, total_mean = 0;
  const auto row = [width](const std::string& name, Picoseconds slow, Picoseconds mean) {
    std::fputs(
        fmt::format("  {:<{}}  {:>14.3f} us  {:>11.3f} us\n", name, width - 2, us(slow), us(mean)).c_str(),
        stdout);
  };
  for (const auto& p : r.phases) {
    row(p.name, p.slowest_node_ps, p.mean_ps);
    total_slowest += p.slowest_node_ps;
    total_mean += p.mean_ps;
  }
  row("total", total_slowest, total_mean);
  std::printf(
      "node programs ended: slowest node %d at %.3f us, fastest at %.3f us, mean %.3f us (the simulated time "
      "also counts handlers that ran after the last program ended)\n",
      r.ends.slowest, us(r.ends.slowest_ps), us(r.ends.fastest_ps), us(r.ends.mean_ps));
}

}  // namespace

const char* const kChargedStatement =
    "charged: network transfer of every packet, and the [am] cost model's processor time per message "
    "(send, receive, handler dispatch or poll, copying words to and from the interface); not charged: local "
    "computation (sorting, arithmetic, loads and stores in local memory), which these programs do not "
    "model: times are network and messaging only";

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) != 0;
}

ProgressLines::ProgressLines(std::string app, bool enabled)
    : app_(std::move(app)), start_(std::chrono::steady_clock::now()), last_(start_) {
  lines_ = enabled;
  if (enabled) sink_ = [this](const workload::apps::Progress& p) { print(p); };
}

std::string expected_work_line(const std::string& app, double messages) {
  const auto seconds = [](double s) {
    if (s < 120) return fmt::format("{:.2g} s", s);
    if (s < 7200) return fmt::format("{:.2g} minutes", s / 60);
    return fmt::format("{:.2g} hours", s / 3600);
  };
  std::string line = fmt::format(
      "mppnet: app {}: about {:.0f} active messages (requests and replies): {} to {} at the {:.0f},000 to "
      "{:.0f},000 a second measured on a 2-core host",
      app, messages, seconds(messages / kFastestMessagesPerSecond),
      seconds(messages / kSlowestMessagesPerSecond), kSlowestMessagesPerSecond / 1000,
      kFastestMessagesPerSecond / 1000);
  if (messages / kSlowestMessagesPerSecond > 3600)
    line += "; note: this run may take more than an hour, and an app run cannot be resumed (docs/am.md)";
  return line;
}

void ProgressLines::expect(double messages) {
  std::fprintf(stderr, "%s\n", expected_work_line(app_, messages).c_str());
  expected_ = static_cast<long long>(messages);
  sink_ = [this](const workload::apps::Progress& p) { print(p); };
}

void ProgressLines::print(const workload::apps::Progress& p) {
  const auto now = std::chrono::steady_clock::now();
  if (!noted_ && expected_ > 0) {
    const std::string note = io::long_run_note(std::chrono::duration<double>(now - start_).count(),
                                               p.messages, expected_, "active messages");
    if (!note.empty()) {
      std::fputs(note.c_str(), stderr);
      noted_ = true;
    }
  }
  if (!lines_) return;
  if (std::chrono::duration<double>(now - last_).count() < kProgressSeconds) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "mppnet: app %s: %.0f s: simulated %.3f us; %d of %d nodes in \"%s\", %d ended\n",
               app_.c_str(), elapsed, us(p.simulated_ps), p.nodes_in_phase, p.nodes, p.phase.c_str(),
               p.nodes_ended);
}

int report_check(const std::string& name, const std::string& config, int nodes,
                 const std::vector<workload::apps::DefaultChange>& fitted) {
  std::printf("app %s on %s: %d nodes: the parameters fit (checked, not run)\n", name.c_str(), config.c_str(),
              nodes);
  for (const auto& f : fitted)
    std::printf("note: %s = %lld, fitted to this machine: %s\n", f.key.c_str(), f.value, f.reason.c_str());
  return core::kExitSuccess;
}

int report_app(const std::string& name, const std::string& config, const workload::apps::AppResult& r,
               const std::string& machine, std::int64_t seed, const nlohmann::json& cfg,
               const std::vector<workload::apps::DefaultChange>& fitted, const std::filesystem::path& out) {
  const auto& t = r.totals;
  std::printf("app %s on %s: %d nodes (%s)\n", name.c_str(), config.c_str(), r.nodes, machine.c_str());
  for (const auto& f : fitted)
    std::printf("note: %s = %lld, fitted to this machine: %s\n", f.key.c_str(), f.value, f.reason.c_str());
  std::printf("check: %s: %s\n", r.passed ? "passed" : "FAILED", r.check.c_str());
  std::printf("simulated time: %.3f us\n", r.time_us());
  std::printf("%s\n", kChargedStatement);
  print_phases(r);
  std::printf("per-node bandwidth: %.3f MB/s (argument and data bytes sent per node / simulated time)\n",
              r.bytes_per_node_per_us());
  std::printf("messages: %lld requests, %lld replies, %lld packets, %lld flits, %lld handlers run\n",
              static_cast<long long>(t.requests), static_cast<long long>(t.replies),
              static_cast<long long>(t.packets), static_cast<long long>(t.flits),
              static_cast<long long>(t.handlers));
  std::printf("network cycles stepped: %lld\n", static_cast<long long>(t.network_cycles));
  if (t.collectives > 0) {
    // Summed over nodes: the mean is per call on one node, from the call to its result.
    std::printf("collectives: %lld calls over all nodes, mean %.3f us each, on the %s\n",
                static_cast<long long>(t.collectives),
                static_cast<double>(t.collective_ps) * 1e-6 / static_cast<double>(t.collectives),
                r.collectives_path.c_str());
  }

  nlohmann::json phases = nlohmann::json::array();
  for (const auto& p : r.phases)
    phases.push_back({{"name", p.name},
                      {"slowest_node_ps", p.slowest_node_ps},
                      {"mean_ps", p.mean_ps},
                      {"max_ps", p.max_ps}});
  nlohmann::json defaults = nlohmann::json::array();
  for (const auto& f : fitted) defaults.push_back({{"key", f.key}, {"value", f.value}, {"reason", f.reason}});
  const nlohmann::json doc{
      {"mppnet_version", MPPNET_VERSION},
      {"app", name},
      {"config_file", config},
      {"config", cfg},
      {"seed", seed},
      {"passed", r.passed},
      {"check", r.check},
      {"nodes", r.nodes},
      {"time_ps", t.finish_ps},
      {"time_us", r.time_us()},
      {"charged", kChargedStatement},
      {"defaults_fitted", defaults},
      {"phases", phases},
      {"node_ends",
       {{"slowest_node", r.ends.slowest},
        {"slowest_ps", r.ends.slowest_ps},
        {"fastest_ps", r.ends.fastest_ps},
        {"mean_ps", r.ends.mean_ps}}},
      {"bytes_per_node_per_us", r.bytes_per_node_per_us()},
      {"messages",
       {{"requests", t.requests},
        {"replies", t.replies},
        {"packets", t.packets},
        {"flits", t.flits},
        {"payload_bytes", t.payload_bytes},
        {"handlers", t.handlers}}},
      {"network_cycles", t.network_cycles},
      {"collectives", {{"calls", t.collectives}, {"time_ps", t.collective_ps}, {"path", r.collectives_path}}},
      {"metrics", metrics_json(r)},
  };
  const auto result_file = out / fmt::format("app_{}.json", name);
  io::write_file_atomically(result_file, doc.dump(2) + "\n");
  // The same figures as CSV: the run's scalars in one row, and the phases a row each.
  io::write_file_atomically(out / fmt::format("app_{}.csv", name), io::scalar_fields_csv(doc, {"config"}));
  io::CsvTable phase_table({"phase", "slowest_node_ps", "mean_ps", "max_ps"});
  for (const auto& p : r.phases)
    phase_table.add_row({io::cell(p.name), io::cell(std::int64_t{p.slowest_node_ps}),
                         io::cell(std::int64_t{p.mean_ps}), io::cell(std::int64_t{p.max_ps})});
  io::write_file_atomically(out / fmt::format("app_{}_phases.csv", name), phase_table.str());
  std::printf("results: %s, app_%s.csv, app_%s_phases.csv\n", result_file.string().c_str(), name.c_str(),
              name.c_str());
  return r.passed ? core::kExitSuccess : core::kExitRunFailed;
}

}  // namespace mppnet::app
