// app/cli.cpp: the mppnet command: run, sweep, app, list, validate, and every command a machine
// registers (registry/registry.hpp). Input errors exit with status 2.
#include "app/cli.hpp"

#include "app/app_commands.hpp"
#include "app/app_report.hpp"
#include "app/booksim_import.hpp"
#include "app/model_sweep.hpp"
#include "app/plot_command.hpp"
#include "app/usage_errors.hpp"
#include "app/validate_command.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "am/machine.hpp"
#include "core/error.hpp"
#include "core/exit_status.hpp"
#include "exp/experiment_config.hpp"
#include "exp/experiment_keys.hpp"
#include "exp/open_loop.hpp"
#include "exp/results.hpp"
#include "exp/validation.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/journal.hpp"
#include "io/key_table.hpp"
#include "io/output_directory.hpp"
#include "io/output_paths.hpp"
#include "io/plot.hpp"
#include "io/printable.hpp"
#include "io/progress.hpp"
#include "registry/config_command.hpp"
#include "registry/registry.hpp"
#include "topo/build.hpp"
#include "topo/topology.hpp"
#include "workload/traffic_names.hpp"

namespace mppnet::app {

namespace {

// Work that runs on several threads uses every core unless told otherwise, up to 8: the largest
// validation case takes about 0.4 GB, and more cases at once would ask more memory than they save time.
int default_jobs() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 8U));
}

// README.md's table of exit statuses lists every one (core/exit_status.hpp).
constexpr int kInputError = core::kExitInputError;
constexpr int kRunFailed = core::kExitRunFailed;
constexpr int kDeadlock = core::kExitDeadlock;

// A progress callback that draws on stderr when it is a terminal.
exp::OpenLoopOptions progress_options(io::ProgressBar& bar, const exp::ExperimentConfig& cfg,
                                      std::string label) {
  exp::OpenLoopOptions o;
  const long long budget = static_cast<long long>(cfg.run.max_warmup_cycles) +
                           static_cast<long long>(cfg.run.max_batches) * cfg.run.batch_cycles;
  o.on_progress = [&bar, budget, label](Cycle now, const char* phase) {
    bar.update(std::min<long long>(now, budget), budget, fmt::format("{} {}", label, phase));
  };
  return o;
}

struct SweepSpec {
  std::string key;
  std::vector<double> values;
  core::SourceLocation where;  // what the user wrote: the --sweep option, or the config's [sweep] table
};

// An error message as the terminal should see it: control characters (escape sequences, and newlines
// unless the message is several lines by design) written as \xHH, and a message longer than 2,000
// characters (a 2 MB key typed by mistake) cut, saying how much was left out.
std::string terminal_safe(const std::string& message, bool keep_newlines) {
  constexpr std::size_t kMax = 2000;
  std::string out = io::printable(std::string_view(message).substr(0, kMax), keep_newlines);
  if (message.size() > kMax) out += fmt::format("... ({} characters not shown)", message.size() - kMax);
  return out;
}

// "traffic.rate=0.05:0.95:0.05" -> the key and its values; the count is computed first so that
// floating-point steps cannot add or drop a point.
SweepSpec parse_sweep(const std::string& text, const exp::ExperimentConfig& cfg, bool from_cli) {
  const exp::SweepParams& fallback = cfg.sweep;
  SweepSpec s;
  double from = fallback.from, to = fallback.to, step = fallback.step;
  s.key = fallback.key;
  const auto step_origin = cfg.origin.find("sweep.step");
  s.where = from_cli                          ? core::SourceLocation{"--sweep " + text, 0}
            : step_origin != cfg.origin.end() ? step_origin->second
                                              : core::SourceLocation{cfg.source_file, 0};
  if (from_cli) {
    const core::SourceLocation where{"--sweep " + text, 0};
    const auto eq = text.find('=');
    if (eq == std::string::npos) throw core::ConfigError(where, "", "expected key=from:to:step");
    s.key = text.substr(0, eq);
    if (s.key.empty()) throw core::ConfigError(where, "", "expected key=from:to:step; the key is missing");
    const std::string range = text.substr(eq + 1);
    double parts[3];
    std::size_t pos = 0;
    for (int i = 0; i < 3; ++i) {
      const auto colon = range.find(':', pos);
      const std::string piece =
          range.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
      char* end = nullptr;
      parts[i] = std::strtod(piece.c_str(), &end);
      if (piece.empty() || *end != '\0' || (colon == std::string::npos) != (i == 2) ||
          !std::isfinite(parts[i]))
        throw core::ConfigError(where, s.key, "expected from:to:step with three finite numbers");
      pos = colon + 1;
    }
    from = parts[0];
    to = parts[1];
    step = parts[2];
    if (!(step > 0)) throw core::ConfigError(where, s.key, fmt::format("step must be > 0 (got {:g})", step));
    if (to < from)
      throw core::ConfigError(where, s.key, fmt::format("to ({:g}) is below from ({:g})", to, from));
  }
  // Counted as a double first: a step too small for the range must not overflow the integer count.
  const double points = std::floor((to - from) / step + 1e-9) + 1;
  if (!(points <= 10000))
    throw core::ConfigError(
        s.where, from_cli ? s.key : "sweep.step",
        fmt::format("{:g} to {:g} in steps of {:g} is more than 10,000 points", from, to, step));
  const auto count = static_cast<long long>(points);
  for (long long i = 0; i < count; ++i) s.values.push_back(std::round((from + i * step) * 1e9) / 1e9);
  return s;
}

