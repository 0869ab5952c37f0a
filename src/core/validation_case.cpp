// core/validation_case.cpp: tolerance checks, pinned differences, and the verdict on a measurement.
#include "core/validation_case.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace mppnet::core {

bool Tolerance::accepts(double expected, double measured) const {
  if (std::isnan(measured)) return false;
  const double scale = relative ? std::abs(expected) : 1.0;
  return measured >= expected - below * scale - 1e-12 && measured <= expected + above * scale + 1e-12;
}

double Tolerance::narrower_side(double expected) const {
  const double scale = relative ? std::abs(expected) : 1.0;
  return std::min(below, above) * scale;
}

std::string Tolerance::describe() const {
  if (below == 0 && above == 0) return "exact";
  const auto part = [&](double x) {
    return relative ? fmt::format("{:g}%", x * 100) : fmt::format("{:g}", x);
  };
  if (below == above) return "±" + part(below);
  return fmt::format("-{} / +{}", part(below), part(above));
}

bool PinnedDifference::contains(double measured) const {
  // The same allowance for floating-point rounding as Tolerance::accepts.
  return !std::isnan(measured) && measured >= low - 1e-12 && measured <= high + 1e-12;
}

std::string PinnedDifference::describe() const {
  return fmt::format("[{:.6g}, {:.6g}]", low, high);
}

PinnedDifference pinned_around(double value, double margin, std::string reason, std::string margin_origin) {
  return {value - margin, value + margin, std::move(reason), std::move(margin_origin)};
}

const char* evidence_name(Evidence e) {
  switch (e) {
    case Evidence::Behaviour:
      return "behaviour";
    case Evidence::Independent:
      return "independent";
    case Evidence::SameSource:
      return "same-source";
    case Evidence::ClosedForm:
      return "closed-form";
    case Evidence::Calibration:
      return "calibration";
    case Evidence::SelfConsistency:
      return "self-check";
    case Evidence::Unclassified:
      break;
  }
  return "unclassified";
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Differs:
      return "differs";
    case Verdict::Calibrated:
      return "calibrated";
    case Verdict::Fail:
      break;
  }
  return "FAIL";
}

ValidationCase exact_case(std::string id, std::string source, std::string setup, std::string quantity,
                          double expected, std::function<double()> measure, Evidence evidence,
                          std::string tolerance_origin, bool slow) {
  return {.id = std::move(id),
          .source = std::move(source),
          .setup = std::move(setup),
          .quantity = std::move(quantity),
          .expected = expected,
          .tolerance = Tolerance::exact(),
          .slow = slow,
          .measure = std::move(measure),
          .evidence = evidence,
          .tolerance_origin = std::move(tolerance_origin)};
}

std::string describe(const ModellingChoice& choice) {
  return fmt::format("{}: {} (other readings: {})", choice.what, choice.reading, choice.others);
}

Judgement judge(const ValidationCase& c, double measured, double interval, bool interval_checked) {
  if (std::isnan(measured)) return {Verdict::Fail, "the measurement is not a number"};
  for (const ModellingChoice& choice : c.choices)
    if (choice.chosen_with_result_in_view && c.evidence != Evidence::Calibration)
      return {Verdict::Fail, fmt::format("the reading of \"{}\" was chosen with this result in view: the "
                                         "case is a calibration, not evidence",
                                         choice.what)};
  if (interval_checked && interval > c.tolerance.narrower_side(c.expected) + 1e-12)
    return {Verdict::Fail, fmt::format("the 95% interval of the mean over seeds, ±{:.3g}, is wider than the "
                                       "tolerance: more seeds are needed to tell",
                                       interval)};
  if (c.tolerance.accepts(c.expected, measured)) {
    if (c.difference)
      return {Verdict::Fail,
              "within the source's tolerance, yet the case carries a documented difference: the "
              "difference must go (a case within tolerance never carries one)"};
    return {c.evidence == Evidence::Calibration ? Verdict::Calibrated : Verdict::Pass, ""};
  }
  if (!c.difference) return {Verdict::Fail, "outside the source's tolerance"};
  if (c.difference->contains(measured)) return {Verdict::Differs, ""};
  return {Verdict::Fail, fmt::format("outside the source's tolerance and outside the pinned band {} of its "
                                     "documented difference: the model has moved",
                                     c.difference->describe())};
}

}  // namespace mppnet::core
