// io/plot.hpp: latency-vs-load plots drawn by gnuplot, as SVG and PNG.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mppnet::io {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;  // offered load, latency in cycles
};

// Writes out_stem.dat and out_stem.gp, and runs gnuplot to draw out_stem.svg and out_stem.png (each
// rendered under a temporary name and renamed). Throws std::runtime_error naming the command and its
// exit status when gnuplot is missing or fails.
void plot_lines(const std::filesystem::path& out_stem, const std::string& title, const std::string& x_label,
                const std::string& y_label, const std::vector<PlotSeries>& series);

// Latency (cycles) against offered load (flits/node/cycle).
void plot_latency_vs_load(const std::filesystem::path& out_stem, const std::string& title,
                          const std::vector<PlotSeries>& series);

}  // namespace mppnet::io
