// exp/validation.cpp: the registry of cases: the generic network's own, then every registered machine's.
#include "exp/validation.hpp"

#include "exp/fidelity_validation.hpp"
#include "exp/foundation_validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::exp {

const std::vector<ValidationCase>& validation_cases() {
  static const std::vector<ValidationCase> cases = [] {
    std::vector<ValidationCase> all = foundation_validation_cases();
    for (auto& c : fidelity_validation_cases()) all.push_back(std::move(c));
    for (auto& c : registry::machines().validation_cases()) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

ValidationOutcome run_case(const ValidationCase& c) {
  const double measured = c.measure();
  return {&c, measured, c.tolerance.accepts(c.expected, measured)};
}

}  // namespace mppnet::exp