// Everything a sweep's results depend on, so that a journal left by an interrupted sweep is resumed only by
// the same sweep: the resolved config (defaults, preset, file and --set included), the swept key and
// values, the seed, the version, and what the command does with them.
nlohmann::json sweep_fingerprint(const exp::ExperimentConfig& base, const SweepSpec& sweep,
                                 bool stop_after_saturation, bool plot) {
  return {{"command", "sweep"},
          {"mppnet_version", MPPNET_VERSION},
          {"config_file", base.source_file},
          {"seed", base.run.seed},
          {"config", exp::to_json(base)},
          {"swept_key", sweep.key},
          {"values", sweep.values},
          {"stop_after_saturation", stop_after_saturation},
          {"plot", plot}};
}

// The longest a point may run under its run.* limits, in network cycles.
double worst_case_cycles(const exp::RunParams& r) {
  switch (r.mode) {
    case exp::RunMode::Fixed:
      return static_cast<double>(r.cycles);
    case exp::RunMode::Throughput:
      return r.warmup_cycles + static_cast<double>(r.batch_cycles) * r.max_batches;
    case exp::RunMode::Latency:
      break;
  }
  return r.max_warmup_cycles + static_cast<double>(r.batch_cycles) * r.max_batches + r.drain_cycles;
}

// Limits like run.batch_cycles = 2^31 - 1 are legal but can run for days: say so before starting, in
// node-cycles at the 10 million per second that a small network reaches (docs/performance.md).
void warn_if_long(const std::vector<exp::ExperimentConfig>& configs) {
  double node_cycles = 0;
  for (const exp::ExperimentConfig& c : configs)
    node_cycles += worst_case_cycles(c.run) * static_cast<double>(topo::node_count(c.topology));
  const double hours = node_cycles / 1e7 / 3600;
  if (hours >= 1)
    std::fprintf(stderr,
                 "mppnet: note: the run.* limits allow up to %.3g node-cycles, about %.3g hours at 10 M "
                 "node-cycles/s; most points stop much sooner, but check run.batch_cycles, run.max_batches, "
                 "run.max_warmup_cycles, run.drain_cycles and run.cycles\n",
                 node_cycles, hours);
}

