// io/progress.cpp: drawing the bar.
#include "io/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace mppnet::io {

ProgressBar::ProgressBar() : enabled_(::isatty(2) == 1 && std::getenv("CI") == nullptr) {}

void ProgressBar::update(long long done, long long total, const std::string& label) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
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
