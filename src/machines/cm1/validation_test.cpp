// machines/cm1/validation_test.cpp: every case declares its evidence and tolerance origin, every fast case
// gives the verdict it declares, and the arithmetic behind the probability cases.
#include "machines/cm1/validation.hpp"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "machines/cm1/validation_parts.hpp"

namespace mppnet::machines::cm1 {
namespace {

TEST(Cm1Validation, CasesHaveUniqueIdsSourcesEvidenceAndToleranceOrigins) {
  std::set<std::string> ids;
  for (const auto& c : cm1_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind("cm1.e", 0), 0u) << c.id;
    EXPECT_EQ(c.source.rfind("Kahle, Kuszmaul, Hillis", 0), 0u) << c.id << ": cite the publication";
    EXPECT_FALSE(c.setup.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.measure)) << c.id;
    EXPECT_NE(c.evidence, core::Evidence::Unclassified) << c.id;
    EXPECT_FALSE(c.tolerance_origin.empty()) << c.id;
    // A one-sided band must still be able to fail: something finite bounds it on one side.
    EXPECT_FALSE(std::isinf(c.tolerance.below) && std::isinf(c.tolerance.above)) << c.id;
  }
  EXPECT_GE(ids.size(), 44u);
}

// A fast case passes unless it declares a documented difference; one that does must still differ, inside
// its pinned band (if it came inside its tolerance, docs/cm1.md would be out of date).
TEST(Cm1Validation, FastCasesGiveTheirDeclaredVerdict) {
  for (const auto& c : cm1_validation_cases()) {
    if (c.slow) continue;
    const double measured = c.measure();
    const core::Judgement j = core::judge(c, measured);
    EXPECT_EQ(j.verdict, c.difference ? core::Verdict::Differs : core::Verdict::Pass)
        << c.id << ": expected " << c.expected << " (" << c.tolerance.describe() << "), measured " << measured
        << ": " << j.problem;
  }
}

TEST(Cm1Validation, DemandsCountEveryCrossingOfARandomFunction) {
  // Every message crosses each dimension its chips differ in once, so the 24 demands add up to the total
  // Hamming distance: about 6 per message at 64K (12 bits, each differing with probability 1/2 - 1/8192).
  Cm1Config c;
  std::int64_t total = 0;
  for (const auto d : detail::dimension_demands(c, 1)) total += d;
  EXPECT_NEAR(static_cast<double>(total) / 65536, 6.0, 0.05);
  EXPECT_GE(detail::pattern_load_bound(c, 1), 9);  // some demand exceeds 2^14 (paper L274)
}

TEST(Cm1Validation, PapersStirlingStepHasAFactorOfTwoTooMany) {
  // Paper L268-L272, m = 2^16: P = (1 - C(m/2, m/4) / 2^(m/2)) / 2. Stirling gives C(n, n/2) / 2^n ~
  // sqrt(2 / (pi n)) with n = m/2, i.e. 2 / sqrt(pi m); the printed 2 / sqrt(2 pi m) is smaller by sqrt 2.
  // Either way P rounds to 1/2, the paper's conclusion.
  const double m = 65536, n = m / 2;
  const double exact =
      (1 - std::exp(std::lgamma(n + 1) - 2 * std::lgamma(n / 2 + 1) - n * std::log(2.0))) / 2;
  const double pi = std::acos(-1.0);
  EXPECT_NEAR(exact, 0.497796, 1e-6);
  EXPECT_NEAR(exact, (1 - 2 / std::sqrt(pi * m)) / 2, 1e-6);
  EXPECT_NEAR((1 - 2 / std::sqrt(2 * pi * m)) / 2, 0.498442, 1e-6);
}

}  // namespace
}  // namespace mppnet::machines::cm1
