// workload/random_variates_test.cpp: geometric and inverse-CDF draws.
#include "workload/random_variates.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mppnet::workload {
namespace {

TEST(Geometric, ProbabilityOneIsAlwaysOneWithoutDraws) {
  core::RandomStream rng(1, 2, core::Stream::Arrival);
  const Geometric g(1.0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(g.draw(rng), 1);
  EXPECT_EQ(rng.counter(), 0u);
  EXPECT_EQ(Geometric(1.5).draw(rng), 1);  // p >= 1 is treated as 1
}

TEST(Geometric, MeanAndPointMassesMatchTheDistribution) {
  // p = 0.1, n = 100,000 draws. Mean 1/p = 10, variance (1-p)/p^2 = 90, so the sample mean has
  // sd sqrt(90 / 1e5) = 0.030; 5 sd = 0.15. P(G = 1) = p = 0.1 with sd sqrt(0.1 * 0.9 / 1e5) = 0.00095,
  // P(G = 2) = 0.9 * 0.1 = 0.09 with sd sqrt(0.09 * 0.91 / 1e5) = 0.00091; 5 sd ~ 0.005 for both.
  core::RandomStream rng(7, 0, core::Stream::Arrival);
  const Geometric g(0.1);
  const int n = 100000;
  double sum = 0;
  int ones = 0;
  int twos = 0;
  for (int i = 0; i < n; ++i) {
    const auto x = g.draw(rng);
    ASSERT_GE(x, 1);
    sum += static_cast<double>(x);
    ones += x == 1;
    twos += x == 2;
  }
  EXPECT_NEAR(sum / n, 10.0, 0.15);
  EXPECT_NEAR(static_cast<double>(ones) / n, 0.1, 0.005);
  EXPECT_NEAR(static_cast<double>(twos) / n, 0.09, 0.005);
}

TEST(Geometric, TinyProbabilitySaturatesInsteadOfOverflowing) {
  // ln U / ln(1 - 1e-300) is up to ~3.7e301 cycles: far past int64, so the draw must clamp.
  core::RandomStream rng(3, 0, core::Stream::Arrival);
  const Geometric g(1e-300);
  for (int i = 0; i < 100; ++i) {
    const auto x = g.draw(rng);
    EXPECT_GE(x, 1);
    EXPECT_LE(x, Geometric::kMax);
  }
}

TEST(InverseCdf, CumulativeDistributionIsNormalised) {
  // Weights 1, 2, 1 of total 4: cumulative 1/4, 3/4, 4/4.
  const std::vector<double> w = {1, 2, 1};
  EXPECT_EQ(cumulative_distribution(w), (std::vector<double>{0.25, 0.75, 1.0}));
  // 0.1 + 0.2 + 0.7 does not sum to exactly 1 in binary; the last entry is forced to 1.
  const std::vector<double> w2 = {0.1, 0.2, 0.7};
  EXPECT_EQ(cumulative_distribution(w2).back(), 1.0);
}

TEST(InverseCdf, PicksTheFirstEntryAboveU) {
  const std::vector<double> cdf = {0.25, 0.75, 1.0};
  EXPECT_EQ(inverse_cdf(cdf, 0.0), 0u);
  EXPECT_EQ(inverse_cdf(cdf, 0.2499), 0u);
  EXPECT_EQ(inverse_cdf(cdf, 0.25), 1u);  // [0.25, 0.75) -> 1
  EXPECT_EQ(inverse_cdf(cdf, 0.75), 2u);
  EXPECT_EQ(inverse_cdf(cdf, 0.9999999), 2u);
  const std::vector<double> one = {1.0};
  EXPECT_EQ(inverse_cdf(one, 0.5), 0u);
}

}  // namespace
}  // namespace mppnet::workload
