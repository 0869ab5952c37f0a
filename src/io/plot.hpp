// io/plot.hpp: line plots and overlay figures drawn by gnuplot, as SVG and PNG.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace mppnet::io {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;  // offered load, latency in cycles
};

// How the axes and the legend are drawn.
struct PlotStyle {
  bool log_x = false;            // x on a base-2 logarithmic scale (sizes that double)
  std::string key = "top left";  // gnuplot's legend position, e.g. "top right"
};

enum class PlotOutcome {
  Drawn,      // stem.svg, stem.png, stem.dat and stem.gp written
  NoGnuplot,  // no gnuplot in PATH: stem.dat and stem.gp written, to be drawn later
};

// A plot that gnuplot could not draw completely: what() names the final file and what is wrong with it.
class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Draws out_stem.svg and out_stem.png, and leaves out_stem.dat (the data) and out_stem.gp (the script
// that drew them from the two) beside them; the script names the files by their final names relative to
// its directory, so `gnuplot stem.gp` run there draws them again.
// No name the caller passes is code to gnuplot: the data, script and plots are made in a private
// temporary directory (mkdtemp, in the output's directory) under fixed names, gnuplot runs there with no
// shell (fork and exec), and the results are renamed to their final paths (atomic on one file system).
// Titles and labels become single-quoted gnuplot strings with quotes doubled and control characters
// written as visible escapes (`\n`), so no character ends the string. The temporaries are removed on
// every path, a SIGINT or SIGTERM included (io/temp_files.hpp).
// The longest gnuplot may run for one plot before it is killed and the plot fails (`--plot-timeout`);
// 120 s unless set. A gnuplot that hangs (a terminal it waits on, a stuck file system) must not hold a
// finished run for ever.
void set_plot_timeout_ms(int ms);

// Throws PlotError when gnuplot fails or leaves a plot empty or incomplete (gnuplot exits 0 when its
// writes fail, so each file is checked: plot_file_problem); nothing is renamed then.
// REQUIRES: out_stem's file name is made of letters, digits, '.', '_' and '-' (it appears in the script).
PlotOutcome plot_lines(const std::filesystem::path& out_stem, const std::string& title,
                       const std::string& x_label, const std::string& y_label,
                       const std::vector<PlotSeries>& series, const PlotStyle& style = {});

// Latency (cycles) against offered load (flits/node/cycle).
PlotOutcome plot_latency_vs_load(const std::filesystem::path& out_stem, const std::string& title,
                                 const std::vector<PlotSeries>& series);

// One curve of an overlay figure (`mppnet plot`): a run's points, or a source's published values.
struct FigureSeries {
  enum class Style {
    Run,              // points joined by lines, with error bars when it has intervals
    ReferencePoints,  // a source's values: black marks with their bands, not joined
    ReferenceLine,    // a source's curve or bound: a dashed black line
  };
  std::string label = {};
  std::vector<double> x = {}, y = {};
  // Absolute ends of each point's bar (a confidence interval or a source's band); empty: no bars.
  std::vector<double> y_low = {}, y_high = {};
  // Which points are saturated (their figures are lower bounds); empty: none.
  std::vector<bool> saturated = {};
  Style style = Style::Run;
};

struct Figure {
  std::string title = {}, x_label = {}, y_label = {};
  std::vector<FigureSeries> series = {};
  // Labels of a categorical x axis, at x = 0, 1, ...; empty for a numeric axis.
  std::vector<std::string> x_categories = {};
  bool log_x = false;  // x on a base-2 logarithmic scale
};

// The figure's data as CSV, the file the script reads: a header, then one row per point (series index,
// x, y, y_low, y_high, saturated 0/1, label), each series' unsaturated points first and its saturated
// ones after them, so that the script selects either by row range.
std::string figure_csv(const Figure& figure);

// The gnuplot script that draws stem.svg and stem.png from stem.csv, all named relative to the script's
// directory. The legend is below the plot area, one entry a line (it never covers a curve); saturated
// points are open circles, with one legend entry saying what they are; reference series are black.
// REQUIRES: stem is a safe file name (see plot_lines); every series has y_low/y_high and saturated either
// empty or as long as x.
std::string figure_script(const Figure& figure, const std::string& stem);

// Writes out_stem.csv and out_stem.gp, and with gnuplot installed out_stem.svg and out_stem.png, with the
// guarantees of plot_lines (private directory, no shell, atomic renames, checked output).
PlotOutcome draw_figure(const std::filesystem::path& out_stem, const Figure& figure);

// Why `file` is not a complete plot, or "" if it is: an SVG must end with </svg> (trailing white space
// aside); a PNG must start with the PNG signature and end with the IEND chunk.
std::string plot_file_problem(const std::filesystem::path& file);

// `text` as a single-quoted gnuplot string that nothing in it can end: ' doubled, control characters as
// \n, \t, \r or \xHH (backslashes are literal in single quotes, so they print as written).
std::string gnuplot_string(const std::string& text);

// The executable `name` that `command -v name` would find along `path_list` (a PATH value; an empty
// entry is the current directory), or an empty path. No shell is run.
std::filesystem::path find_in_path(const std::string& name, const std::string& path_list);

}  // namespace mppnet::io
