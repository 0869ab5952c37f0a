// io/progress.hpp: a one-line progress bar on stderr, only when stderr is a terminal and not under CI.
#pragma once

#include <chrono>
#include <string>

namespace mppnet::io {

class ProgressBar {
 public:
  ProgressBar();
  ~ProgressBar() { finish(); }
  // Redraws at most ten times a second.
  void update(long long done, long long total, const std::string& label);
  void finish();  // clears the line

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace mppnet::io