// `base` is the config loaded from `file` and `sets`; each point loads it again with its own value set.
// A sweep (`resumable`) journals every finished point in <out>/.partial/sweep (io/journal.hpp) and takes
// the points an interrupted run of the same sweep finished from there; each point is a pure function of
// its config, so the results are the bytes an uninterrupted run writes.
int run_points(const io::ConfigFile& file, const std::vector<std::string>& sets,
               const exp::ExperimentConfig& base, const SweepSpec& sweep, const std::filesystem::path& out,
               bool stop_after_saturation, bool plot, bool resumable) {
  std::vector<exp::ExperimentConfig> configs;
  // Load every point first, so that a bad value is reported before hours of simulation.
  for (double v : sweep.values) {
    std::vector<std::string> point_sets = sets;
    point_sets.push_back(fmt::format("{}={}", sweep.key, v));
    try {
      configs.push_back(sweep.key.empty() ? base : exp::load_experiment(file, point_sets));
    } catch (const core::ConfigError& e) {
      // The value came from the sweep, not from a --set the user typed: say so.
      if (e.key() != sweep.key) throw;
      throw core::ConfigError(sweep.where, sweep.key, fmt::format("the sweep's value {}: {}", v, e.reason()));
    }
  }
  const io::OutputDirectory output_directory(out);
  std::optional<io::Journal> journal;
  if (resumable) journal.emplace(out, "sweep", sweep_fingerprint(base, sweep, stop_after_saturation, plot));
  if (journal && journal->resumed() > 0)
    std::fprintf(stderr, "mppnet: resuming: %zu of %zu points were done (%s)\n", journal->resumed(),
                 configs.size(), journal->dir().string().c_str());
  warn_if_long(configs);
  io::ProgressBar bar;
  std::vector<exp::SweepPoint> points;
  std::vector<exp::SweepPoint> computed;  // by this process: what cost.json covers
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string name = fmt::format("point-{:04}", i);
    const auto done =
        journal ? journal->decoded(name,
                                   [](const nlohmann::json& d) {
                                     return exp::SweepPoint{d.at("value").get<double>(),
                                                            exp::result_from_record(d.at("result")), 0.0};
                                   })
                : std::nullopt;
    if (done) {
      points.push_back(*done);
    } else {
      const auto label =
          sweep.key.empty() ? std::string("run") : fmt::format("{} = {:g}", sweep.key, sweep.values[i]);
      const auto start = std::chrono::steady_clock::now();
      const exp::OpenLoopResult r = exp::run_open_loop(configs[i], progress_options(bar, configs[i], label));
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
      points.push_back({sweep.key.empty() ? r.offered : sweep.values[i], r, wall.count()});
      computed.push_back(points.back());
      if (journal) journal->save(name, {{"value", points.back().value}, {"result", exp::to_record(r)}});
    }
    if (points.back().result.saturated && stop_after_saturation) break;
  }
  bar.finish();
  const std::string key = sweep.key.empty() ? "traffic.rate" : sweep.key;
  std::fputs(exp::format_table(key, points).c_str(), stdout);
  nlohmann::json cost = exp::cost_json(computed);
  cost["points_resumed"] = points.size() - computed.size();
  const std::optional<io::PlotOutcome> plotted = exp::write_results(out, base, key, points, cost, plot);
  if (journal) journal->remove();
  std::int64_t cycles = 0, hops = 0;
  for (const auto& p : computed) {
    cycles += p.result.simulated_cycles;
    hops += p.result.flit_hops;
  }
  const double seconds = cost["wall_seconds"].get<double>();
  std::printf("simulated %lld cycles, %lld flit-hops in %.2f s (%.2f M flit-hops/s), peak memory %.0f MB\n",
              static_cast<long long>(cycles), static_cast<long long>(hops), seconds,
              seconds > 0 ? static_cast<double>(hops) / seconds / 1e6 : 0.0,
              static_cast<double>(cost["peak_memory_bytes"].get<std::int64_t>()) / (1024.0 * 1024.0));
  const bool drawn = plotted == io::PlotOutcome::Drawn;
  std::printf("results: %s/results.json, results.csv, cost.json%s\n", out.string().c_str(),
              drawn ? ", latency.svg, latency.png" : "");
  // Plotting is optional: the numbers are all in the files above, and the script can draw them later.
  if (plotted == io::PlotOutcome::NoGnuplot)
    std::fprintf(stderr,
                 "mppnet: note: gnuplot not found in PATH, so latency.svg and latency.png were not drawn; "
                 "with gnuplot installed, run `gnuplot latency.gp` in %s\n",
                 out.string().c_str());
  return 0;
}

int import_config(const std::string& format, const std::string& file, const std::string& out) {
  if (format != "booksim")
    throw core::ConfigError({}, "", fmt::format("cannot import \"{}\"; expected booksim", format));
  if (!out.empty()) io::check_output_target(out);  // before any work: never a device, FIFO or link
  const BooksimImport result = import_booksim(io::read_input_file(file, "BookSim config"), file);
  if (!result.errors.empty()) {
    for (const std::string& e : result.errors) std::fprintf(stderr, "%s\n", terminal_safe(e, false).c_str());
    std::fprintf(stderr, "nothing written: %zu problem(s) in %s (docs/router.md)\n", result.errors.size(),
                 terminal_safe(file, false).c_str());
    return kInputError;
  }
  if (out.empty()) {
    std::fputs(result.toml.c_str(), stdout);
  } else {
    io::write_file_atomically(out, result.toml);
    std::printf("wrote %s\n", out.c_str());
  }
  return 0;
}

