// io/plot.cpp: data and script files for gnuplot, the run of gnuplot, and the checks of what it drew.
#include "io/plot.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/input_file.hpp"
#include "io/output_paths.hpp"
#include "io/printable.hpp"
#include "io/temp_files.hpp"

namespace mppnet::io {

namespace {

std::atomic<int> g_plot_timeout_ms{120'000};

bool is_safe_file_name(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string read_all(const std::filesystem::path& file) {
  return read_input_file(file, "plot file");
}

// Plain write, for files inside the private directory: they reach their final names by rename later.
void write_plain(const std::filesystem::path& file, const std::string& content) {
  std::ofstream out(file, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw PlotError(fmt::format("cannot write {}: {}", file.string(), std::strerror(errno)));
}

// The private directory and every file gnuplot may leave in it, registered for the signal handler;
// whatever was not renamed away is removed when it goes.
class PrivateDirectory {
 public:
  PrivateDirectory(const std::filesystem::path& parent, const std::string& stem,
                   const std::vector<std::string>& names) {
    // An unguessable name that a later run into the same folder recognises as a killed run's leftover
    // (io/output_directory.hpp); registered before it exists, for the signal handler.
    for (int attempt = 0;; ++attempt) {
      path_ = parent / plot_folder_name(stem);
      dir_guard_.reset();
      dir_guard_.emplace(path_, TempPath::Kind::Directory);
      if (::mkdir(path_.c_str(), 0700) == 0) break;
      if (errno != EEXIST || attempt == 15)
        throw core::ConfigError(
            {parent.string(), 0}, "",
            fmt::format("cannot create a directory for the plot: {}", std::strerror(errno)));
    }
    for (const std::string& n : names) {
      files_.push_back(path_ / n);
      file_guards_.emplace_back(std::make_unique<TempPath>(path_ / n));
    }
  }
  ~PrivateDirectory() {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(path_.c_str());
  }
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::filesystem::path> files_;
  std::optional<TempPath> dir_guard_;
  std::vector<std::unique_ptr<TempPath>> file_guards_;
};

struct ChildResult {
  int status = 0;      // as from waitpid
  std::string output;  // stdout and stderr together, the first 4 KiB
};

// Runs `program script` in `cwd` with no shell: fork, chdir, exec. The signals the cleanup handler catches
// are blocked from before the fork until the child is registered, so that a signal in between cannot
// leave a child writing into a directory the handler emptied.
ChildResult run_in(const std::filesystem::path& program, const std::string& script,
                   const std::filesystem::path& cwd) {
  install_temp_cleanup_handlers();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw PlotError(fmt::format("cannot run {}: pipe: {}", program.string(), std::strerror(errno)));
  sigset_t block, previous;
  sigemptyset(&block);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  ::sigprocmask(SIG_BLOCK, &block, &previous);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec. Our handlers are not the child's business.
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      ::sigaction(sig, nullptr, &old);
      if (old.sa_handler != SIG_IGN) std::signal(sig, SIG_DFL);
    }
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(pipe_fds[1], 1) < 0 || ::dup2(pipe_fds[1], 2) < 0 ||
        ::chdir(cwd.c_str()) != 0)
      ::_exit(127);
    const char* argv[] = {program.c_str(), script.c_str(), nullptr};
    ::execv(program.c_str(), const_cast<char* const*>(argv));
    ::_exit(127);
  }
  const int fork_errno = errno;
  std::optional<TempChild> registered;
  if (pid > 0) registered.emplace(pid);
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  ::close(pipe_fds[1]);
  if (pid < 0) {
    ::close(pipe_fds[0]);
    throw PlotError(fmt::format("cannot run {}: fork: {}", program.string(), std::strerror(fork_errno)));
  }
  ChildResult r;
  char buffer[4096];
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(g_plot_timeout_ms.load());
  for (;;) {
    const int ready = wait_readable(pipe_fds[0], deadline);
    if (ready == 0) {  // still running at the deadline: stopped, and the plot fails
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      ::close(pipe_fds[0]);
      throw PlotError(
          fmt::format("{} did not finish within {} s and was stopped; --plot-timeout SECONDS "
                      "sets the wait",
                      program.string(), g_plot_timeout_ms.load() / 1000.0));
    }
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.output.append(buffer, static_cast<std::size_t>(n));
    if (r.output.size() > 4096) r.output.resize(4096);
  }
  ::close(pipe_fds[0]);
  while (::waitpid(pid, &r.status, 0) < 0 && errno == EINTR) {
  }
  return r;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {}", WTERMSIG(status));
  return fmt::format("ended with wait status {}", status);
}

// Durable before the rename makes it visible, as write_file_atomically does for every other result.
void sync_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void move_into_place(const std::filesystem::path& from, const std::filesystem::path& to) {
  sync_file(from);
  check_output_target(to);
  if (::rename(from.c_str(), to.c_str()) != 0)
    throw core::ConfigError({to.string(), 0}, "",
                            fmt::format("cannot rename '{}' to it: {}", from.string(), std::strerror(errno)));
  note_written(to);
}

// Writes `data` as data_name and `script` as stem.gp beside out_stem, then runs gnuplot on them to draw
// stem.svg and stem.png (see plot_lines for how and with what guarantees).
PlotOutcome render(const std::filesystem::path& out_stem, const std::string& dat, const std::string& data,
                   const std::string& script) {
  const std::string stem = out_stem.filename().string();
  MPPNET_ASSERT(is_safe_file_name(stem), "a plot's file name must be safe to write into a gnuplot script");
  const std::filesystem::path dir = out_stem.has_parent_path() ? out_stem.parent_path() : ".";
  const std::string gp = stem + ".gp", svg = stem + ".svg", png = stem + ".png";
  const char* path_env = std::getenv("PATH");
  const std::filesystem::path gnuplot = find_in_path("gnuplot", path_env ? path_env : "/usr/bin:/bin");
  if (gnuplot.empty()) {
    // The data and the script still go beside the results, for whoever installs gnuplot later.
    write_file_atomically(dir / dat, data);
    write_file_atomically(dir / gp, script);
    return PlotOutcome::NoGnuplot;
  }

  prepare_output_directory(dir);
  for (const std::string& file : {dat, gp, svg, png}) check_output_target(dir / file);  // before gnuplot runs
  const PrivateDirectory work(dir, stem, {dat, gp, svg, png});
  write_plain(work.path() / dat, data);
  write_plain(work.path() / gp, script);
  const ChildResult run = run_in(gnuplot, gp, work.path());
  const auto failed = [&](const std::string& file, const std::string& why) {
    std::string said = run.output.substr(0, run.output.find('\n'));
    return PlotError(fmt::format("plotting failed: {}: {}{}", (dir / file).string(), why,
                                 said.empty() ? "" : fmt::format(" (gnuplot: {})", printable(said))));
  };
  if (WIFEXITED(run.status) && WEXITSTATUS(run.status) == 127 && run.output.empty())
    throw failed(svg, fmt::format("could not start {}", gnuplot.string()));
  if (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0)
    throw failed(svg, fmt::format("{} {}", gnuplot.string(), describe_status(run.status)));
  // gnuplot exits 0 when a write fails (a full disk leaves an SVG cut short and an empty PNG).
  for (const std::string& file : {svg, png}) {
    const std::string problem = plot_file_problem(work.path() / file);
    if (!problem.empty()) throw failed(file, problem + " (is the disk full?)");
  }
  for (const std::string& file : {dat, gp, svg, png}) move_into_place(work.path() / file, dir / file);
  return PlotOutcome::Drawn;
}

}  // namespace

void set_plot_timeout_ms(int ms) {
  g_plot_timeout_ms.store(ms);
}

std::string gnuplot_string(const std::string& text) {
  std::string q = "'";
  for (const char c : printable(text)) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::filesystem::path find_in_path(const std::string& name, const std::string& path_list) {
  const auto executable = [](const std::filesystem::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.find('/') != std::string::npos) return executable(name) ? std::filesystem::path(name) : "";
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = path_list.find(':', start);
    const std::string dir = path_list.substr(start, colon == std::string::npos ? colon : colon - start);
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (executable(candidate)) return candidate;
    if (colon == std::string::npos) return "";
    start = colon + 1;
  }
}

std::string plot_file_problem(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return "not written";
  const std::string bytes = read_all(file);
  if (bytes.empty()) return "empty";
  if (file.extension() == ".svg") {
    const std::size_t end = bytes.find_last_not_of(" \t\r\n");
    const std::string_view close = "</svg>";
    if (end + 1 < close.size() || bytes.compare(end + 1 - close.size(), close.size(), close) != 0)
      return fmt::format("incomplete SVG: its {} bytes do not end with </svg>", bytes.size());
    return "";
  }
  if (file.extension() == ".png") {
    // PNG (ISO/IEC 15948): an 8-byte signature, then chunks; the last is IEND: length 0, type, CRC.
    static const std::string_view signature("\x89PNG\r\n\x1a\n", 8);
    static const std::string_view iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    if (bytes.compare(0, signature.size(), signature) != 0) return "not a PNG: no PNG signature";
    if (bytes.size() < signature.size() + iend.size() ||
        bytes.compare(bytes.size() - iend.size(), iend.size(), iend) != 0)
      return fmt::format("incomplete PNG: its {} bytes do not end with the IEND chunk", bytes.size());
    return "";
  }
  return "";
}

PlotOutcome plot_latency_vs_load(const std::filesystem::path& out_stem, const std::string& title,
                                 const std::vector<PlotSeries>& series) {
  return plot_lines(out_stem, title, "offered load (flits/node/cycle)", "latency (cycles)", series);
}

PlotOutcome plot_lines(const std::filesystem::path& out_stem, const std::string& title,
                       const std::string& x_label, const std::string& y_label,
                       const std::vector<PlotSeries>& series, const PlotStyle& style) {
  // The legend position is ours, never user text: it goes into the script as it is.
  MPPNET_ASSERT(style.key == "top left" || style.key == "top right" || style.key == "bottom left" ||
                    style.key == "bottom right",
                "a legend position gnuplot knows");
  const std::string stem = out_stem.filename().string();
  MPPNET_ASSERT(is_safe_file_name(stem), "a plot's file name must be safe to write into a gnuplot script");
  const std::string dat = stem + ".dat", gp = stem + ".gp", svg = stem + ".svg", png = stem + ".png";

  std::string data;
  for (const PlotSeries& s : series) {
    data += "# " + printable(s.name) + "\n";
    for (std::size_t i = 0; i < s.x.size(); ++i) data += fmt::format("{} {}\n", s.x[i], s.y[i]);
    data += "\n\n";  // gnuplot data blocks are separated by two blank lines
  }
  std::string plot = "plot ";
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (i > 0) plot += ", ";
    plot += fmt::format("'{}' index {} using 1:2 with linespoints title {}", dat, i,
                        gnuplot_string(series[i].name));
  }
  const std::string script = fmt::format(
      "# Draws {svg} and {png} from {dat}: run `gnuplot {gp}` in this directory.\n"
      "set terminal svg size 800,500 dynamic noenhanced\nset output '{svg}'\n"
      "set title {title}\nset xlabel {x}\nset ylabel {y}\nset key {key}\nset grid\n{log}{plot}\n"
      "set terminal pngcairo size 800,500 noenhanced\nset output '{png}'\nreplot\nunset output\n",
      fmt::arg("svg", svg), fmt::arg("png", png), fmt::arg("dat", dat), fmt::arg("gp", gp),
      fmt::arg("title", gnuplot_string(title)), fmt::arg("x", gnuplot_string(x_label)),
      fmt::arg("y", gnuplot_string(y_label)), fmt::arg("key", style.key),
      fmt::arg("log", style.log_x ? "set logscale x 2\n" : ""), fmt::arg("plot", plot));

