// core/stats_test.cpp: every statistic checked against an answer computed by hand (STYLE.md, trap 9).
#include "core/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace mppnet::core {
namespace {

// ---- RunningStats ------------------------------------------------------------------------------

TEST(RunningStats, TextbookSeriesMeanAndSampleVariance) {
  // {2,4,4,4,5,5,7,9}: sum 40, mean 5; deviations -3,-1,-1,-1,0,0,2,4 square to 32, so the
  // sample variance is 32 / (8 - 1) = 32/7 (the population variance would be 4).
  RunningStats s;
  for (double x : {2, 4, 4, 4, 5, 5, 7, 9}) s.add(x);
  EXPECT_EQ(s.count(), 8u);
  EXPECT_DOUBLE_EQ(s.sum(), 40.0);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_DOUBLE_EQ(s.variance(), 32.0 / 7.0);
  EXPECT_DOUBLE_EQ(s.stddev(), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(s.min(), 2.0);
  EXPECT_DOUBLE_EQ(s.max(), 9.0);
}

TEST(RunningStats, AllNegativeSeriesHasNegativeMax) {
  // SST's accumulator started max at numeric_limits<double>::min() (> 0) and reported it here.
  // {-3,-1,-2}: max -1, min -3, mean -2, deviations -1,1,0 -> variance 2/2 = 1.
  RunningStats s;
  for (double x : {-3.0, -1.0, -2.0}) s.add(x);
  EXPECT_DOUBLE_EQ(s.max(), -1.0);
  EXPECT_DOUBLE_EQ(s.min(), -3.0);
  EXPECT_DOUBLE_EQ(s.mean(), -2.0);
  EXPECT_DOUBLE_EQ(s.variance(), 1.0);
}

TEST(RunningStats, AllPositiveSeriesHasPositiveMin) {
  RunningStats s;
  for (double x : {7.0, 3.0, 5.0}) s.add(x);
  EXPECT_DOUBLE_EQ(s.min(), 3.0);
  EXPECT_DOUBLE_EQ(s.max(), 7.0);
}

TEST(RunningStats, EmptyAndSingleValue) {
  RunningStats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_TRUE(std::isnan(s.mean()));
  EXPECT_TRUE(std::isnan(s.min()));
  EXPECT_TRUE(std::isnan(s.max()));
  EXPECT_EQ(s.variance(), 0.0);
  s.add(-4.5);
  EXPECT_DOUBLE_EQ(s.mean(), -4.5);
  EXPECT_DOUBLE_EQ(s.min(), -4.5);
  EXPECT_DOUBLE_EQ(s.max(), -4.5);
  EXPECT_EQ(s.variance(), 0.0);  // n < 2: no sample variance
}

TEST(RunningStats, LargeOffsetDoesNotCancel) {
  // 1e9 + {4,7,13,16}: mean 1e9+10, deviations -6,-3,3,6 square to 90, variance 90/3 = 30.
  // A sum-of-squares formula loses this entirely (the squares are ~1e18, beyond 2^53).
  RunningStats s;
  for (double x : {4.0, 7.0, 13.0, 16.0}) s.add(1e9 + x);
  EXPECT_DOUBLE_EQ(s.mean(), 1e9 + 10.0);
  EXPECT_NEAR(s.variance(), 30.0, 1e-6);
}

TEST(RunningStats, MergeEqualsAddingAll) {
  // {2,4,4} + {4,5,5,7,9} is the textbook series split in two: mean 5, variance 32/7.
  RunningStats a, b, all;
  for (double x : {2, 4, 4}) a.add(x);
  for (double x : {4, 5, 5, 7, 9}) b.add(x);
  for (double x : {2, 4, 4, 4, 5, 5, 7, 9}) all.add(x);
  RunningStats merged = a;
  merged.merge(b);
  EXPECT_EQ(merged.count(), 8u);
  EXPECT_DOUBLE_EQ(merged.mean(), 5.0);
  EXPECT_DOUBLE_EQ(merged.variance(), 32.0 / 7.0);
  EXPECT_DOUBLE_EQ(merged.sum(), all.sum());
  EXPECT_DOUBLE_EQ(merged.min(), 2.0);
  EXPECT_DOUBLE_EQ(merged.max(), 9.0);
}

TEST(RunningStats, MergeWithEmptyEitherSide) {
  RunningStats a, empty;
  for (double x : {-1.0, -5.0}) a.add(x);
  RunningStats left = empty;
  left.merge(a);  // empty <- a: takes a's min and max, not zeros
  EXPECT_DOUBLE_EQ(left.max(), -1.0);
  EXPECT_DOUBLE_EQ(left.min(), -5.0);
  EXPECT_DOUBLE_EQ(left.variance(), 8.0);  // deviations +-2 -> 8 / 1
  a.merge(empty);
  EXPECT_EQ(a.count(), 2u);
  EXPECT_DOUBLE_EQ(a.mean(), -3.0);
}

// ---- Histogram ---------------------------------------------------------------------------------

TEST(Histogram, NearestRankOnOneToFour) {
  // n = 4: q = 0.5 asks for rank ceil(2) = 2 -> value 2; q = 0.26 asks for ceil(1.04) = 2 -> 2.
  Histogram h;
  for (int v : {3, 1, 4, 2}) h.add(v);
  EXPECT_EQ(h.percentile(0.25), 1);
  EXPECT_EQ(h.percentile(0.26), 2);
  EXPECT_EQ(h.percentile(0.5), 2);
  EXPECT_EQ(h.percentile(0.75), 3);
  EXPECT_EQ(h.percentile(1.0), 4);
  EXPECT_DOUBLE_EQ(h.mean(), 2.5);
  EXPECT_EQ(h.min(), 1);
  EXPECT_EQ(h.max(), 4);
}

TEST(Histogram, NearestRankOnOneToFive) {
  // n = 5: q = 0.5 -> rank ceil(2.5) = 3 -> 3; q = 0.99 -> rank ceil(4.95) = 5 -> 5; q = 0.2 -> rank 1.
  Histogram h;
  for (int v = 1; v <= 5; ++v) h.add(v);
  EXPECT_EQ(h.percentile(0.5), 3);
  EXPECT_EQ(h.percentile(0.99), 5);
  EXPECT_EQ(h.percentile(0.2), 1);
  EXPECT_EQ(h.percentile(0.21), 2);
}

TEST(Histogram, RankThatIsAnIntegerUpToRoundingIsNotBumped) {
  // Values 0..99, q = 0.07: 0.07 * 100 is 7.000000000000001 in doubles, but the rank is 7 -> value 6.
  Histogram h;
  for (int v = 0; v < 100; ++v) h.add(v);
  EXPECT_EQ(h.percentile(0.07), 6);
  EXPECT_EQ(h.percentile(0.29), 28);   // 0.29 * 100 = 28.999999999999996 -> rank 29 -> value 28
  EXPECT_EQ(h.percentile(0.995), 99);  // rank ceil(99.5) = 100
}

TEST(Histogram, WeightedCounts) {
  // 10 x3 and 20 x1: n = 4, median rank 2 -> 10, p100 -> 20, mean (30 + 20) / 4 = 12.5.
  Histogram h;
  h.add(10, 3);
  h.add(20);
  h.add(15, 0);  // a zero count adds nothing
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.percentile(0.5), 10);
  EXPECT_EQ(h.percentile(0.75), 10);
  EXPECT_EQ(h.percentile(0.76), 20);
  EXPECT_DOUBLE_EQ(h.mean(), 12.5);
  EXPECT_EQ(h.count_of(10), 3u);
  EXPECT_EQ(h.count_of(15), 0u);
  EXPECT_EQ(h.min(), 10);
}

TEST(Histogram, OverflowValuesBeyondDenseLimit) {
  // Sorted: {5, 2^21, 2^21, 2^30}; 2^21 and 2^30 exceed the dense limit 2^20 and arrive out of order.
  // Mean (5 + 2 * 2097152 + 1073741824) / 4 = 1077936133 / 4 = 269484033.25.
  constexpr std::int64_t kA = std::int64_t{1} << 21;
  constexpr std::int64_t kB = std::int64_t{1} << 30;
  Histogram h;
  h.add(kB);
  h.add(kA);
  h.add(5);
  h.add(kA);
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.percentile(0.25), 5);
  EXPECT_EQ(h.percentile(0.5), kA);
  EXPECT_EQ(h.percentile(0.75), kA);
  EXPECT_EQ(h.percentile(1.0), kB);
  EXPECT_EQ(h.min(), 5);
  EXPECT_EQ(h.max(), kB);
  EXPECT_EQ(h.count_of(kA), 2u);
  EXPECT_DOUBLE_EQ(h.mean(), 269484033.25);
}

