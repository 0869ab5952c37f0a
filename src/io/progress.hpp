// io/progress.hpp: a one-line progress bar on stderr, only when stderr is a terminal and not under CI, and
// a note, wherever stderr goes, when the work measured so far says the whole will take more than an hour.
#pragma once

#include <chrono>
#include <string>

namespace mppnet::io {

// The note for work of which `done` of `total` units took `elapsed_seconds`: "mppnet: note: at the rate
// of the first 3 s, these 4000 yield trials take about 2.1 hours in all", or "" while fewer than two
// seconds have passed (too little to measure a rate) or the whole takes less than an hour.
std::string long_run_note(double elapsed_seconds, long long done, long long total, const std::string& label);

class ProgressBar {
 public:
  // `note_long_runs`: the work is counted in units of like cost (Monte Carlo trials), so that the rate so
  // far predicts the rest, and the long-run note is printed (once, when it first applies).
  explicit ProgressBar(bool note_long_runs = false);
  ~ProgressBar() { finish(); }
  // Redraws at most ten times a second.
  void update(long long done, long long total, const std::string& label);
  void finish();  // clears the line

 private:
  bool enabled_;
  bool drawn_ = false;
  bool noted_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace mppnet::io
