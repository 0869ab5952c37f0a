// io/plot.cpp: data and script files for gnuplot, and the two renderings.
#include "io/plot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "io/atomic_file.hpp"

namespace mppnet::io {

namespace {

// Single-quoted for the shell and for gnuplot: a quote inside becomes '\'' (shell) or '' (gnuplot).
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
std::string gnuplot_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

void render(const std::filesystem::path& script, const std::filesystem::path& target) {
  const std::string command = "gnuplot " + shell_quote(script.string()) + " 2>&1";
  const int status = std::system(command.c_str());
  if (status != 0)
    throw std::runtime_error(
        fmt::format("plotting {} failed: `{}` exited with status {}", target.string(), command, status));
}

}  // namespace

void plot_latency_vs_load(const std::filesystem::path& out_stem, const std::string& title,
                          const std::vector<PlotSeries>& series) {
  plot_lines(out_stem, title, "offered load (flits/node/cycle)", "latency (cycles)", series);
}

void plot_lines(const std::filesystem::path& out_stem, const std::string& title, const std::string& x_label,
                const std::string& y_label, const std::vector<PlotSeries>& series) {
  std::string data;
  for (const PlotSeries& s : series) {
    data += "# " + s.name + "\n";
    for (std::size_t i = 0; i < s.x.size(); ++i) data += fmt::format("{} {}\n", s.x[i], s.y[i]);
    data += "\n\n";  // gnuplot data blocks are separated by two blank lines
  }
  const std::filesystem::path dat = out_stem.string() + ".dat";
  write_file_atomically(dat, data);

  const std::string pid = std::to_string(::getpid());
  const std::filesystem::path svg = out_stem.string() + ".svg", png = out_stem.string() + ".png";
  const std::filesystem::path svg_tmp = out_stem.string() + ".svg.tmp." + pid;
  const std::filesystem::path png_tmp = out_stem.string() + ".png.tmp." + pid;
  std::string plot = "plot ";
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (i > 0) plot += ", ";
    plot += fmt::format("{} index {} using 1:2 with linespoints title {}", gnuplot_quote(dat.string()), i,
                        gnuplot_quote(series[i].name));
  }
  const std::string common =
      fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset key top left\nset grid\n",
                  gnuplot_quote(title), gnuplot_quote(x_label), gnuplot_quote(y_label));
  const std::string script = "set terminal svg size 800,500 dynamic noenhanced\nset output " +
                             gnuplot_quote(svg_tmp.string()) + "\n" + common + plot +
                             "\nset terminal pngcairo size 800,500 noenhanced\nset output " +
                             gnuplot_quote(png_tmp.string()) + "\nreplot\n";
  const std::filesystem::path gp = out_stem.string() + ".gp";
  write_file_atomically(gp, script);
  try {
    render(gp, svg);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(svg_tmp, ec);
    std::filesystem::remove(png_tmp, ec);
    throw;
  }
  std::filesystem::rename(svg_tmp, svg);
  std::filesystem::rename(png_tmp, png);
}

}  // namespace mppnet::io
