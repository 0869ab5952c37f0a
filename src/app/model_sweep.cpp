// app/model_sweep.cpp: `mppnet sweep` over any model: what runs at each point, the checks made before
// the first point, the runs, and the files written.
#include "app/model_sweep.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/app_commands.hpp"
#include "app/sweep_table.hpp"
#include "core/error.hpp"
#include "core/exit_status.hpp"
#include "exp/experiment_config.hpp"
#include "exp/experiment_keys.hpp"
#include "exp/open_loop.hpp"
#include "exp/results.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/journal.hpp"
#include "io/key_table.hpp"
#include "io/output_directory.hpp"
#include "io/output_paths.hpp"
#include "io/printable.hpp"
#include "registry/config_command.hpp"
#include "registry/registry.hpp"

namespace mppnet::app {

namespace {

namespace fs = std::filesystem;

// Every model's seed key (network, cm1, cm5, metro and node programs all declare it in [run]).
constexpr const char* kSeedKey = "run.seed";
constexpr int kMaxSeeds = 1000;

enum class Runner { Network, Run, Command, App };

// What runs at each point, and the keys it reads.
struct Target {
  Runner runner = Runner::Network;
  std::string model;
  const registry::Model* entry = nullptr;  // nullptr for the network model (exp/'s, not registered)
  const registry::Command* command = nullptr;
  std::string describe;     // "mppnet run", "mppnet yield", "mppnet app fft"
  std::string result_file;  // what the run writes in its directory ("" for the network model)
  std::vector<std::string> keys;
};

std::vector<std::string> names_of(const std::vector<io::KeyInfo>& keys) {
  std::vector<std::string> names;
  for (const io::KeyInfo& k : keys) names.push_back(k.name);
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_app_key(const std::string& assignment) {
  return assignment.rfind("am.", 0) == 0 || assignment.rfind("app.", 0) == 0;
}

std::string or_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return s;
}

Target resolve_target(const ModelSweepRequest& r, const std::string& model, const registry::Registry& all) {
  Target t;
  t.model = model;
  const bool network = model == registry::kNetworkModel;
  t.entry = network ? nullptr : all.find_model(model);
  if (!network && t.entry == nullptr) {
    std::string models(registry::kNetworkModel);
    for (const registry::Machine& m : all.machines())
      for (const registry::Model& known : m.models) models += ", " + known.name;
    throw registry::wrong_model(r.file, model, "sweep", models, all);
  }
  if (!r.app.empty()) {
    if (!r.command.empty())
      throw core::ConfigError({"--app " + r.app, 0}, "",
                              "--app and --command both given: a sweep runs one of them at each point");
    if (!network && !t.entry->node_programs.build) {
      std::vector<std::string> programmable{"network"};
      for (const registry::Machine& m : all.machines())
        for (const registry::Model& p : m.models)
          if (p.node_programs.build) programmable.push_back(p.name);
      throw core::ConfigError({"--app " + r.app, 0}, "",
                              fmt::format("model \"{}\" ({}) runs no node programs; --app takes {} configs",
                                          model, r.file.path, or_list(programmable)));
    }
    t.runner = Runner::App;
    t.describe = "mppnet app " + r.app;
    t.result_file = "app_" + r.app + ".json";
    t.keys = network ? names_of(exp::experiment_key_list()) : names_of(t.entry->keys());
    for (const std::string& k : names_of(app_key_list())) t.keys.push_back(k);
    return t;
  }
  std::vector<const registry::Command*> commands;  // the commands that take a config of this model
  for (const registry::Machine& m : all.machines())
    for (const registry::Command& c : m.commands)
      if (c.model == model) commands.push_back(&c);
  std::vector<std::string> command_names;
  for (const registry::Command* c : commands) command_names.push_back(c->name);
  if (!r.command.empty() || (!network && !t.entry->run)) {
    const core::SourceLocation where{r.command.empty() ? r.file.path : "--command " + r.command, 0};
    if (commands.empty()) {
      std::vector<std::string> with;  // "yield or harvest (metro configs)"
      std::vector<std::string> models;
      for (const registry::Machine& m : all.machines())
        for (const registry::Command& c : m.commands)
          if (!c.model.empty() && !has(models, c.model)) models.push_back(c.model);
      for (const std::string& model_name : models) {
        std::vector<std::string> names;
        for (const registry::Machine& m : all.machines())
          for (const registry::Command& c : m.commands)
            if (c.model == model_name) names.push_back(c.name);
        with.push_back(fmt::format("{} ({} configs)", or_list(names), model_name));
      }
      throw core::ConfigError(
          where, "",
          fmt::format("model \"{}\" has no commands for a sweep to run; --command takes {}", model,
                      with.empty() ? "none" : or_list(with)));
    }
    const std::string name = r.command.empty() ? commands.front()->name : r.command;
    const auto it = std::find(command_names.begin(), command_names.end(), name);
    if (it == command_names.end())
      throw core::ConfigError(where, "",
                              fmt::format("model \"{}\" has no command \"{}\"; expected {}", model, name,
                                          or_list(command_names)));
    t.runner = Runner::Command;
    t.command = commands[static_cast<std::size_t>(it - command_names.begin())];
    t.describe = "mppnet " + name;
    t.result_file = name + ".json";  // yield.json, harvest.json (machines/metro/study_commands.cpp)
    t.keys = names_of(t.entry->keys());
    return t;
  }
  t.runner = network ? Runner::Network : Runner::Run;
  t.describe = network ? "the network model" : "mppnet run";
  t.result_file = network ? "" : "results.json";
  t.keys = network ? names_of(exp::experiment_key_list()) : names_of(t.entry->keys());
  return t;
}

// The swept key must be the target's: else say whose it is, or which key was meant.
void check_key(const Target& t, const std::string& key, const core::SourceLocation& where,
               const registry::Registry& all) {
  if (has(t.keys, key)) return;
  std::vector<std::string> owners;
  if (has(names_of(exp::experiment_key_list()), key)) owners.push_back("network");
  for (const registry::Machine& m : all.machines())
    for (const registry::Model& model : m.models)
      if (has(names_of(model.keys()), key)) owners.push_back(model.name);
  if (t.runner != Runner::App && has(names_of(app_key_list()), key))
    throw core::ConfigError(where, key,
                            "a key of node programs: add --app NAME to run an application at each point");
  if (!owners.empty())
    throw core::ConfigError(
        where, key,
        fmt::format("a key of {} configs, not of this file's model \"{}\"; `mppnet list keys` "
                    "lists each model's keys",
                    or_list(owners), t.model));
  const std::string guess = io::nearest(key, t.keys);
  throw core::ConfigError(
      where, key,
      fmt::format("no such key in model \"{}\"{}; `mppnet list keys` lists each model's keys", t.model,
                  guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess)));
}

// The seed the config gives (file, then --set, else the key's default): the first of the seeds.
std::int64_t config_seed(const Target& t, const ModelSweepRequest& r) {
  if (t.model == registry::kNetworkModel)
    return t.runner == Runner::App ? load_app_config(r.file, r.sets).experiment.run.seed
                                   : exp::load_experiment(r.file, r.sets).run.seed;
  std::int64_t seed = 0;
  for (const io::KeyInfo& k : t.entry->keys())
    if (k.name == kSeedKey) seed = std::strtoll(k.default_value.c_str(), nullptr, 10);
  if (auto v = r.file.doc["run"]["seed"].value<std::int64_t>()) seed = *v;
  static const io::KeySet seed_key({io::KeySpec{kSeedKey, io::KeyType::Int64, io::at_least(0), ""}});
  for (const std::string& s : r.sets) {
    try {
      seed = std::get<std::int64_t>(seed_key.read_arg(s).value);
    } catch (const core::ConfigError&) {  // another key: not the seed
    }
  }
  return seed;
}

// Loads the point's config as its run will, so that a bad value stops the sweep before any point runs.
void check_point(const Target& t, const ModelSweepRequest& r, const std::vector<std::string>& sets) {
  switch (t.runner) {
    case Runner::Network:
      exp::load_experiment(r.file, sets);
      return;
    case Runner::App:
      if (t.entry == nullptr) {
        load_app_config(r.file, sets);
      } else {  // [am] and [app] are read by the application run itself
        std::vector<std::string> model_sets;
        for (const std::string& s : sets)
          if (!is_app_key(s)) model_sets.push_back(s);
        t.entry->check(r.file, model_sets);
      }
      return;
    case Runner::Run:
    case Runner::Command:
      t.entry->check(r.file, sets);
      return;
  }
}

// The model's terminal output goes to a file in its point's directory while it runs.
class StdoutToFile {
 public:
  explicit StdoutToFile(const fs::path& file) {
    std::cout.flush();
    std::fflush(stdout);
    io::check_output_target(file);  // never through a link or into a device someone left there
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
      throw core::ConfigError({file.string(), 0}, "",
                              fmt::format("cannot write the file: {}", std::strerror(errno)));
    io::note_written(file);
    saved_ = ::dup(STDOUT_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
  }
  ~StdoutToFile() {
    std::cout.flush();
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
  }
  StdoutToFile(const StdoutToFile&) = delete;
  StdoutToFile& operator=(const StdoutToFile&) = delete;

 private:
  int saved_ = -1;
};

// A registered command (`mppnet yield`) run as its command line would: CONFIG --set ... --out DIR.
int run_command(const registry::Command& c, const ModelSweepRequest& r, const std::vector<std::string>& sets,
                const fs::path& dir) {
  CLI::App parent{"mppnet"};
  CLI::App* sub = parent.add_subcommand(c.name, c.help);
  const std::function<int()> run = c.declare(*sub, registry::machines());
  std::vector<std::string> args{"mppnet", c.name, r.config, "--out=" + dir.string()};
  for (const std::string& s : sets) args.push_back("--set=" + s);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    parent.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    throw std::runtime_error(fmt::format("mppnet {} refused the sweep's arguments: {}", c.name, e.what()));
  }
  return run();
}

nlohmann::json read_json(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw std::runtime_error(fmt::format("the run wrote no {}", file.string()));
  return nlohmann::json::parse(io::read_input_file(file, "result file"));
}

SweepRun run_one(const Target& t, const ModelSweepRequest& r, const std::vector<std::string>& sets,
                 const std::string& dir_name) {
  SweepRun run;
  if (t.runner == Runner::Network) {
    run.result = exp::to_json(exp::run_open_loop(exp::load_experiment(r.file, sets)));
    return run;
  }
  run.dir = dir_name;
  const fs::path dir = r.out / dir_name;
  fs::create_directories(dir);
  fs::remove(dir / t.result_file);  // a file an earlier sweep left must not stand for this run's
  {
    const StdoutToFile output(dir / "output.txt");
    switch (t.runner) {
      case Runner::Run:
        run.status = t.entry->run({r.file, sets, dir});
        break;
      case Runner::Command:
        run.status = run_command(*t.command, r, sets, dir);
        break;
      case Runner::App:
        run.status = t.entry == nullptr ? app_command(r.app, r.file, sets, dir)
                                        : app_command(r.app, r.file, sets, dir, *t.entry);
        break;
      case Runner::Network:
        break;
    }
  }
  run.result = read_json(dir / t.result_file);
  return run;
}

// A run that ended by an exception: its status and message stand in the tables for its figures.
SweepRun failed_run(const Target& t, const std::string& dir, int status, const std::string& message) {
  SweepRun run;
  run.status = status;
  run.dir = t.runner == Runner::Network ? "" : dir;
  run.result = {{"error", message}};
  std::fprintf(stderr, "mppnet: %s: %s\n", dir.c_str(), io::printable(message, true).c_str());
  return run;
}

// A run taken from the journal wrote its files before the kill: they are this sweep's files as much as
// those of the runs it makes now (io/output_directory.hpp records them).
void note_point_files(const fs::path& out, const std::string& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(out / dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->symlink_status(ec).type() == fs::file_type::regular) io::note_written(it->path());
}

// What a model sweep's results depend on: the config file as parsed, the command line, the version.
nlohmann::json sweep_fingerprint(const ModelSweepRequest& r, const std::string& sweep_text,
                                 std::int64_t first_seed) {
  std::ostringstream config;
  config << toml::json_formatter{r.file.doc};
  return {{"command", "sweep"},
          {"mppnet_version", MPPNET_VERSION},
          {"config_file", r.config},
          {"config", nlohmann::json::parse(config.str())},
          {"sets", r.sets},
          {"sweep", sweep_text},
          {"seeds", r.seeds},
          {"first_seed", first_seed},
          {"app", r.app},
          {"model_command", r.command}};
}

// The config a sweep.json records: the model's own record of it, less the swept key (each point has it).
nlohmann::json config_without(nlohmann::json config, const std::string& key) {
  nlohmann::json* node = &config;
  std::size_t start = 0;
  while (node->is_object()) {
    const auto dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) {
      node->erase(part);
      break;
    }
    if (!node->contains(part)) break;
    node = &(*node)[part];
    start = dot + 1;
  }
  return config;
}