// What `mppnet list WHAT` can list, one line each.
constexpr const char* kListables[][2] = {
    {"machines", "the machine models and presets ([machine] model, [machine] preset)"},
    {"topologies", "the network topologies ([topology] kind)"},
    {"traffic", "the traffic patterns and injection processes ([traffic] pattern, injection)"},
    {"apps", "the applications `mppnet app` runs, with their [app] keys"},
    {"keys", "every config key of every model, with its default, range and meaning"},
};

int list(const std::string& what, bool markdown) {
  if (what.empty()) {
    std::puts("mppnet list WHAT, where WHAT is one of:");
    for (const auto& [name, doc] : kListables) std::printf("  %-11s %s\n", name, doc);
    return 0;
  }
  if (what == "keys") {
    // One table per simulation model, each chosen by [machine] model in a config file: the generic
    // network's, every registered machine model's, then the application settings.
    std::vector<std::pair<std::string, std::vector<io::KeyInfo>>> models = {
        {"network: the generic packet network (machine.model = \"network\", the default)",
         exp::experiment_key_list()}};
    for (const registry::Machine& m : registry::machines().machines())
      for (const registry::Model& model : m.models) models.emplace_back(model.title, model.keys());
    models.emplace_back(
        "app: node programs (`mppnet app`): a network config plus these [am] and [app] tables",
        app_key_list());
    if (markdown)
      std::puts("# Config keys\n\nGenerated by `mppnet list keys --markdown` (`make docs`); do not edit.\n");
    for (const auto& [title, keys] : models) {
      std::printf(markdown ? "# Model %s\n\n" : "== %s\n", title.c_str());
      std::fputs((markdown ? io::render_markdown(keys) : io::render_text(keys)).c_str(), stdout);
      std::puts("");
    }
    return 0;
  }
  if (what == "apps") return list_apps();
  if (what == "machines") {
    // The generic network first (its own preset), then every machine folder that registered.
    std::printf("%-10s %s\n", "generic", exp::machine_preset("generic").doc.c_str());
    for (const registry::Machine& m : registry::machines().machines())
      std::printf("%-10s %s\n", m.name.c_str(), m.doc.c_str());
    return 0;
  }
  if (what == "topologies") {  // every registered topology (topo/topology.hpp)
    for (const topo::TopologyInfo* t : topo::topologies()) std::printf("%-10s %s\n", t->name, t->summary);
    return 0;
  }
  if (what == "traffic") {
    std::puts("patterns (traffic.pattern):");
    for (const char* n : workload::pattern_names()) std::printf("  %s\n", n);
    std::puts("injection processes (traffic.injection):");
    for (const char* n : workload::injection_names()) std::printf("  %s\n", n);
    return 0;
  }
  std::vector<std::string> names;
  for (const auto& listable : kListables) names.emplace_back(listable[0]);
  const std::string guess = io::nearest(what, names);
  throw core::ConfigError(
      {}, "",
      fmt::format("cannot list \"{}\"{}; expected machines, topologies, traffic, apps or keys", what,
                  guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess)));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mppnet: a simulator of parallel-machine interconnection networks"};
  app.set_version_flag("--version", MPPNET_VERSION);
  app.require_subcommand(1);
  // Every input file (config, pattern, BookSim config, results to plot) is read within these limits
  // (io/input_file.hpp), so that /dev/zero or a FIFO without a writer is refused rather than waited on.
  // They are options of every command (fallthrough: each command passes them up to this one).
  app.fallthrough();
  double max_input_mb = static_cast<double>(io::InputLimits{}.max_bytes >> 20);
  double input_timeout_s = io::InputLimits{}.timeout_ms / 1000.0;
  app.add_option("--max-input-mb", max_input_mb, "Refuse an input file larger than this (MiB)")
      ->check(CLI::Range(1e-6, 1048576.0))
      ->capture_default_str();
  app.add_option("--input-timeout", input_timeout_s,
                 "Seconds to wait for data from a FIFO, pipe or device before refusing it")
      ->check(CLI::Range(0.001, 86400.0))
      ->capture_default_str();
  double plot_timeout_s = 120;
  app.add_option("--plot-timeout", plot_timeout_s,
                 "Seconds gnuplot may take for one plot before it is stopped")
      ->check(CLI::Range(0.001, 86400.0))
      ->capture_default_str();

  std::string config;
  std::vector<std::string> sets;
  std::string out;
  std::string sweep_text;

  auto* run = app.add_subcommand("run", "Run one open-loop experiment");
  run->add_option("config", config, "TOML experiment file")->required();
  run->add_option("--set", sets, "Override a key: --set traffic.rate=0.3 (repeatable)");
  registry::refuse_empty_path(
      run->add_option("--out", out, "Directory for results.json and results.csv (default results/<config>)"));

  auto* sweep = app.add_subcommand(
      "sweep",
      "Run a config of any model at each value of one key (a network config: by default its [sweep])");
  sweep->add_option("config", config, "TOML config file of any model")->required();
  sweep->add_option("--set", sets, "Override a key (repeatable)");
  sweep->add_option("--sweep", sweep_text,
                    "KEY=FROM:TO:STEP or KEY=V1,V2,..., e.g. traffic.rate=0.05:0.95:0.05, "
                    "metro.wiring=deterministic,random");
  int sweep_seeds = 0;
  std::string sweep_app, sweep_command;
  sweep
      ->add_option(
          "--seeds", sweep_seeds,
          "Run each point with N seeds (run.seed, run.seed + 1, ...): mean and 95% interval per point")
      ->check(CLI::Range(1, 1000));
  sweep->add_option("--app", sweep_app, "Run this application (mppnet app NAME) at each point");
  sweep->add_option("--command", sweep_command,
                    "The model's command to run at each point: yield or harvest for a metro config (default "
                    "yield)");
  registry::refuse_empty_path(
      sweep->add_option("--out", out, "Directory for results, CSV and plots (default results/<config>)"));

  std::string what;
  bool markdown = false;
  auto* ls = app.add_subcommand("list", "List machines, topologies, traffic patterns or config keys");
  ls->add_option("what", what, "machines | topologies | traffic | apps | keys (nothing: what each lists)");
  ls->add_flag("--markdown", markdown, "Keys as the Markdown of docs/config.md");

  std::vector<std::string> case_ids;
  bool list_cases = false, fast = false;
  auto* val = app.add_subcommand("validate", "Run registered validation cases: paper vs simulated");
  val->add_option("cases", case_ids, "Case ids, or a machine's prefix such as t1 (default: all)");
  val->add_flag("--list", list_cases, "List the cases instead of running them");
  val->add_flag("--fast", fast, "Leave out the slow cases");
  int validate_jobs = default_jobs();
  val->add_option("--jobs,-j", validate_jobs,
                  "Cases run at once, on as many threads (default: the cores, at most 8; the output is the "
                  "same for any "
                  "number)")
      ->check(CLI::Range(1, 1024));
  registry::refuse_empty_path(
      val->add_option("--out", out,
                      "Directory for validation.json, validation.csv, validation.md (the table "
                      "docs/validation.md shows) and validation-MACHINE.md (default results)"));

  std::string import_format, import_file;
  auto* import = app.add_subcommand("import", "Translate another simulator's config into an mppnet config");
  import->add_option("format", import_format, "booksim")->required();
  import->add_option("file", import_file, "The file to translate")->required();
  registry::refuse_empty_path(
      import->add_option("--out", out, "Write the config here (default: standard output)"));

  PlotRequest plot_request;
  CLI::App* plot = add_plot_subcommand(app, plot_request);
  std::string app_name;
  auto* app_run = app.add_subcommand("app", "Run an application (node programs) on a network config");
  app_run->add_option("name", app_name, "Application (mppnet list apps)")->required();
  app_run->add_option("config", config, "TOML network file, with optional [am] and [app] tables")->required();
  app_run->add_option("--set", sets, "Override a key, e.g. --set app.alltoall_bytes=256 (repeatable)");
  registry::refuse_empty_path(
      app_run->add_option("--out", out, "Directory for app_<name>.json (default results/<config>)"));
  bool app_progress = false, app_check = false;
  app_run->add_flag("--progress", app_progress,
                    "A progress line on stderr every few seconds (the default when stderr is a terminal)");
  app_run->add_flag(
      "--check", app_check,
      "Check the parameters against the machine and show the defaults fitted to it; run nothing");

  // Every machine's own commands (yield, harvest, design, ...): each declares its options and returns
  // what to run if the command line chooses it.
  const registry::Registry& machines = registry::machines();
  std::vector<std::pair<CLI::App*, std::function<int()>>> machine_commands;
  for (const registry::Machine& m : machines.machines()) {
    for (const registry::Command& c : m.commands) {
      CLI::App* command = app.add_subcommand(c.name, c.help);
      machine_commands.emplace_back(command, c.declare(*command, machines));
    }
  }

  // Usage errors say what to type instead (app/usage_errors.hpp), and exit with status 2.
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  io::set_input_limits({.max_bytes = static_cast<std::uint64_t>(max_input_mb * 1048576.0),
                        .timeout_ms = static_cast<int>(input_timeout_s * 1000.0)});
  io::set_plot_timeout_ms(static_cast<int>(plot_timeout_s * 1000.0));

  try {
    for (const auto& [command, run_command] : machine_commands)
      if (command->parsed()) return run_command();
    if (*ls) return list(what, markdown);
    if (*import) return import_config(import_format, import_file, out);
    if (*plot) return plot_command(plot_request);
    if (*val)
      return validate_command(case_ids, list_cases, fast, validate_jobs,
                              out.empty() ? std::filesystem::path("results") : std::filesystem::path(out));
    // run, sweep and app: the file is read and parsed once, and its model picks the loader.
    const io::ConfigFile file = io::open_config_file(config);
    const std::string model = registry::model_of(file, sets);
    const auto out_dir = registry::output_directory(config, out);
    const bool network = model == registry::kNetworkModel;
    if (*run && !network) {
      const registry::Model* m = machines.find_model(model);
      if (m != nullptr && m->run) return m->run({file, sets, out_dir});
      std::string wants = "network";
      for (const registry::Machine& machine : machines.machines())
        for (const registry::Model& runnable : machine.models)
          if (runnable.run) wants += " or " + runnable.name;
      throw registry::wrong_model(file, model, "run", wants, machines);
    }
    // Every sweep but the network model's own (a range, no --seeds, --app or --command) runs each point
    // through the model's own command (app/model_sweep.hpp).
    if (*sweep && !is_network_sweep(network, sweep_text, sweep_seeds, sweep_app, sweep_command))
      return model_sweep({config, file, sets, sweep_text, sweep_seeds, sweep_app, sweep_command, out_dir});
    if (*app_run && !network) {
      const registry::Model* m = machines.find_model(model);
      if (m != nullptr && m->node_programs.build)
        return app_command(app_name, file, sets, out_dir, *m,
                           {.progress = app_progress || stderr_is_terminal(), .check_only = app_check});
      std::string wants = "network";
      for (const registry::Machine& machine : machines.machines())
        for (const registry::Model& programmable : machine.models)
          if (programmable.node_programs.build) wants += " or " + programmable.name;
      throw registry::wrong_model(file, model, "app", wants, machines);
    }
    if (*app_run)
      return app_command(app_name, file, sets, out_dir,
                         {.progress = app_progress || stderr_is_terminal(), .check_only = app_check});
    if (*run)
      return run_points(file, sets, exp::load_experiment(file, sets), SweepSpec{"", {0.0}, {}}, out_dir,
                        false, false, false);
    if (*sweep) {
      const exp::ExperimentConfig cfg = exp::load_experiment(file, sets);
      const SweepSpec spec = parse_sweep(sweep_text, cfg, !sweep_text.empty());
      return run_points(file, sets, cfg, spec, out_dir, cfg.sweep.stop_after_saturation, true, true);
    }
  } catch (const core::ConfigError& e) {
    std::fprintf(stderr, "mppnet: %s\n", terminal_safe(e.what(), false).c_str());
    return kInputError;
  } catch (const core::DeadlockError& e) {
    std::fprintf(stderr, "mppnet: %s\n", terminal_safe(e.what(), true).c_str());
    return kDeadlock;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mppnet: error: %s\n", terminal_safe(e.what(), true).c_str());
    return kRunFailed;
  }
  return 0;
}

}  // namespace mppnet::app
