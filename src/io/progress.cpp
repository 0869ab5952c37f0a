// io/progress.cpp: drawing the bar.
#include "io/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace mppnet::io {

ProgressBar::ProgressBar(bool note_long_runs)
    : enabled_(::isatty(2) == 1 && std::getenv("CI") == nullptr), noted_(!note_long_runs) {}

std::string long_run_note(double elapsed_seconds, long long done, long long total, const std::string& label) {
  if (elapsed_seconds < 2 || done <= 0 || total <= done) return "";
  const double hours = elapsed_seconds * static_cast<double>(total) / static_cast<double>(done) / 3600;
  if (hours < 1) return "";
  return fmt::format(
      "mppnet: note: at the rate of the first {:.0f} s, these {} {} take about {:.2g} hours in "
      "all\n",
      elapsed_seconds, total, label, hours);
}

void ProgressBar::update(long long done, long long total, const std::string& label) {
  const auto now = std::chrono::steady_clock::now();
  if (!noted_ && total > 0) {
    const std::string note =
        long_run_note(std::chrono::duration<double>(now - start_).count(), done, total, label);
    if (!note.empty()) {
      if (drawn_) std::fputs("\r\x1b[K", stderr);
      std::fputs(note.c_str(), stderr);
      noted_ = true;
    }
  }
  if (!enabled_ || total <= 0) return;
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * std::clamp(static_cast<double>(done) / total, 0.0, 1.0));
  std::fprintf(stderr, "\r[%.*s%*s] %s\x1b[K", filled, "##############################", kWidth - filled, "",
               label.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\x1b[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace mppnet::io
