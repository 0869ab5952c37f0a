// machines/metro/study_commands.cpp: `mppnet yield` and `mppnet harvest`: the METRO studies, their
// tables, result files and plots.
#include "machines/metro/study_commands.hpp"

#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/journal.hpp"
#include "io/output_directory.hpp"
#include "io/plot.hpp"
#include "io/progress.hpp"
#include "machines/metro/harvest.hpp"
#include "machines/metro/metro_config.hpp"
#include "machines/metro/trial_batches.hpp"
#include "machines/metro/yield.hpp"
#include "registry/config_command.hpp"

namespace mppnet::machines::metro {

namespace {

namespace metro = machines::metro;

// A study's journal (io/journal.hpp) in <out>/.partial/<command>: its fingerprint is what the results
// depend on (the resolved config, with trials, instances and seed, and the batch size), its records the
// batches of trials finished so far; a rerun of the same command loads them instead of running them.
io::Journal open_journal(const std::filesystem::path& out, const std::string& command,
                         const metro::MetroConfig& cfg, long long per_batch) {
  return io::Journal(out, command,
                     {{"command", command},
                      {"mppnet_version", MPPNET_VERSION},
                      {"config_file", cfg.source_file},
                      {"config", metro::to_json(cfg)},
                      {"trials_per_batch", per_batch}});
}

metro::TrialBatches journaled(io::Journal& journal, long long per_batch) {
  if (journal.resumed() > 0)
    std::fprintf(stderr, "mppnet: resuming: %zu batches of %lld trials were done (%s)\n", journal.resumed(),
                 per_batch, journal.dir().string().c_str());
  return {.trials_per_batch = per_batch,
          .load = [&journal](const std::string& batch) -> std::optional<std::vector<double>> {
            return journal.decoded(batch, [](const nlohmann::json& done) {
              return done.at("values").get<std::vector<double>>();
            });
          },
          .save =
              [&journal](const std::string& batch, const std::vector<double>& values) {
                journal.save(batch, {{"values", values}});
              }};
}

// A plot's title: the config file and the keys the command line set, so that two runs of one file with
// different --set values (a wiring, a size) are told apart.
std::string plot_title(const std::string& source_file, const std::vector<std::string>& sets) {
  std::string title = source_file;
  for (std::size_t i = 0; i < sets.size(); ++i) title += (i == 0 ? " (" : ", ") + sets[i];
  return sets.empty() ? title : title + ")";
}

// Monte Carlo of the faults tolerated while the network stays complete; `trials` > 0 overrides run.trials.
int yield_command(const io::ConfigFile& file, std::vector<std::string> sets, long long trials,
                  const std::filesystem::path& out) {
  if (trials > 0) sets.push_back(fmt::format("run.trials={}", trials));
  const metro::MetroConfig cfg = metro::load_metro(file, sets);
  const io::OutputDirectory output_directory(out);
  const metro::YieldParams params = metro::yield_params(cfg);
  const long long per_batch = metro::trials_per_batch(params.trials);
  io::Journal journal = open_journal(out, "yield", cfg, per_batch);
  io::ProgressBar bar(/*note_long_runs=*/true);
  const metro::YieldResult r = metro::run_yield(
      params, [&](long long done, long long total) { bar.update(done, total, "yield trials"); },
      journaled(journal, per_batch));
  bar.finish();
  std::fputs(metro::format_yield(r).c_str(), stdout);

  nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                     {"config_file", cfg.source_file},
                     {"config", metro::to_json(cfg)},
                     {"fault_units", r.fault_units},
                     {"expected_faults_tolerated", r.mean},
                     {"std_error", r.std_error},
                     {"ci95_half_width", 1.96 * r.std_error},
                     {"stddev", r.stddev},
                     {"percent_network", r.percent_network},
                     {"instance_stddev", r.instance_stddev},
                     {"p_complete", r.p_complete}};
  io::write_file_atomically(out / "yield.json", doc.dump(2) + "\n");
  io::CsvTable csv({"faults", "p_complete", "trials_tolerating_exactly"});
  io::PlotSeries curve{"P(complete | k faults)", {}, {}};
  for (std::size_t k = 0; k < r.p_complete.size(); ++k) {
    const long long exactly = k < r.tolerated_count.size() ? r.tolerated_count[k] : 0;
    csv.add_row({io::cell(static_cast<std::int64_t>(k)), io::cell(r.p_complete[k]),
                 io::cell(static_cast<std::int64_t>(exactly))});
    curve.x.push_back(static_cast<double>(k));
    curve.y.push_back(r.p_complete[k]);
  }
  io::write_file_atomically(out / "yield.csv", csv.str());
  io::plot_lines(out / "yield",
                 fmt::format("{}: E(tolerated) = {:.2f} ± {:.2f} (95%)", plot_title(cfg.source_file, sets),
                             r.mean, 1.96 * r.std_error),
                 "random faults k", "P(network complete | k faults)", {curve});
  journal.remove();
  std::printf("results: %s/yield.json, yield.csv, yield.svg, yield.png\n", out.string().c_str());
  return 0;
}

// Fraction of nodes still usable after Chong's reconfiguration, at each fault level.
int harvest_command(const io::ConfigFile& file, const std::vector<std::string>& sets,
                    const std::filesystem::path& out) {
  const metro::MetroConfig cfg = metro::load_metro(file, sets);
  const io::OutputDirectory output_directory(out);
  const metro::HarvestParams params = metro::harvest_params(cfg);
  const long long per_batch =
      metro::trials_per_batch(params.trials * static_cast<long long>(params.fault_fractions.size()));
  io::Journal journal = open_journal(out, "harvest", cfg, per_batch);
  io::ProgressBar bar(/*note_long_runs=*/true);
  const metro::HarvestResult r = metro::run_harvest(
      params, [&](long long done, long long total) { bar.update(done, total, "harvest trials"); },
      journaled(journal, per_batch));
  bar.finish();
  std::fputs(metro::format_harvest(r).c_str(), stdout);

  nlohmann::json points = nlohmann::json::array();
  io::CsvTable csv({"fault_fraction", "faulty_packages", "harvest", "std_error", "p_complete"});
  io::PlotSeries curve{"nodes kept (harvest)", {}, {}};
  for (const metro::HarvestPoint& p : r.points) {
    points.push_back({{"fault_fraction", p.fault_fraction},
                      {"faulty_packages", p.faulty_packages},
                      {"harvest", p.harvest},
                      {"std_error", p.std_error},
                      {"p_complete", p.p_complete}});
    csv.add_row({io::cell(p.fault_fraction), io::cell(p.faulty_packages), io::cell(p.harvest),
                 io::cell(p.std_error), io::cell(p.p_complete)});
    curve.x.push_back(p.fault_fraction);
    curve.y.push_back(p.harvest);
  }
  nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                     {"config_file", cfg.source_file},
                     {"config", metro::to_json(cfg)},
                     {"packages", r.packages},
                     {"points", points}};
  io::write_file_atomically(out / "harvest.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "harvest.csv", csv.str());
  io::plot_lines(out / "harvest", plot_title(cfg.source_file, sets), "fraction of packages faulty",
                 "fraction of nodes usable", {curve});
  journal.remove();
  std::printf("results: %s/harvest.json, harvest.csv, harvest.svg, harvest.png\n", out.string().c_str());
  return 0;
}

}  // namespace

