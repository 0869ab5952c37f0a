// core/stats.hpp: running moments, exact latency histograms, and batch-means confidence intervals.
//
// Every statistic here has a unit test with a hand-computed answer (STYLE.md, trap 9): SST's accumulator
// started its max at numeric_limits<double>::min() and returned n^2 times the variance, and nothing caught
// it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace mppnet::core {

// Mean, sample variance, min, max and sum of a stream of doubles, in O(1) memory.
// Welford's update (Welford 1962; Knuth TAOCP vol. 2, 4.2.2) avoids the cancellation of sum-of-squares
// formulas; merge() uses the pairwise combination of Chan, Golub and LeVeque (1979), so per-thread or
// per-component accumulators can be combined into the same answer as one accumulator fed every value.
class RunningStats {
 public:
  void add(double x);
  void merge(const RunningStats& other);

  std::uint64_t count() const { return n_; }
  double sum() const { return sum_; }
  double mean() const;      // NaN when count() == 0
  double variance() const;  // sample variance (n - 1 denominator); 0 when count() < 2
  double stddev() const;    // sqrt(variance())
  double min() const;       // NaN when count() == 0; the first value seeds it, so all-negative series work
  double max() const;       // NaN when count() == 0

 private:
  std::uint64_t n_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;  // sum of squared deviations from the running mean
  double sum_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
};

// The exact distribution of non-negative integer values (latencies in cycles). Values below kDenseLimit
// are counted in a vector indexed by value that grows by doubling; larger values go to an overflow list
// of (value, count) that is sorted and coalesced when a query needs order. Nothing is binned, so every
// percentile is exact.
class Histogram {
 public:
  static constexpr std::int64_t kDenseLimit = std::int64_t{1} << 20;

  // REQUIRES: v >= 0.
  void add(std::int64_t v, std::uint64_t count = 1);
  void merge(const Histogram& other);

  std::uint64_t count() const { return n_; }
  bool empty() const { return n_ == 0; }
  double mean() const;       // NaN when empty
  std::int64_t min() const;  // REQUIRES: !empty()
  std::int64_t max() const;  // REQUIRES: !empty()
  std::uint64_t count_of(std::int64_t v) const;

  // Nearest-rank percentile: the smallest value v such that at least ceil(q * count()) samples are <= v.
  // percentile(0.5) of {1, 2, 3, 4} is 2; percentile(1.0) is max(). q * count() within 1e-9 (relative) of
  // an integer is taken as that integer, so that q = 0.7 with 10 samples asks for rank 7, not 8.
  // REQUIRES: !empty() and 0 < q <= 1.
  // Queries sort the overflow list in place (hence the mutable members): do not query one Histogram from
  // two threads at once.
  std::int64_t percentile(double q) const;

  // Calls f(value, count) for every value with a non-zero count, in increasing value order.
  template <class F>
  void for_each_bin(F&& f) const {
    for (std::size_t v = 0; v < dense_.size(); ++v) {
      if (dense_[v] != 0) f(static_cast<std::int64_t>(v), dense_[v]);
    }
    normalize_overflow();
    for (const auto& [v, c] : overflow_) f(v, c);
  }

 private:
  void normalize_overflow() const;

  std::vector<std::uint64_t> dense_;
  mutable std::vector<std::pair<std::int64_t, std::uint64_t>> overflow_;
  mutable bool overflow_sorted_ = true;
  std::uint64_t n_ = 0;
  long double sum_ = 0.0L;  // 64-bit mantissa on x86-64: exact for totals below 2^64
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
};

// The 0.975 quantile of Student's t distribution with df degrees of freedom: the multiplier of a two-sided
// 95% confidence interval. df 1..30 come from a table (exact to 3 decimals); above 30 the Cornish-Fisher
// expansion about the normal quantile (Abramowitz and Stegun 26.7.5, four terms) is within 3e-8.
// REQUIRES: df >= 1.
double student_t_975(int df);

// The batch-means method (Law and Kelton, "Simulation Modeling and Analysis", sec. 9.5.3): one long run is
// cut into b batches, and the batch means are treated as roughly independent samples of the run mean.
// lag1_autocorrelation() lets the caller see whether the batches are long enough for that to hold
// (a value near 0; a clearly positive one means batches should be longer).
class BatchMeans {
 public:
  void add_batch(double batch_mean);

  std::uint64_t batches() const { return stats_.count(); }
  double mean() const { return stats_.mean(); }  // NaN when batches() == 0
  // t_{0.975, b-1} * s / sqrt(b), with s the sample standard deviation of the batch means;
  // +inf when batches() < 2.
  double half_width_95() const;
  // half_width_95() / |mean()|; +inf when batches() < 2 or mean() == 0.
  double relative_half_width() const;
  // sum_{i<b} (x_i - m)(x_{i+1} - m) / sum_i (x_i - m)^2; 0 when batches() < 2 or all batches are equal.
  double lag1_autocorrelation() const;
  const std::vector<double>& batch_means() const { return means_; }

 private:
  RunningStats stats_;
  std::vector<double> means_;
};

}  // namespace mppnet::core
