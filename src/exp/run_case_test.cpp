// exp/run_case_test.cpp: a case measured once, and a random quantity measured over seeds.
#include <gtest/gtest.h>

#include "exp/validation.hpp"

namespace mppnet::exp {
namespace {

TEST(RunCase, AMeanOverSeedsWithItsInterval) {
  // The seeds themselves as measurements, 1..4: mean 2.5, sample sd sqrt(5/3) = 1.29099, and the 95%
  // interval t(0.975, 3) sd / sqrt(4) = 3.18245 x 1.29099 / 2 = 2.05426.
  ValidationCase c{"test.seeds", "a derivation", "none", "the seed", 2.5, Tolerance::absolute(3), false, {}};
  c.seeds = 4;
  c.measure_at = [](std::uint64_t seed) { return static_cast<double>(seed); };
  const ValidationOutcome o = run_case(c);
  EXPECT_DOUBLE_EQ(o.measured, 2.5);
  EXPECT_NEAR(o.interval, 2.05426, 1e-4);  // core::student_t_975 has t to 4 decimals
  EXPECT_EQ(o.seeds, 4);
  EXPECT_TRUE(o.passed);
  // --fast: the first kFastSeeds seeds, 1..3: mean 2, sd 1, interval 4.30265 / sqrt(3) = 2.48414.
  const ValidationOutcome fast = run_case(c, true);
  EXPECT_EQ(fast.seeds, kFastSeeds);
  EXPECT_DOUBLE_EQ(fast.measured, 2.0);
  EXPECT_NEAR(fast.interval, 2.48414, 1e-4);
}

TEST(RunCase, OneMeasurementHasNoInterval) {
  ValidationCase c{"test.once", "a derivation",     "none", "a number",
                   7,           Tolerance::exact(), false,  [] { return 7.0; }};
  const ValidationOutcome o = run_case(c);
  EXPECT_EQ(o.measured, 7);
  EXPECT_EQ(o.interval, 0);
  EXPECT_EQ(o.seeds, 0);
  EXPECT_TRUE(o.passed);
}

}  // namespace
}  // namespace mppnet::exp
