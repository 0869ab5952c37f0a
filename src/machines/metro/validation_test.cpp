// machines/metro/validation_test.cpp: the METRO cases are well formed, declare the kind of evidence they
// are, and every fast one passes or differs inside its documented difference's pinned band.
#include "machines/metro/validation.hpp"

#include <set>

#include <gtest/gtest.h>

namespace mppnet::machines::metro {
namespace {

TEST(MetroValidation, IdsAreUniqueAndEveryCaseCitesASourceKindAndToleranceOrigin) {
  std::set<std::string> ids;
  for (const auto& c : metro_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_FALSE(c.source.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.measure)) << c.id;
    EXPECT_NE(c.evidence, core::Evidence::Unclassified) << c.id;
    EXPECT_FALSE(c.tolerance_origin.empty()) << c.id;
  }
}

TEST(MetroValidation, FittedEndpointCasesAreCalibrationsAndSayWhichEndpoints) {
  // The "auto" endpoints were fitted to Table 3.4's random rows: those cases may not count as passes,
  // and every yield id names its endpoint assignment.
  int fitted = 0;
  for (const auto& c : metro_validation_cases()) {
    if (c.id.rfind("metro.r2.yield_", 0) != 0) continue;
    EXPECT_NE(c.id.find("_ep_"), std::string::npos) << c.id;
    const bool is_fit = c.id.find("_fitted") != std::string::npos;
    fitted += is_fit ? 1 : 0;
    EXPECT_EQ(is_fit, c.evidence == core::Evidence::Calibration) << c.id;
  }
  EXPECT_EQ(fitted, 4);
}

TEST(MetroValidation, FastCasesPassOrAreDocumentedDifferences) {
  // A case with a documented difference must still differ, inside its pinned band.
  for (const auto& c : metro_validation_cases()) {
    if (c.slow) continue;
    const double m = c.measure();
    const core::Judgement j = core::judge(c, m);
    EXPECT_NE(j.verdict, core::Verdict::Fail)
        << c.id << ": expected " << c.expected << " " << c.tolerance.describe() << ", measured " << m << ": "
        << j.problem;
    EXPECT_EQ(j.verdict == core::Verdict::Differs, c.difference.has_value()) << c.id;
  }
}

TEST(MetroValidation, PrototypeComparisonsAreSameSourceAndUnitTreeCountsAppearOnce) {
  // The prototype simulation (docs/metro.md §2) was written from the same notes as this model: its
  // comparisons (R1's random shortfall, R3, R5) are same-source evidence. Table 7.4's router counts by
  // role are one set of cases, on the built tree (metro.ft.ut64x*), not a second set of arithmetic.
  for (const auto& c : metro_validation_cases()) {
    const bool prototype = c.source.find("prototype") != std::string::npos;
    EXPECT_EQ(prototype, c.evidence == core::Evidence::SameSource) << c.id;
    for (const char* part : {"_up", "_final_down", "_middle_down", "_initial_down"})
      EXPECT_FALSE(c.id.rfind("metro.t10.", 0) == 0 && c.id.ends_with(part)) << c.id;
  }
}

}  // namespace
}  // namespace mppnet::machines::metro