TEST(Histogram, DenseLimitBoundary) {
  // 2^20 - 1 is the last dense value, 2^20 the first overflow one.
  Histogram h;
  h.add(Histogram::kDenseLimit);
  h.add(Histogram::kDenseLimit - 1);
  EXPECT_EQ(h.percentile(0.5), Histogram::kDenseLimit - 1);
  EXPECT_EQ(h.percentile(1.0), Histogram::kDenseLimit);
}

TEST(Histogram, HugeCountsStayExact) {
  // 10^12 samples of 7 and one of 8: p99 is 7, p100 is 8; mean = 7 + 1 / (10^12 + 1).
  Histogram h;
  h.add(7, 1'000'000'000'000ULL);
  h.add(8);
  EXPECT_EQ(h.percentile(0.99), 7);
  EXPECT_EQ(h.percentile(1.0), 8);
  EXPECT_NEAR(h.mean(), 7.0, 1e-9);
}

std::vector<std::pair<std::int64_t, std::uint64_t>> bins(const Histogram& h) {
  std::vector<std::pair<std::int64_t, std::uint64_t>> out;
  h.for_each_bin([&](std::int64_t v, std::uint64_t c) { out.emplace_back(v, c); });
  return out;
}

TEST(Histogram, ForEachBinIsInValueOrder) {
  Histogram h;
  h.add(3'000'000);
  h.add(4);
  h.add(2'000'000, 2);
  h.add(4);
  h.add(0);
  using Bins = std::vector<std::pair<std::int64_t, std::uint64_t>>;
  EXPECT_EQ(bins(h), (Bins{{0, 1}, {4, 2}, {2'000'000, 2}, {3'000'000, 1}}));
}

