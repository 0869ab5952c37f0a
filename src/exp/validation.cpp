// exp/validation.cpp: the registry, gathered from each part of mppnet that has cases.
#include "exp/validation.hpp"

#include "exp/foundation_validation.hpp"
#include "machines/cm1/validation.hpp"
#include "machines/metro/validation.hpp"

namespace mppnet::exp {

const std::vector<ValidationCase>& validation_cases() {
  static const std::vector<ValidationCase> cases = [] {
    std::vector<ValidationCase> all;
    for (auto& c : foundation_validation_cases()) all.push_back(std::move(c));
    for (auto& c : machines::cm1::cm1_validation_cases()) all.push_back(std::move(c));
    for (auto& c : machines::metro::metro_validation_cases()) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

ValidationOutcome run_case(const ValidationCase& c) {
  const double measured = c.measure();
  return {&c, measured, c.tolerance.accepts(c.expected, measured)};
}

}  // namespace mppnet::exp