registry::Command yield_command_entry() {
  return {
      .name = "yield",
      .help = "METRO: faults tolerated before the network stops being complete",
      .model = "metro",
      .declare = [](CLI::App& command, const registry::Registry& all) -> std::function<int()> {
        struct State {
          registry::ConfigArguments args;
          long long trials = 0;
        };
        auto state = std::make_shared<State>();
        registry::add_config_arguments(command, state->args, "TOML METRO file (e.g. configs/metro-64.toml)",
                                       "Directory for yield.json, yield.csv and the plot (default "
                                       "results/<config>)");
        command.add_option("--trials", state->trials, "Monte Carlo trials (default run.trials)")
            ->check(CLI::PositiveNumber);
        return [state, &all] {
          const io::ConfigFile file = registry::open_config_of_model(state->args, "metro", "yield", all);
          return yield_command(file, state->args.sets, state->trials,
                               registry::output_directory(state->args.config, state->args.out));
        };
      },
  };
}

registry::Command harvest_command_entry() {
  return {
      .name = "harvest",
      .help = "METRO: nodes still usable after reconfiguration, vs faults",
      .model = "metro",
      .declare = [](CLI::App& command, const registry::Registry& all) -> std::function<int()> {
        auto args = std::make_shared<registry::ConfigArguments>();
        registry::add_config_arguments(command, *args, "TOML METRO file (e.g. configs/metro-1024.toml)",
                                       "Directory for harvest.json, harvest.csv and the plot");
        return [args, &all] {
          const io::ConfigFile file = registry::open_config_of_model(*args, "metro", "harvest", all);
          return harvest_command(file, args->sets, registry::output_directory(args->config, args->out));
        };
      },
  };
}

}  // namespace mppnet::machines::metro
