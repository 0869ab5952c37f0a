// app/validation_registry_test.cpp: every registered validation case says what kind of evidence it is
// and where its tolerance comes from, so that the summary `mppnet validate` prints cannot overstate; and a
// documented difference is a pinned expectation that a moved model fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "exp/validation.hpp"

namespace mppnet::app {
namespace {

using core::Verdict;

const core::ValidationCase& find_case(const std::string& id) {
  const auto& cases = exp::validation_cases();
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const auto& c) { return c.id == id; });
  if (it == cases.end()) throw std::invalid_argument("no case " + id);
  return *it;
}

TEST(ValidationRegistry, EveryCaseDeclaresItsKindSourceAndToleranceOrigin) {
  const auto& cases = exp::validation_cases();
  ASSERT_GT(cases.size(), 100u);
  std::set<std::string> ids;
  for (const auto& c : cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "two cases named " << c.id;
    EXPECT_NE(std::find(std::begin(core::kEvidenceKinds), std::end(core::kEvidenceKinds), c.evidence),
              std::end(core::kEvidenceKinds))
        << c.id << " is of no defined kind (" << core::evidence_name(c.evidence) << ")";
    EXPECT_FALSE(c.source.empty()) << c.id;
    EXPECT_FALSE(c.tolerance_origin.empty()) << c.id << " does not say where its tolerance comes from";
    // One way to measure: once, or over two seeds or more.
    EXPECT_NE(static_cast<bool>(c.measure), c.seeds > 0) << c.id;
    EXPECT_EQ(static_cast<bool>(c.measure_at), c.seeds > 0) << c.id;
    EXPECT_NE(c.seeds, 1) << c.id;
    // A band open on both sides accepts everything: such a case could not fail.
    EXPECT_FALSE(std::isinf(c.tolerance.below) && std::isinf(c.tolerance.above)) << c.id;
  }
}

TEST(ValidationRegistry, AMeanWhoseIntervalIsWiderThanTheToleranceFails) {
  // fidelity.app.permutation_tree4ary3 is a mean over eight seeds, tolerance ±0.1: the verdict on a mean
  // within tolerance depends on its 95% interval. Narrower than the tolerance, a pass; wider, the seeds
  // cannot tell, and it fails; --fast (interval not checked) judges the mean alone.
  const core::ValidationCase& c = find_case("fidelity.app.permutation_tree4ary3");
  ASSERT_EQ(c.seeds, 8);
  EXPECT_EQ(core::judge(c, 0.02, 0.05).verdict, Verdict::Pass);
  const core::Judgement wide = core::judge(c, 0.02, 0.15);
  EXPECT_EQ(wide.verdict, Verdict::Fail);
  EXPECT_NE(wide.problem.find("more seeds"), std::string::npos) << wide.problem;
  EXPECT_EQ(core::judge(c, 0.02, 0.15, false).verdict, Verdict::Pass);
}

// A reading chosen with the verdict in view makes agreement a matter of construction: such a case passes
// only as a calibration. The registry's own: every choice says what is open, which reading the model
// takes, and the other readings with the verdict under each.
TEST(ValidationRegistry, AChoiceMadeWithTheResultInViewMakesTheCaseACalibration) {
  core::ValidationCase c{.id = "t.choice",
                         .source = "s",
                         .setup = "setup",
                         .quantity = "quantity",
                         .expected = 2.0,
                         .tolerance = core::Tolerance::absolute(0.5),
                         .measure = [] { return 2.0; }};
  c.choices.push_back({"what", "reading", "others", true});
  c.evidence = core::Evidence::Behaviour;
  const core::Judgement behaviour = core::judge(c, 2.1);
  EXPECT_EQ(behaviour.verdict, Verdict::Fail);
  EXPECT_NE(behaviour.problem.find("calibration"), std::string::npos) << behaviour.problem;
  c.evidence = core::Evidence::Calibration;
  EXPECT_EQ(core::judge(c, 2.1).verdict, Verdict::Calibrated);
  c.choices.back().chosen_with_result_in_view = false;
  c.evidence = core::Evidence::Behaviour;
  EXPECT_EQ(core::judge(c, 2.1).verdict, Verdict::Pass);

  int with_choices = 0;
  for (const auto& r : exp::validation_cases()) {
    for (const auto& choice : r.choices) {
      EXPECT_FALSE(choice.what.empty() || choice.reading.empty() || choice.others.empty()) << r.id;
      if (choice.chosen_with_result_in_view) {
        EXPECT_EQ(r.evidence, core::Evidence::Calibration) << r.id;
      }
    }
    with_choices += !r.choices.empty();
  }
  // The known ones (docs/assumptions.md, "Choices behind verdicts"): CM-5 data and buffers, METRO endpoints,
  // the CM-1 exponent's fit window and single ejection's reading.
  EXPECT_GE(with_choices, 5);
}

