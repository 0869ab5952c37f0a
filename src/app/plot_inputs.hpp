// app/plot_inputs.hpp: the result files `mppnet plot` reads (run, sweep, yield, harvest), as tables.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mppnet::app {

// One result file as `mppnet plot` sees it: rows of numbers (a sweep's points, a yield curve), the
// file's own top-level numbers, and the config that produced it, flattened to "section.key" = value.
struct ResultFile {
  std::string path;     // the file read (a directory named on the command line: the result file in it)
  std::string display;  // what names the run when no config key tells runs apart: the directory, or the file
  // "network" (run and sweep of a network config), "cm1", "cm5", "yield", "harvest", "app" (a sweep of
  // a node program), "yield-sweep" and "harvest-sweep" (sweeps of METRO's commands), or "csv" (a CSV
  // file of unknown origin).
  std::string kind;
  std::string config_file;                    // the config the run read, as recorded ("" in CSV)
  std::map<std::string, std::string> config;  // empty when the file does not record it (CSV)
  std::vector<std::string> columns;           // the rows' columns, in the file's order
  std::vector<std::map<std::string, double>> rows;
  std::map<std::string, double> scalars;  // top-level numbers, true/false as 1/0
  // Columns of words (a sweep over metro.wiring): the rows hold each word's index in this list.
  std::map<std::string, std::vector<std::string>> categories;
  // What to draw when --x and --y are not given; x_default is empty when the x axis must be a config key
  // that differs between the runs (a CM-1 run is one point).
  std::string x_default, y_default;
  bool log_x = false;  // the default x doubles from point to point
};

// Reads `path`: a results.json, sweep.json, yield.json or harvest.json (or the CSV beside it), or a
// directory holding exactly one of them. Throws core::ConfigError naming the path when it is missing,
// unreadable, or not a result file mppnet writes.
ResultFile read_result(const std::string& path);

// Parses result JSON text; `path` names it in errors and in the legend.
ResultFile parse_result_json(const std::string& text, const std::string& path);

// Parses result CSV text (RFC 4180); the file name (results.csv, yield.csv, harvest.csv, bandwidth.csv)
// says which kind it is.
ResultFile parse_result_csv(const std::string& text, const std::string& path);

// The value of a row, or of the file's own numbers when the column is not in the rows.
// REQUIRES: the column exists in one or the other.
double value_of(const ResultFile& file, const std::map<std::string, double>& row, const std::string& column);

}  // namespace mppnet::app
