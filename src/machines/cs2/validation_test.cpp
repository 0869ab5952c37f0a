// machines/cs2/validation_test.cpp: the CS-2 cases are well formed, exact, and every fast one passes; a
// case measures a real value, so a wrong expectation fails.
#include "machines/cs2/validation.hpp"

#include <set>

#include <gtest/gtest.h>

namespace mppnet::machines::cs2 {
namespace {

TEST(Cs2Validation, IdsAreUniqueAndEveryCaseCitesASourceKindAndToleranceOrigin) {
  std::set<std::string> ids;
  for (const auto& c : cs2_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind("cs2.r", 0), 0u) << c.id;
    EXPECT_NE(c.source.find("Meiko"), std::string::npos) << c.id;
    EXPECT_NE(c.source.find("N §"), std::string::npos) << c.id << ": cites the note's section";
    EXPECT_TRUE(static_cast<bool>(c.measure)) << c.id;
    EXPECT_NE(c.evidence, core::Evidence::Unclassified) << c.id;
    EXPECT_FALSE(c.tolerance_origin.empty()) << c.id;
    // Only R10's DEST share under blocking permutations and R11's background beside a hot spot differ
    // from their source (docs/assumptions.md).
    EXPECT_TRUE(!c.difference || c.id.rfind("cs2.r10.dest_slowest_flow_", 0) == 0 ||
                c.id == "cs2.r11.background_keeps_throughput_64")
        << c.id;
  }
}

TEST(Cs2Validation, FastCasesPassAndAWrongExpectationFails) {
  for (auto c : cs2_validation_cases()) {
    if (c.slow) continue;
    const double m = c.measure();
    const core::Judgement j = core::judge(c, m);
    // A calibration is never a pass: its fit took, or it failed. A documented difference stays in its
    // pinned band, and a value outside it fails.
    const core::Verdict want = c.evidence == core::Evidence::Calibration ? core::Verdict::Calibrated
                               : c.difference                            ? core::Verdict::Differs
                                                                         : core::Verdict::Pass;
    EXPECT_EQ(j.verdict, want) << c.id << ": expected " << c.expected << " " << c.tolerance.describe()
                               << ", measured " << m << ": " << j.problem;
    if (c.difference) {
      EXPECT_EQ(core::judge(c, c.difference->high + 0.01).verdict, core::Verdict::Fail) << c.id;
      continue;
    }
    // A one-sided bound ("less than 200 ns") cannot be failed by moving its bound a little: a value just
    // past the bound must fail instead.
    if (c.tolerance.below >= c.expected && c.tolerance.above == 0) {
      EXPECT_EQ(core::judge(c, c.expected + 1).verdict, core::Verdict::Fail) << c.id << " cannot fail";
      continue;
    }
    c.expected += 1;
    EXPECT_EQ(core::judge(c, m).verdict, core::Verdict::Fail) << c.id << " cannot fail";
  }
}

}  // namespace
}  // namespace mppnet::machines::cs2
