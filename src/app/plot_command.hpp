// app/plot_command.hpp: `mppnet plot`: several runs overlaid in one figure, with a legend naming what
// differs between them, confidence-interval bars, saturated points marked and published values.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/plot_inputs.hpp"
#include "core/validation_case.hpp"
#include "io/plot.hpp"

namespace mppnet::app {

struct PlotRequest {
  std::vector<std::string> inputs;  // result files or directories
  std::string x, y;                 // empty: the default of the results' kind
  std::string out = "results/plot";
  std::string reference;  // empty: every reference that fits; "none": no reference
};

// The config keys whose values differ between the files (a key one file lacks differs), in key order,
// without `except` (the x axis) and the [sweep] table's keys (the range on x, not a condition of a run).
std::vector<std::string> differing_keys(const std::vector<ResultFile>& files, const std::string& except = "");

// "key=value, key=value" of `file` for `keys` ("topology.kind=torus"), or its display name when `keys`
// is empty.
std::string legend_label(const ResultFile& file, const std::vector<std::string>& keys);

// The figure the files make: one series per run (or, when x is a config key, one per group of runs that
// differ only in x), each with its CI bars and saturated points, plus the references that fit (see
// plot_references.hpp). Throws core::ConfigError for no file, files of different kinds, an unknown column
// or key, or a figure with nothing to draw.
io::Figure build_figure(const std::vector<ResultFile>& files, const PlotRequest& request,
                        const std::vector<core::ValidationCase>& cases);

// Reads the files, draws <out>/plot.svg and plot.png with gnuplot, leaving plot.csv and plot.gp beside them
// (`gnuplot plot.gp` in <out> draws them again). Without gnuplot, writes the data and the script, says so
// on stderr and returns 0. Throws core::ConfigError on bad input (exit 2), io::PlotError when gnuplot fails.
int plot_command(const PlotRequest& request);

// Declares `mppnet plot` and its options on `app`, filling `request`; cli.cpp runs plot_command(request)
// when the returned subcommand was parsed.
CLI::App* add_plot_subcommand(CLI::App& app, PlotRequest& request);

}  // namespace mppnet::app
