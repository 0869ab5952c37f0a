// workload/random_variates.hpp: geometric and discrete draws from a core::RandomStream.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace mppnet::workload {

// Number of Bernoulli(p) trials up to and including the first success:
// P(G = k) = (1-p)^(k-1) p for k >= 1, mean 1/p. Drawn by inversion in one step instead of one
// trial per cycle: G = 1 + floor(ln U / ln(1-p)) with U uniform in (0, 1], because
// P(G > k) = P(ln U <= k ln(1-p)) = P(U <= (1-p)^k) = (1-p)^k.
class Geometric {
 public:
  // Gaps saturate here (about 9e15 cycles, far beyond any run), so that a tiny p cannot overflow.
  static constexpr std::int64_t kMax = std::int64_t{1} << 53;

  // REQUIRES: p > 0. p >= 1 gives 1 every time, without a draw.
  explicit Geometric(double p) : inverse_log_failure_(p >= 1.0 ? 0.0 : 1.0 / std::log1p(-p)) {}

  std::int64_t draw(core::RandomStream& rng) const {
    if (inverse_log_failure_ == 0.0) return 1;
    const double u = 1.0 - rng.uniform01();               // in (0, 1]
    const double x = std::log(u) * inverse_log_failure_;  // >= 0: both factors are <= 0
    if (x >= static_cast<double>(kMax - 1)) return kMax;
    return 1 + static_cast<std::int64_t>(x);
  }

 private:
  double inverse_log_failure_;  // 1 / ln(1-p); 0 when p >= 1
};

// Cumulative distribution of relative weights, normalised so that the last entry is exactly 1.
// REQUIRES: every weight is finite and > 0 (drop zero weights first: see Traffic).
inline std::vector<double> cumulative_distribution(std::span<const double> weights) {
  double total = 0;
  for (double w : weights) total += w;
  std::vector<double> cdf;
  cdf.reserve(weights.size());
  double running = 0;
  for (double w : weights) {
    running += w;
    cdf.push_back(running / total);
  }
  if (!cdf.empty()) cdf.back() = 1.0;
  return cdf;
}

// Inverse CDF: the first index i with u < cdf[i], so index i is chosen with probability
// cdf[i] - cdf[i-1] when u is uniform in [0, 1). REQUIRES: cdf non-decreasing, cdf.back() == 1, 0 <= u < 1.
inline std::size_t inverse_cdf(std::span<const double> cdf, double u) {
  std::size_t lo = 0;
  std::size_t hi = cdf.size() - 1;  // cdf[hi] = 1 > u, so the answer is in [lo, hi]
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (u < cdf[mid]) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace mppnet::workload
