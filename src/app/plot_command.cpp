// app/plot_command.cpp: `mppnet plot`: result files overlaid in one figure.
#include "app/plot_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "app/plot_references.hpp"
#include "core/error.hpp"
#include "exp/validation.hpp"
#include "io/atomic_file.hpp"
#include "io/key_table.hpp"
#include "io/output_directory.hpp"
#include "registry/config_command.hpp"

namespace mppnet::app {

namespace {

// What a column or key means and its unit; the axis label also gives the name to type after --x or --y.
struct Meaning {
  const char* name;
  const char* text;
};
constexpr Meaning kMeanings[] = {
    {"traffic.rate", "offered load (flits/node/cycle)"},
    {"offered", "offered load measured (flits/node/cycle)"},
    {"accepted", "accepted throughput (flits/node/cycle)"},
    {"latency_avg", "mean latency (cycles)"},
    {"latency_p50", "median latency (cycles)"},
    {"latency_p99", "99th percentile latency (cycles)"},
    {"latency_max", "largest latency (cycles)"},
    {"network_latency_avg", "mean network latency (cycles)"},
    {"hops_avg", "mean hops"},
    {"channel_utilization", "channel utilisation"},
    {"petit_cycles", "petit cycles to deliver every message"},
    {"traffic.vp_ratio", "VP ratio v (virtual processors per processor)"},
    {"faults", "random faults k"},
    {"p_complete", "P(network complete | k faults)"},
    {"expected_faults_tolerated", "faults tolerated while complete (mean)"},
    {"fault_fraction", "fraction of packages faulty"},
    {"harvest", "fraction of nodes usable (harvest)"},
    {"group_nodes", "destinations within a group of (nodes)"},
    {"raw_mb_s", "raw MB/s per node"},
    {"payload_mb_s", "payload MB/s per node"},
    {"latency_us", "latency (us)"},
};

std::string axis_label(const std::string& column) {
  for (const Meaning& m : kMeanings)
    if (column == m.name) return fmt::format("{} [{}]", m.text, column);
  return column;
}

// The quantity without its unit or column, for titles: "mean latency".
std::string short_name(const std::string& column) {
  for (const Meaning& m : kMeanings)
    if (column == m.name) {
      const std::string text = m.text;
      return text.substr(0, text.find(" ("));
    }
  return column;
}

[[noreturn]] void fail(const std::string& where, const std::string& reason) {
  throw core::ConfigError({where, 0}, "", reason);
}

bool has_column(const ResultFile& f, const std::string& c) {
  return std::find(f.columns.begin(), f.columns.end(), c) != f.columns.end();
}

// A column that has one value per file: a top-level number, or the column of a file of one row.
bool has_single_value(const ResultFile& f, const std::string& c) {
  return f.scalars.count(c) != 0 || (f.rows.size() == 1 && f.rows[0].count(c) != 0);
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : separator) + i;
  return s;
}

// "no column "latncy" in FILE (did you mean latency_avg?); its columns: ...".
[[noreturn]] void unknown_column(const std::string& option, const std::string& name, const ResultFile& f,
                                 std::vector<std::string> candidates, const std::string& what) {
  const std::string guess = io::nearest(name, candidates);
  if (candidates.size() > 24) candidates.resize(24), candidates.push_back("...");
  fail(option + " " + name,
       fmt::format("no {} \"{}\" in {}{}; it has: {}", what, name, f.path,
                   guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess), join(candidates, ", ")));
}

bool is_number(const std::string& text, double& value) {
  char* rest = nullptr;
  value = std::strtod(text.c_str(), &rest);
  return !text.empty() && *rest == '\0';
}

// The file's interval column for `y`: y_ci95, or for a mean (latency_avg) the quantity's (latency_ci95).
std::string ci_column(const ResultFile& f, const std::string& y, bool per_file) {
  std::vector<std::string> candidates = {y + "_ci95"};
  if (y.ends_with("_avg")) candidates.push_back(y.substr(0, y.size() - 4) + "_ci95");
  for (const std::string& c : candidates)
    if (per_file ? has_single_value(f, c) : has_column(f, c)) return c;
  return "";
}

