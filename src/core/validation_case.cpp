// core/validation_case.cpp: tolerance checks and their descriptions.
#include "core/validation_case.hpp"

#include <cmath>

#include <fmt/format.h>

namespace mppnet::core {

bool Tolerance::accepts(double expected, double measured) const {
  if (std::isnan(measured)) return false;
  const double scale = relative ? std::abs(expected) : 1.0;
  return measured >= expected - below * scale - 1e-12 && measured <= expected + above * scale + 1e-12;
}

std::string Tolerance::describe() const {
  if (below == 0 && above == 0) return "exact";
  const auto part = [&](double x) {
    return relative ? fmt::format("{:g}%", x * 100) : fmt::format("{:g}", x);
  };
  if (below == above) return "±" + part(below);
  return fmt::format("-{} / +{}", part(below), part(above));
}

const char* evidence_name(Evidence e) {
  switch (e) {
    case Evidence::Behaviour:
      return "behaviour";
    case Evidence::Independent:
      return "independent";
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

}  // namespace mppnet::core
