// core/stats.cpp: running moments, exact histograms, Student-t quantiles and batch means.
#include "core/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace mppnet::core {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// ---- RunningStats ------------------------------------------------------------------------------

void RunningStats::add(double x) {
  ++n_;
  if (n_ == 1) {
    min_ = max_ = x;
  } else {
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
  }
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
  sum_ += x;
}

void RunningStats::merge(const RunningStats& other) {
  if (other.n_ == 0) return;
  if (n_ == 0) {
    *this = other;
    return;
  }
  const double na = static_cast<double>(n_);
  const double nb = static_cast<double>(other.n_);
  const double n = na + nb;
  const double delta = other.mean_ - mean_;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  n_ += other.n_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

double RunningStats::mean() const {
  return n_ == 0 ? kNaN : mean_;
}

double RunningStats::variance() const {
  return n_ < 2 ? 0.0 : m2_ / static_cast<double>(n_ - 1);
}

double RunningStats::stddev() const {
  return std::sqrt(variance());
}

double RunningStats::min() const {
  return n_ == 0 ? kNaN : min_;
}

double RunningStats::max() const {
  return n_ == 0 ? kNaN : max_;
}

// ---- Histogram ---------------------------------------------------------------------------------

void Histogram::add(std::int64_t v, std::uint64_t count) {
  MPPNET_ASSERT(v >= 0, "Histogram holds non-negative values only");
  if (count == 0) return;
  if (v < kDenseLimit) {
    const auto i = static_cast<std::size_t>(v);
    if (i >= dense_.size()) {
      // Doubling keeps growth amortised O(1); the cap keeps one stray large value from costing 8 MiB.
      const std::size_t grown = std::max<std::size_t>(i + 1, 2 * dense_.size());
      dense_.resize(std::min<std::size_t>(grown, static_cast<std::size_t>(kDenseLimit)), 0);
    }
    dense_[i] += count;
  } else {
    if (!overflow_.empty() && v < overflow_.back().first) overflow_sorted_ = false;
    if (!overflow_.empty() && v == overflow_.back().first) {
      overflow_.back().second += count;
    } else {
      overflow_.emplace_back(v, count);
    }
  }
  if (n_ == 0) {
    min_ = max_ = v;
  } else {
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  n_ += count;
  sum_ += static_cast<long double>(v) * static_cast<long double>(count);
}

void Histogram::merge(const Histogram& other) {
  if (other.n_ == 0) return;
  if (other.dense_.size() > dense_.size()) dense_.resize(other.dense_.size(), 0);
  for (std::size_t v = 0; v < other.dense_.size(); ++v) dense_[v] += other.dense_[v];
  if (!other.overflow_.empty()) {
    overflow_.insert(overflow_.end(), other.overflow_.begin(), other.overflow_.end());
    overflow_sorted_ = false;
  }
  if (n_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
  n_ += other.n_;
  sum_ += other.sum_;
}

void Histogram::normalize_overflow() const {
  if (overflow_sorted_) return;
  std::sort(overflow_.begin(), overflow_.end());
  // Coalesce equal values so the list stays as short as the number of distinct large values.
  std::size_t out = 0;
  for (std::size_t i = 0; i < overflow_.size(); ++i) {
    if (out > 0 && overflow_[out - 1].first == overflow_[i].first) {
      overflow_[out - 1].second += overflow_[i].second;
    } else {
      overflow_[out++] = overflow_[i];
    }
  }
  overflow_.resize(out);
  overflow_sorted_ = true;
}

double Histogram::mean() const {
  if (n_ == 0) return kNaN;
  return static_cast<double>(sum_ / static_cast<long double>(n_));
}

std::int64_t Histogram::min() const {
  MPPNET_ASSERT(n_ > 0, "min() of an empty Histogram");
  return min_;
}

std::int64_t Histogram::max() const {
  MPPNET_ASSERT(n_ > 0, "max() of an empty Histogram");
  return max_;
}

std::uint64_t Histogram::count_of(std::int64_t v) const {
  if (v < 0) return 0;
  if (v < kDenseLimit) {
    const auto i = static_cast<std::size_t>(v);
    return i < dense_.size() ? dense_[i] : 0;
  }
  normalize_overflow();
  const auto it =
      std::lower_bound(overflow_.begin(), overflow_.end(), std::pair<std::int64_t, std::uint64_t>{v, 0});
  return it != overflow_.end() && it->first == v ? it->second : 0;
}

std::int64_t Histogram::percentile(double q) const {
  MPPNET_ASSERT(n_ > 0, "percentile() of an empty Histogram");
  MPPNET_ASSERT(q > 0.0 && q <= 1.0, "percentile q must be in (0, 1]");
  const double r = q * static_cast<double>(n_);
  const double nearest = std::round(r);
  double rank_d = std::abs(r - nearest) <= 1e-9 * std::max(1.0, r) ? nearest : std::ceil(r);
  rank_d = std::clamp(rank_d, 1.0, static_cast<double>(n_));
  const auto rank = static_cast<std::uint64_t>(rank_d);

  std::uint64_t seen = 0;
  for (std::size_t v = 0; v < dense_.size(); ++v) {
    seen += dense_[v];
    if (seen >= rank) return static_cast<std::int64_t>(v);
  }
  normalize_overflow();
  for (const auto& [v, c] : overflow_) {
    seen += c;
    if (seen >= rank) return v;
  }
  return max_;  // unreachable: rank <= n_
}

// ---- Student t ---------------------------------------------------------------------------------

double student_t_975(int df) {
  MPPNET_ASSERT(df >= 1, "Student t quantile needs at least 1 degree of freedom");
  // t_{0.975, df} for df = 1..30 (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2), to 4 decimals.
  static constexpr std::array<double, 30> kTable = {
      12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
      2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
      2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (df <= 30) return kTable[static_cast<std::size_t>(df - 1)];
  // Cornish-Fisher expansion of the t quantile about the normal quantile z (Abramowitz and Stegun 26.7.5).
  constexpr double z = 1.959963984540054;  // Phi^{-1}(0.975)
  const double z2 = z * z;
  const double z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
  const double g1 = (z3 + z) / 4.0;
  const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96.0;
  const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384.0;
  const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160.0;
  const double v = static_cast<double>(df);
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

// ---- BatchMeans --------------------------------------------------------------------------------

void BatchMeans::add_batch(double batch_mean) {
  stats_.add(batch_mean);
  means_.push_back(batch_mean);
}

double BatchMeans::half_width_95() const {
  const std::uint64_t b = stats_.count();
  if (b < 2) return kInf;
  return student_t_975(static_cast<int>(std::min<std::uint64_t>(b - 1, std::numeric_limits<int>::max()))) *
         stats_.stddev() / std::sqrt(static_cast<double>(b));
}

double BatchMeans::relative_half_width() const {
  if (stats_.count() < 2 || stats_.mean() == 0.0) return kInf;
  return half_width_95() / std::abs(stats_.mean());
}

double BatchMeans::lag1_autocorrelation() const {
  if (means_.size() < 2) return 0.0;
  const double m = stats_.mean();
  double num = 0.0;
  double den = 0.0;
  for (std::size_t i = 0; i < means_.size(); ++i) {
    const double d = means_[i] - m;
    den += d * d;
    if (i + 1 < means_.size()) num += d * (means_[i + 1] - m);
  }
  return den == 0.0 ? 0.0 : num / den;
}

}  // namespace mppnet::core