// The x axis when none is given and the results have none of their own (one CM-1 run is one point): the
// one numeric config key that differs between the runs.
std::string x_from_configs(const std::vector<ResultFile>& files) {
  std::vector<std::string> numeric;
  const std::vector<std::string> keys = differing_keys(files);
  for (const std::string& k : keys) {
    double v = 0;
    if (std::all_of(files.begin(), files.end(), [&](const ResultFile& f) {
          return f.config.count(k) != 0 && is_number(f.config.at(k), v);
        }))
      numeric.push_back(k);
  }
  if (numeric.size() == 1) return numeric.front();
  fail("--x", fmt::format("each {} result is one point: name the config key for the x axis with --x KEY{}",
                          files.front().kind,
                          keys.empty() ? std::string(" (the runs do not differ in any key)")
                                       : fmt::format(" (the runs differ in {})", join(keys, ", "))));
}

// Whether the x values are powers of two spanning a factor of 8 or more.
bool doubles(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const auto power_of_two = [](double v) {
    int exponent = 0;
    return v > 0 && std::frexp(v, &exponent) == 0.5;
  };
  return !xs.empty() && std::all_of(xs.begin(), xs.end(), power_of_two) && xs.back() >= 8 * xs.front();
}

struct Point {
  double x, y, low, high;
  bool saturated;
};

// "y against x, by key, key" or, for one run, "y against x: the run".
std::string title_of(const std::vector<ResultFile>& files, const std::vector<std::string>& keys,
                     const std::string& x, const std::string& y) {
  std::string t = fmt::format("{} against {}", y, x);
  if (!keys.empty()) {
    std::vector<std::string> shown(keys.begin(), keys.begin() + std::min<std::size_t>(keys.size(), 4));
    if (keys.size() > 4) shown.push_back(fmt::format("{} more keys", keys.size() - 4));
    return t + ", by " + join(shown, ", ");
  }
  if (files.size() == 1)
    return t + ": " + files[0].display +
           (files[0].config_file.empty() ? "" : " (" + files[0].config_file + ")");
  // Runs that differ only in x: the config they share names them.
  const bool same_config = std::all_of(
      files.begin(), files.end(), [&](const ResultFile& f) { return f.config_file == files[0].config_file; });
  return t + (same_config && !files[0].config_file.empty() ? ": " + files[0].config_file : "");
}

}  // namespace

std::vector<std::string> differing_keys(const std::vector<ResultFile>& files, const std::string& except) {
  std::set<std::string> all;
  for (const ResultFile& f : files)
    for (const auto& [key, value] : f.config) all.insert(key);
  std::vector<std::string> out;
  for (const std::string& key : all) {
    // A sweep's range ([sweep] from, to, step) is what the x axis shows, not a condition of the runs.
    if (key == except || key.starts_with("sweep.")) continue;
    const auto value = [&](const ResultFile& f) {
      const auto it = f.config.find(key);
      return it == f.config.end() ? std::string("\x01(none)") : it->second;
    };
    for (const ResultFile& f : files)
      if (value(f) != value(files.front())) {
        out.push_back(key);
        break;
      }
  }
  return out;
}

std::string legend_label(const ResultFile& file, const std::vector<std::string>& keys) {
  if (keys.empty()) return file.display;
  std::vector<std::string> parts;
  for (const std::string& k : keys) {
    const auto it = file.config.find(k);
    parts.push_back(k + "=" + (it == file.config.end() ? "(none)" : it->second));
  }
  return join(parts, ", ");
}