  return render(out_stem, dat, data, script);
}

namespace {

// A series' unsaturated points, then its saturated ones: the order of the CSV rows.
std::vector<std::size_t> row_order(const FigureSeries& s) {
  std::vector<std::size_t> order;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if ((i < s.saturated.size() && s.saturated[i]) == (pass == 1)) order.push_back(i);
  return order;
}

std::size_t saturated_count(const FigureSeries& s) {
  return static_cast<std::size_t>(std::count(s.saturated.begin(), s.saturated.end(), true));
}

}  // namespace

std::string figure_csv(const Figure& figure) {
  CsvTable csv({"series", "x", "y", "y_low", "y_high", "saturated", "label"});
  for (std::size_t k = 0; k < figure.series.size(); ++k) {
    const FigureSeries& s = figure.series[k];
    MPPNET_ASSERT(s.y.size() == s.x.size() && (s.y_low.empty() || s.y_low.size() == s.x.size()) &&
                      s.y_high.size() == s.y_low.size() &&
                      (s.saturated.empty() || s.saturated.size() == s.x.size()),
                  "a series' columns have one entry per point");
    for (const std::size_t i : row_order(s)) {
      const bool bars = !s.y_low.empty();
      const bool saturated = i < s.saturated.size() && s.saturated[i];
      // The label is printable: a line break in it, even quoted, would count as a row to gnuplot.
      csv.add_row({cell(static_cast<std::int64_t>(k)), cell(s.x[i]), cell(s.y[i]),
                   cell(bars ? s.y_low[i] : s.y[i]), cell(bars ? s.y_high[i] : s.y[i]),
                   cell(saturated ? 1 : 0), cell(printable(s.label))});
    }
  }
  return csv.str();
}