TEST(ValidationRegistry, EveryPinnedBandSaysWhyAndCatchesADoubledError) {
  int pinned = 0;
  for (const auto& c : exp::validation_cases()) {
    if (!c.difference) continue;
    ++pinned;
    const core::PinnedDifference& d = *c.difference;
    EXPECT_LE(d.low, d.high) << c.id;
    EXPECT_NE(d.reason.find("docs/assumptions.md"), std::string::npos) << c.id << ": the reason's page";
    EXPECT_FALSE(d.margin.empty()) << c.id << " does not say why its band is as wide as it is";
    // The band's middle is a documented difference: outside the source's tolerance, inside the band ...
    const double middle = (d.low + d.high) / 2;
    EXPECT_EQ(core::judge(c, middle).verdict, Verdict::Differs) << c.id << " at " << middle;
    // ... and a regression that doubles its error (measured from the source's value) fails.
    const double doubled = c.expected + 2 * (middle - c.expected);
    EXPECT_EQ(core::judge(c, doubled).verdict, Verdict::Fail) << c.id << " at " << doubled;
  }
  EXPECT_GT(pinned, 0);
}

TEST(ValidationRegistry, AMeasurementMovedPastItsPinnedBandFails) {
  // cm1.e7.messages_per_bit_time_v1 (fast): the model delivers 90.5 messages per bit-time where the paper's
  // words allow 99.1 to 121.2; the difference is pinned to what 14 or 15 petit cycles give.
  const core::ValidationCase& c = find_case("cm1.e7.messages_per_bit_time_v1");
  ASSERT_TRUE(c.difference);
  const double measured = c.measure();
  EXPECT_EQ(core::judge(c, measured).verdict, Verdict::Differs) << measured;
  // The test hook: the verdict on a measurement moved by hand, past either edge of the band.
  const double width = c.difference->high - c.difference->low;
  const core::Judgement above = core::judge(c, c.difference->high + 0.1 * width);
  EXPECT_EQ(above.verdict, Verdict::Fail);
  EXPECT_NE(above.problem.find("pinned band"), std::string::npos) << above.problem;
  EXPECT_EQ(core::judge(c, c.difference->low - 0.1 * width).verdict, Verdict::Fail);
  EXPECT_EQ(core::judge(c, c.difference->low + 0.5 * width).verdict, Verdict::Differs);
  // Within the paper's tolerance the difference would be stale: that too fails, naming the cause.
  const core::Judgement stale = core::judge(c, c.expected);
  EXPECT_EQ(stale.verdict, Verdict::Fail);
  EXPECT_NE(stale.problem.find("within the source's tolerance"), std::string::npos) << stale.problem;
  EXPECT_EQ(core::judge(c, std::nan("")).verdict, Verdict::Fail);
}

TEST(ValidationRegistry, NoFastCaseCarriesADifferenceWithinTolerance) {
  // Every fast case of the registry, measured: a pass (or calibrated) without a difference, a documented
  // difference inside its pinned band with one. `mppnet validate` applies the same verdict to the slow
  // ones, and fails a case within tolerance that carries a difference.
  for (const auto& c : exp::validation_cases()) {
    if (c.slow) continue;
    const exp::ValidationOutcome o = exp::run_case(c);
    const double measured = o.measured;
    const core::Judgement j = core::judge(c, measured, o.interval);
    EXPECT_NE(j.verdict, Verdict::Fail) << c.id << ": measured " << measured << ": " << j.problem;
    EXPECT_EQ(j.verdict == Verdict::Differs, c.difference.has_value()) << c.id;
  }
}

}  // namespace
}  // namespace mppnet::app