std::string sweep_text_of(const ModelSweepRequest& r, const Target& t) {
  if (!r.sweep.empty()) return r.sweep;
  if (t.model != registry::kNetworkModel) {
    const std::string hint = registry::machines().commands_hint(t.model);  // "use mppnet yield or ..."
    throw core::ConfigError(
        {r.file.path, 0}, "",
        fmt::format("`mppnet sweep` needs --sweep KEY=FROM:TO:STEP or KEY=V1,V2,... for a "
                    "config of model \"{}\" (only network configs have a [sweep] table){}",
                    t.model, hint.empty() ? "" : "; to run it once, " + hint));
  }
  const exp::SweepParams s = exp::load_experiment(r.file, r.sets).sweep;
  return fmt::format("{}={}:{}:{}", s.key, s.from, s.to, s.step);
}

}  // namespace

bool is_network_sweep(bool network_model, const std::string& sweep, int seeds, const std::string& app,
                      const std::string& command) {
  if (!network_model || seeds != 0 || !app.empty() || !command.empty()) return false;
  const auto eq = sweep.find('=');
  // The [sweep] table, or FROM:TO:STEP: a list (or one value) goes to model_sweep, which takes words too.
  return sweep.empty() || (eq != std::string::npos && sweep.find(':', eq) != std::string::npos &&
                           sweep.find(',', eq) == std::string::npos);
}