io::Figure build_figure(const std::vector<ResultFile>& files, const PlotRequest& request,
                        const std::vector<core::ValidationCase>& cases) {
  if (files.empty()) fail("mppnet plot", "no result file given");
  const ResultFile& first = files.front();
  for (const ResultFile& f : files)
    if (f.kind != first.kind)
      fail(f.path, fmt::format("a {} result cannot be overlaid on a {} result ({}): they measure different "
                               "things; plot them separately",
                               f.kind, first.kind, first.path));

  // The x axis: a column of every file's rows (a curve per run), or a config key (a point per run).
  std::string x = request.x.empty() ? first.x_default : request.x;
  if (x.empty()) x = x_from_configs(files);
  const bool per_file = !has_column(first, x) && first.config.count(x) != 0;
  for (const ResultFile& f : files) {
    if (per_file ? f.config.count(x) == 0 : !has_column(f, x)) {
      std::vector<std::string> names = f.columns;
      for (const auto& [key, value] : f.config) names.push_back(key);
      unknown_column("--x", x, f, names, "column or config key");
    }
  }
  const std::string y = request.y.empty() ? first.y_default : request.y;
  for (const ResultFile& f : files) {
    if (per_file && !has_single_value(f, y)) {
      std::vector<std::string> names;
      for (const auto& [key, value] : f.scalars) names.push_back(key);
      if (f.rows.size() == 1) names.insert(names.end(), f.columns.begin(), f.columns.end());
      if (has_column(f, y))
        fail("--y " + y, fmt::format("{} has {} values of {} (one per row), and --x {} takes one per run: "
                                     "choose a single-valued column, one of {}",
                                     f.path, f.rows.size(), y, x, join(names, ", ")));
      unknown_column("--y", y, f, names, "single-valued column");
    }
    if (!per_file && !has_column(f, y)) unknown_column("--y", y, f, f.columns, "column");
  }

  const std::vector<std::string> keys = differing_keys(files, x);
  // Runs of one point each (a key per run, or single `mppnet run`s) join into curves: one per group of
  // runs that differ only in x.
  const bool joined =
      per_file || (files.size() > 1 &&
                   std::all_of(files.begin(), files.end(), [](const auto& f) { return f.rows.size() == 1; }));
  std::vector<std::string> labels;
  for (const ResultFile& f : files)
    labels.push_back(joined && keys.empty() ? fmt::format("simulated ({} runs)", files.size())
                                            : legend_label(f, keys));
  // Runs the keys cannot tell apart (CSV files, or the same config twice) are named by their files, as
  // are any whose labels would be the same.
  for (std::size_t i = 0; i < files.size(); ++i)
    if (!joined && std::count(labels.begin(), labels.end(), labels[i]) > 1)
      labels[i] = files[i].display + (keys.empty() ? "" : " (" + legend_label(files[i], keys) + ")");

  io::Figure figure;
  figure.x_label = axis_label(x);
  figure.y_label = axis_label(y);
  figure.title = title_of(files, keys, short_name(x), short_name(y));
  figure.log_x = !per_file && x == first.x_default && first.log_x;
  // Categorical x: a config key whose values are not all numbers (topology.kind, metro.wiring).
  std::vector<double> file_x(files.size());
  bool categorical = false;
  for (std::size_t i = 0; per_file && i < files.size(); ++i)
    categorical = categorical || !is_number(files[i].config.at(x), file_x[i]);
  for (std::size_t i = 0; categorical && i < files.size(); ++i) {
    const std::string& v = files[i].config.at(x);
    auto it = std::find(figure.x_categories.begin(), figure.x_categories.end(), v);
    if (it == figure.x_categories.end()) it = figure.x_categories.insert(it, v);
    file_x[i] = static_cast<double>(it - figure.x_categories.begin());
  }
  // Or a column of words (a sweep over metro.wiring): each file numbers its own words; the axis has
  // them all, in the order the files bring them.
  std::vector<std::vector<double>> word_x(files.size());
  for (std::size_t i = 0; !per_file && i < files.size(); ++i) {
    const auto words = files[i].categories.find(x);
    if (words == files[i].categories.end()) continue;
    categorical = true;
    for (const std::string& w : words->second) {
      auto it = std::find(figure.x_categories.begin(), figure.x_categories.end(), w);
      if (it == figure.x_categories.end()) it = figure.x_categories.insert(it, w);
      word_x[i].push_back(static_cast<double>(it - figure.x_categories.begin()));
    }
  }

  // The points of each series: a file's rows, or (joined) those of the files that share a label.
  std::vector<std::string> series_labels;
  std::vector<std::vector<Point>> series_points;
  bool any_bars = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ResultFile& f = files[i];
    const std::string ci = ci_column(f, y, per_file);
    std::vector<std::map<std::string, double>> rows = per_file ? std::vector{f.scalars} : f.rows;
    if (per_file && f.rows.size() == 1) rows[0].insert(f.rows[0].begin(), f.rows[0].end());
    auto it = std::find(series_labels.begin(), series_labels.end(), labels[i]);
    if (!joined || it == series_labels.end()) {
      series_labels.push_back(labels[i]);
      series_points.emplace_back();
      it = series_labels.end() - 1;
    }
    auto& points = series_points[static_cast<std::size_t>(it - series_labels.begin())];
    for (const auto& row : rows) {
      if (row.count(y) == 0 || (!per_file && row.count(x) == 0)) continue;  // a CSV cell left empty
      const double yv = row.at(y);
      const double half = !ci.empty() && row.count(ci) != 0 ? row.at(ci) : 0.0;
      any_bars = any_bars || half > 0;
      double xv = per_file ? file_x[i] : row.at(x);
      if (!word_x[i].empty()) xv = word_x[i].at(static_cast<std::size_t>(xv));
      points.push_back(
          {xv, yv, yv - half, yv + half, row.count("saturated") != 0 && row.at("saturated") != 0});
    }
  }
  for (std::size_t s = 0; s < series_labels.size(); ++s) {
    auto& points = series_points[s];
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    io::FigureSeries series{.label = series_labels[s]};
    for (const Point& p : points) {
      series.x.push_back(p.x);
      series.y.push_back(p.y);
      series.y_low.push_back(p.low);
      series.y_high.push_back(p.high);
      series.saturated.push_back(p.saturated);
    }
    if (!any_bars) series.y_low.clear(), series.y_high.clear();
    figure.series.push_back(std::move(series));
  }
  if (std::all_of(figure.series.begin(), figure.series.end(), [](const auto& s) { return s.x.empty(); }))
    fail(first.path, fmt::format("nothing to draw: no row has both {} and {}", x, y));

  ReferenceQuery query{.kind = first.kind, .x = x, .y = y, .x_is_config_key = per_file, .file_x = file_x};
  for (const ResultFile& f : files) query.files.push_back(&f);
  for (const io::FigureSeries& s : figure.series) query.xs.insert(query.xs.end(), s.x.begin(), s.x.end());
  // A key set to values that double (VP ratio 1, 2, 4, ..., 32) spreads evenly on a base-2 log scale.
  if (per_file && !categorical) figure.log_x = doubles(query.xs);
  for (io::FigureSeries& s : reference_series(request.reference, query, cases))
    figure.series.push_back(std::move(s));
  return figure;
}