std::string figure_script(const Figure& figure, const std::string& stem) {
  MPPNET_ASSERT(is_safe_file_name(stem), "a plot's file name must be safe to write into a gnuplot script");
  const std::string csv = stem + ".csv", gp = stem + ".gp", svg = stem + ".svg", png = stem + ".png";
  std::vector<std::string> clauses;
  std::size_t row = 0, color = 0;
  bool saturation_explained = false;
  for (const FigureSeries& s : figure.series) {
    const std::size_t saturated = saturated_count(s), plain = s.x.size() - saturated;
    const std::string source = fmt::format("'{}' skip 1", csv);
    const auto rows = [&](std::size_t first, std::size_t count) {
      return fmt::format("every ::{}::{}", first, first + count - 1);
    };
    const bool bars = !s.y_low.empty();
    if (s.style == FigureSeries::Style::Run) {
      ++color;
      // Categories have no order to join: their points stand alone.
      const bool joined = figure.x_categories.empty();
      const char* with = bars ? (joined ? "yerrorlines" : "yerrorbars") : (joined ? "linespoints" : "points");
      if (plain > 0)
        clauses.push_back(fmt::format("{} {} using 2:3{} with {} lc {} pt 7 ps {} title {}", source,
                                      rows(row, plain), bars ? ":4:5" : "", with, color,
                                      joined ? "0.8" : "1.2", gnuplot_string(s.label)));
      if (saturated > 0) {
        // One legend entry explains the open circles; a series with no other point is named by it.
        std::string title = "notitle";
        if (plain == 0)
          title = "title " + gnuplot_string(s.label + " (saturated: figures are lower bounds)");
        else if (!saturation_explained)
          title = "title 'open circle: saturated (the run stopped; its figures are lower bounds)'";
        saturation_explained = saturation_explained || plain > 0;
        clauses.push_back(fmt::format("{} {} using 2:3 with points lc {} pt 6 ps 1.8 {}", source,
                                      rows(row + plain, saturated), color, title));
      }
    } else if (!s.x.empty()) {
      const bool line = s.style == FigureSeries::Style::ReferenceLine;
      clauses.push_back(fmt::format("{} {} using 2:3{} with {} lc rgb 'black' {} title {}", source,
                                    rows(row, s.x.size()), bars && !line ? ":4:5" : "",
                                    line ? "lines" : (bars ? "yerrorbars" : "points"),
                                    line ? "dt 2 lw 1.5" : "pt 5 ps 1.2", gnuplot_string(s.label)));
    }
    row += s.x.size();
  }
  std::string axes;
  if (!figure.x_categories.empty()) {
    std::string tics;
    for (std::size_t i = 0; i < figure.x_categories.size(); ++i)
      tics += fmt::format("{}{} {}", i > 0 ? ", " : "", gnuplot_string(figure.x_categories[i]), i);
    axes += fmt::format("set xtics ({})\nset xrange [-0.5:{}]\n", tics, figure.x_categories.size() - 0.5);
  }
  if (figure.log_x) axes += "set logscale x 2\n";
  std::string plot = "plot ";
  for (std::size_t i = 0; i < clauses.size(); ++i) plot += (i > 0 ? ", \\\n     " : "") + clauses[i];
  // The legend sits below the plot, one entry a line: the figure grows with it instead of the curves
  // shrinking under it. The offsets keep the end points' bars and marks off the border.
  // It is as wide as its longest line (about 8 pixels a character), so that no entry is cut.
  std::size_t longest = figure.title.size();
  for (const FigureSeries& s : figure.series) longest = std::max(longest, s.label.size() + 24);
  const std::size_t height = 560 + 18 * clauses.size(),
                    width = std::clamp<std::size_t>(100 + 8 * longest, 900, 2000);
  return fmt::format(
      "# Draws {svg} and {png} from {csv}: run `gnuplot {gp}` in this directory.\n"
      "set datafile separator comma\n"
      "set terminal svg size {w},{h} dynamic noenhanced\nset output '{svg}'\n"
      "set title {title}\nset xlabel {x}\nset ylabel {y}\n"
      "set key outside below left Left reverse maxcols 1\nset grid\n"
      "set offsets graph 0.03, graph 0.03, graph 0.05, 0\n{axes}{plot}\n"
      "set terminal pngcairo size {w},{h} noenhanced\nset output '{png}'\nreplot\nunset output\n",
      fmt::arg("svg", svg), fmt::arg("png", png), fmt::arg("csv", csv), fmt::arg("gp", gp),
      fmt::arg("w", width), fmt::arg("h", height), fmt::arg("title", gnuplot_string(figure.title)),
      fmt::arg("x", gnuplot_string(figure.x_label)), fmt::arg("y", gnuplot_string(figure.y_label)),
      fmt::arg("axes", axes), fmt::arg("plot", plot));
}

PlotOutcome draw_figure(const std::filesystem::path& out_stem, const Figure& figure) {
  const std::string stem = out_stem.filename().string();
  return render(out_stem, stem + ".csv", figure_csv(figure), figure_script(figure, stem));
}

}  // namespace mppnet::io