TEST(Histogram, MergeEqualsAddingAll) {
  const std::vector<std::int64_t> a_values = {1, 9, 9, 2'000'000, 40};
  const std::vector<std::int64_t> b_values = {3, 2'000'000, 5'000'000, 1'000, 9};
  Histogram a, b, all;
  for (auto v : a_values) a.add(v), all.add(v);
  for (auto v : b_values) b.add(v), all.add(v);
  a.merge(b);
  EXPECT_EQ(bins(a), bins(all));
  EXPECT_EQ(a.count(), 10u);
  EXPECT_EQ(a.min(), 1);
  EXPECT_EQ(a.max(), 5'000'000);
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
  // Sorted: 1 3 9 9 9 40 1000 2e6 2e6 5e6; the median rank 5 is 9, rank 8 (q = 0.8) is 2e6.
  EXPECT_EQ(a.percentile(0.5), 9);
  EXPECT_EQ(a.percentile(0.8), 2'000'000);
  Histogram empty;
  empty.merge(a);
  EXPECT_EQ(empty.min(), 1);
  EXPECT_EQ(bins(empty), bins(all));
}

TEST(Histogram, EmptyMeanIsNaN) {
  Histogram h;
  EXPECT_TRUE(h.empty());
  EXPECT_TRUE(std::isnan(h.mean()));
}

// ---- Student t ---------------------------------------------------------------------------------

TEST(StudentT, TableValuesMatchPublishedQuantiles) {
  // Published two-sided 95% multipliers (any statistics text, e.g. NIST e-Handbook table 1.3.6.7.2).
  EXPECT_NEAR(student_t_975(1), 12.706, 5e-4);
  EXPECT_NEAR(student_t_975(2), 4.303, 5e-4);
  EXPECT_NEAR(student_t_975(4), 2.776, 5e-4);
  EXPECT_NEAR(student_t_975(10), 2.228, 5e-4);
  EXPECT_NEAR(student_t_975(30), 2.042, 5e-4);
}

TEST(StudentT, ExpansionAboveTheTable) {
  // Published: t(40) = 2.021, t(60) = 2.000, t(120) = 1.980, t(inf) = z(0.975) = 1.960.
  EXPECT_NEAR(student_t_975(40), 2.021, 5e-4);
  EXPECT_NEAR(student_t_975(60), 2.000, 5e-4);
  EXPECT_NEAR(student_t_975(120), 1.980, 5e-4);
  EXPECT_NEAR(student_t_975(1'000'000), 1.960, 5e-4);
  // The seam between table and expansion is monotone: t(30) > t(31) > t(32).
  EXPECT_GT(student_t_975(30), student_t_975(31));
  EXPECT_GT(student_t_975(31), student_t_975(32));
}

// ---- BatchMeans --------------------------------------------------------------------------------

TEST(BatchMeans, HalfWidthOfOneToFive) {
  // Batches {1..5}: mean 3, s^2 = (4+1+0+1+4)/4 = 2.5, hw = t(4) * sqrt(2.5) / sqrt(5)
  // = 2.7764 * sqrt(0.5) = 1.9632; relative 1.9632 / 3 = 0.6544.
  BatchMeans b;
  for (double x : {1, 2, 3, 4, 5}) b.add_batch(x);
  EXPECT_EQ(b.batches(), 5u);
  EXPECT_DOUBLE_EQ(b.mean(), 3.0);
  EXPECT_NEAR(b.half_width_95(), 1.963, 5e-4);
  EXPECT_NEAR(b.relative_half_width(), 1.963 / 3.0, 5e-4);
  // Lag 1: deviations -2,-1,0,1,2; products 2+0+0+2 = 4 over squares 10 -> 0.4.
  EXPECT_DOUBLE_EQ(b.lag1_autocorrelation(), 0.4);
}

TEST(BatchMeans, AlternatingBatchesAreNegativelyCorrelated) {
  // {1,3,1,3}: mean 2, deviations -1,1,-1,1; lag products -1-1-1 = -3 over 4 -> -0.75.
  // s^2 = 4/3, hw = t(3) * sqrt(4/3) / 2 = 3.1824 * 1.1547 / 2 = 1.8374.
  BatchMeans b;
  for (double x : {1, 3, 1, 3}) b.add_batch(x);
  EXPECT_DOUBLE_EQ(b.lag1_autocorrelation(), -0.75);
  EXPECT_NEAR(b.half_width_95(), 1.8374, 5e-4);
}

TEST(BatchMeans, DegenerateCases) {
  BatchMeans b;
  EXPECT_TRUE(std::isinf(b.half_width_95()));
  EXPECT_TRUE(std::isinf(b.relative_half_width()));
  b.add_batch(4.0);  // one batch: no spread estimate
  EXPECT_TRUE(std::isinf(b.half_width_95()));
  EXPECT_TRUE(std::isinf(b.relative_half_width()));
  EXPECT_EQ(b.lag1_autocorrelation(), 0.0);
  b.add_batch(4.0);
  b.add_batch(4.0);  // all equal: zero width, autocorrelation undefined -> 0
  EXPECT_EQ(b.half_width_95(), 0.0);
  EXPECT_EQ(b.relative_half_width(), 0.0);
  EXPECT_EQ(b.lag1_autocorrelation(), 0.0);
}

TEST(BatchMeans, ZeroMeanHasInfiniteRelativeWidth) {
  // {-1, 1}: mean 0, s = sqrt(2), hw = t(1) * sqrt(2) / sqrt(2) = 12.7062.
  BatchMeans b;
  b.add_batch(-1.0);
  b.add_batch(1.0);
  EXPECT_NEAR(b.half_width_95(), 12.706, 5e-4);
  EXPECT_TRUE(std::isinf(b.relative_half_width()));
}

}  // namespace
}  // namespace mppnet::core
