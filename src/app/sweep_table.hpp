// app/sweep_table.hpp: the pure parts of `mppnet sweep` over any model: the values a --sweep names, the
// numeric fields of a model's result JSON, the mean and 95% interval over seeds, and the CSV and JSON
// tables (sweep.csv, sweep_runs.csv, sweep.json's points) built from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mppnet::app {

// `--sweep KEY=FROM:TO:STEP` or `--sweep KEY=V1,V2,...`.
struct SweepValues {
  std::string key;
  std::vector<std::string> values;  // as each point's `--set KEY=V` writes them
  bool numeric = false;             // every value reads as a finite number
};

// Parses the text after --sweep. A range counts its points first (floor((to - from) / step + 1e-9) + 1,
// at most 10,000), so that floating-point steps cannot add or drop one, and writes each value rounded
// to 1e-9 in its shortest form (0.1, 2); a list keeps each value as written (numbers or words). Throws
// core::ConfigError at "--sweep TEXT" for a missing key, an empty or repeated value, or a bad range.
SweepValues parse_sweep_values(const std::string& text);

// The name a point's directory gets: KEY=V, every character but letters, digits and ._-= written as _.
std::string point_directory_name(const std::string& key, const std::string& value);

// Every number of a result JSON, flattened to dotted names in the JSON's key order: true/false as 1/0,
// objects by key ("read.reply_rounds"), lists of objects by each element's "name" when all have distinct
// names, else by index ("locality.3.raw_mb_s"). Left out: the recorded config and seed (inputs, not
// results), strings, and lists of plain numbers (curves such as yield's p_complete, kept in sweep.json).
using NumericFields = std::vector<std::pair<std::string, double>>;
NumericFields numeric_fields(const nlohmann::json& result);

// The mean of `xs` and the half width of its 95% confidence interval, Student t with n - 1 degrees of
// freedom: t_{0.975, n-1} * s / sqrt(n), s the sample standard deviation (divisor n - 1). The half width
// is exactly 0 when all values are equal, and absent for n < 2 (as is the mean for n = 0).
struct MeanCi {
  std::optional<double> mean;
  std::optional<double> ci95;
};
MeanCi mean_ci95(const std::vector<double>& xs);

// One run of a point: the seed it ran with (none when the model's seed was left as the config has it),
// the model's exit status, its output directory (relative to the sweep's, "" when it wrote none) and the
// model's result JSON.
struct SweepRun {
  std::optional<std::int64_t> seed;
  int status = 0;
  std::string dir;
  nlohmann::json result;
};

struct SweepPointRuns {
  std::string value;
  std::vector<SweepRun> runs;
};

struct SweepTables {
  std::vector<std::string> fields;  // every numeric field of any run, in first-seen order
  std::string csv;                  // sweep.csv: KEY, then NAME (and NAME_ci95 when intervals) per field
  std::string runs_csv;             // sweep_runs.csv: KEY, seed, then NAME per field; one row per run
  nlohmann::json points;            // sweep.json's points: value, the means (and _ci95), and the runs
};

// `intervals`: add NAME_ci95 columns (two or more seeds). A field a run lacks is an empty cell there, and
// its mean and interval cover the runs that have it.
SweepTables tabulate(const SweepValues& sweep, const std::vector<SweepPointRuns>& points, bool intervals);

}  // namespace mppnet::app