int model_sweep(const ModelSweepRequest& r) {
  const registry::Registry& all = registry::machines();
  const Target t = resolve_target(r, registry::model_of(r.file, r.sets), all);
  const std::string text = sweep_text_of(r, t);
  const SweepValues sweep = parse_sweep_values(text);
  const core::SourceLocation where{"--sweep " + text, 0};
  check_key(t, sweep.key, where, all);
  if (r.seeds < 0 || r.seeds > kMaxSeeds)
    throw core::ConfigError({fmt::format("--seeds {}", r.seeds), 0}, "",
                            fmt::format("expected 1 to {} seeds", kMaxSeeds));
  if (r.seeds > 0 && !has(t.keys, kSeedKey))
    throw core::ConfigError(
        {fmt::format("--seeds {}", r.seeds), 0}, "",
        fmt::format("model \"{}\" has no seed key ({}): its runs cannot be replicated", t.model, kSeedKey));
  if (r.seeds > 0 && sweep.key == kSeedKey)
    throw core::ConfigError(where, sweep.key,
                            "--seeds sets run.seed itself: sweep another key, or drop --seeds");
  const std::int64_t first_seed = r.seeds > 0 ? config_seed(t, r) : 0;
  if (r.seeds > 0 && first_seed > std::numeric_limits<std::int64_t>::max() - (r.seeds - 1))
    throw core::ConfigError({fmt::format("--seeds {}", r.seeds), 0}, kSeedKey,
                            fmt::format("seeds {} to {} + {} would pass the largest seed, 2^63 - 1; "
                                        "choose a smaller run.seed",
                                        first_seed, first_seed, r.seeds - 1));

  // Each point's --set list, seed by seed; every value checked by the model's loader before any run.
  auto point_sets = [&](const std::string& value, std::optional<std::int64_t> seed) {
    std::vector<std::string> sets = r.sets;
    sets.push_back(sweep.key + "=" + value);
    if (seed) sets.push_back(fmt::format("{}={}", kSeedKey, *seed));
    return sets;
  };
  auto as_sweep_error = [&](const core::ConfigError& e, const std::string& value) {
    return core::ConfigError(where, sweep.key, fmt::format("the sweep's value {}: {}", value, e.reason()));
  };
  for (const std::string& v : sweep.values) {
    try {
      check_point(t, r, point_sets(v, r.seeds > 0 ? std::optional(first_seed + r.seeds - 1) : std::nullopt));
    } catch (const core::ConfigError& e) {
      if (e.key() != sweep.key) throw;
      throw as_sweep_error(e, v);
    }
  }

  const io::OutputDirectory output_directory(r.out);
  // Every finished run is journaled (io/journal.hpp): a rerun after a kill runs only the rest, and since
  // each run is a pure function of its config and seed, writes the bytes an uninterrupted sweep writes.
  io::Journal journal(r.out, "sweep", sweep_fingerprint(r, text, first_seed));
  if (journal.resumed() > 0)
    std::fprintf(stderr, "mppnet: resuming: %zu of %zu runs were done (%s)\n", journal.resumed(),
                 sweep.values.size() * static_cast<std::size_t>(std::max(r.seeds, 1)),
                 journal.dir().string().c_str());
  std::printf("sweep of %s over %zu values%s: %s on %s (model \"%s\")\n", sweep.key.c_str(),
              sweep.values.size(),
              r.seeds > 0 ? fmt::format(" x {} seeds from {}", r.seeds, first_seed).c_str() : "",
              t.describe.c_str(), r.config.c_str(), t.model.c_str());
  std::vector<SweepPointRuns> points;
  int status = 0;
  for (std::size_t p = 0; p < sweep.values.size(); ++p) {
    const std::string& v = sweep.values[p];
    SweepPointRuns point{v, {}};
    for (int i = 0; i < std::max(r.seeds, 1); ++i) {
      const std::optional<std::int64_t> seed = r.seeds > 0 ? std::optional(first_seed + i) : std::nullopt;
      std::string dir = "points/" + point_directory_name(sweep.key, v);
      if (seed) dir += fmt::format("/seed-{}", *seed);
      const std::string name = fmt::format("run-{:04}-{:04}", p, i);
      std::optional<SweepRun> kept = journal.decoded(name, [&](const nlohmann::json& j) {
        SweepRun done{seed, j.at("status").get<int>(), j.at("dir").get<std::string>(), j.at("result")};
        if (!done.dir.empty() && done.dir != dir) throw std::invalid_argument("another point's record");
        return done;
      });
      SweepRun run;
      if (kept) {
        run = std::move(*kept);
        note_point_files(r.out, run.dir);
      } else {
        try {
          run = run_one(t, r, point_sets(v, seed), dir);
        } catch (const core::ConfigError& e) {  // an application's parameter checked only when it runs
          if (e.key() != sweep.key) throw;
          throw as_sweep_error(e, v);
        } catch (const core::DeadlockError& e) {  // recorded as failed; the sweep goes on
          run = failed_run(t, dir, core::kExitDeadlock, e.what());
        } catch (const std::runtime_error& e) {  // a run that failed otherwise (its plot, its files)
          run = failed_run(t, dir, core::kExitRunFailed, e.what());
        }
        journal.save(name, {{"status", run.status}, {"dir", run.dir}, {"result", run.result}});
      }
      run.seed = seed;
      std::printf("  %s = %s%s: %s%s\n", sweep.key.c_str(), v.c_str(),
                  seed ? fmt::format(", seed {}", *seed).c_str() : "",
                  run.status == 0 ? "done" : fmt::format("exit status {}", run.status).c_str(),
                  run.dir.empty() ? "" : fmt::format(" ({}/{})", r.out.string(), run.dir).c_str());
      if (run.status != 0 && status == 0) status = run.status;
      point.runs.push_back(std::move(run));
    }
    points.push_back(std::move(point));
  }

  const SweepTables tables = tabulate(sweep, points, r.seeds >= 2);
  nlohmann::json config = t.runner == Runner::Network
                              ? exp::to_json(exp::load_experiment(r.file, r.sets))
                              : points.front().runs.front().result.value("config", nlohmann::json());
  nlohmann::json seeds = nlohmann::json::array();
  for (int i = 0; i < r.seeds; ++i) seeds.push_back(first_seed + i);
  nlohmann::json values = nlohmann::json::array();
  for (const nlohmann::json& p : tables.points) values.push_back(p["value"]);
  const nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                           {"command", "sweep"},
                           {"model", t.model},
                           {"runs_with", t.describe},
                           {"config_file", r.file.path},
                           {"config", config_without(config, sweep.key)},
                           {"sets", r.sets},
                           {"swept_key", sweep.key},
                           {"values", values},
                           {"seed_key", r.seeds > 0 ? nlohmann::json(kSeedKey) : nlohmann::json()},
                           {"seeds", seeds},
                           {"fields", tables.fields},
                           {"points", tables.points}};
  io::write_file_atomically(r.out / "sweep.csv", tables.csv);
  io::write_file_atomically(r.out / "sweep_runs.csv", tables.runs_csv);
  io::write_file_atomically(r.out / "sweep.json", doc.dump(2) + "\n");
  journal.remove();
  std::printf("results: %s/sweep.csv, sweep_runs.csv, sweep.json%s\n", r.out.string().c_str(),
              t.runner == Runner::Network ? "" : "; each run's own files in points/");
  if (status != 0)
    std::fprintf(stderr,
                 "mppnet: a run exited with status %d (its point says which; the tables have its figures)\n",
                 status);
  return status;
}

}  // namespace mppnet::app