int plot_command(const PlotRequest& request) {
  std::vector<ResultFile> files;
  for (const std::string& input : request.inputs) files.push_back(read_result(input));
  const io::Figure figure = build_figure(files, request, exp::validation_cases());
  const std::filesystem::path out(request.out);
  // A plot may go into a run's own folder: it adds its files to that run's, and removes none of them.
  const io::OutputDirectory output_directory(out, io::OutputDirectory::Files::AddToEarlierRun);
  const io::PlotOutcome outcome = io::draw_figure(out / "plot", figure);
  if (outcome == io::PlotOutcome::NoGnuplot) {
    std::fprintf(
        stderr,
        "mppnet: note: gnuplot not found in PATH, so plot.svg and plot.png were not drawn; with gnuplot "
        "installed, run `gnuplot plot.gp` in %s\n",
        out.string().c_str());
    std::printf("plot data: %s/plot.csv, plot.gp\n", out.string().c_str());
  } else {
    std::printf("plot: %s/plot.svg, plot.png (drawn by plot.gp from plot.csv)\n", out.string().c_str());
  }
  return 0;
}

CLI::App* add_plot_subcommand(CLI::App& app, PlotRequest& request) {
  CLI::App* plot = app.add_subcommand(
      "plot", "Overlay results of run, sweep, yield or harvest in one figure (docs/plotting.md)");
  plot->add_option("results", request.inputs,
                   "Result files or directories: results.json, yield.json, harvest.json or their CSV")
      ->required();
  plot->add_option("--x", request.x,
                   "Column or config key on the x axis (default: the swept key, faults, fault_fraction; for "
                   "CM-1 runs the one key that differs)");
  plot->add_option(
      "--y", request.y,
      "Column on the y axis (default: latency_avg, p_complete, harvest, petit_cycles, raw_mb_s)");
  registry::refuse_empty_path(plot->add_option(
      "--out", request.out, "Directory for plot.svg, plot.png, plot.csv and plot.gp (default results/plot)"));
  plot->add_option(
      "--reference", request.reference,
      "Published values to overlay: cm1.fig12, metro.table3.4, or none (default: each that fits)");
  return plot;
}

}  // namespace mppnet::app
