// exp/results.hpp: what a run or a sweep writes: a table on stdout, JSON and CSV files, and a plot.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exp/experiment_config.hpp"
#include "exp/open_loop.hpp"
#include "io/plot.hpp"

namespace mppnet::exp {

struct SweepPoint {
  double value = 0;  // of the swept key
  OpenLoopResult result;
  double wall_seconds = 0;  // host time the point took (in cost.json only: results.json is reproducible)
};

nlohmann::json to_json(const OpenLoopResult& r);
// Every field of a result, and back: a sweep's journal keeps finished points this way (io/journal.hpp),
// and a point read back writes the same bytes as the point that was run.
nlohmann::json to_record(const OpenLoopResult& r);
OpenLoopResult result_from_record(const nlohmann::json& j);
// What the points cost the host: per point wall time, simulated cycles, flit-hops and their rate, and the
// process's peak memory so far.
nlohmann::json cost_json(const std::vector<SweepPoint>& points);

// The human-readable table, one row per point; saturated points say so instead of giving numbers.
std::string format_table(const std::string& key, const std::vector<SweepPoint>& points);

// Writes <out>/results.json (config, seed, version, every point: byte-identical for the same config and
// seed), <out>/cost.json (`cost`: what the host spent, which varies from run to run; cost_json of the points
// this process ran), <out>/results.csv and, when `plot` and at least two points are unsaturated,
// <out>/latency.svg and <out>/latency.png (latency against the swept key) beside latency.dat and
// latency.gp (io::plot_lines). Every file is written atomically. Returns whether the plot was drawn, or
// why not: nothing to plot (nullopt) or no gnuplot installed. Throws io::PlotError when gnuplot left a
// plot incomplete; the JSON and CSV files are written by then.
std::optional<io::PlotOutcome> write_results(const std::filesystem::path& out, const ExperimentConfig& cfg,
                                             const std::string& key, const std::vector<SweepPoint>& points,
                                             const nlohmann::json& cost, bool plot);

}  // namespace mppnet::exp
