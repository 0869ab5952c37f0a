// exp/validation.cpp: the registry of cases: the generic network's own, then every registered machine's.
#include "exp/validation.hpp"

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"
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

ValidationOutcome run_case(const ValidationCase& c, bool fast) {
  if (c.seeds == 0) {
    const double measured = c.measure();
    return {&c, measured, c.tolerance.accepts(c.expected, measured)};
  }
  const int seeds = fast ? std::min(c.seeds, kFastSeeds) : c.seeds;
  core::RunningStats over_seeds;
  for (int s = 1; s <= seeds; ++s) over_seeds.add(c.measure_at(static_cast<std::uint64_t>(s)));
  const double mean = over_seeds.mean();
  const double interval =
      seeds < 2 ? 0 : core::student_t_975(seeds - 1) * over_seeds.stddev() / std::sqrt(seeds);
  return {&c, mean, c.tolerance.accepts(c.expected, mean), interval, seeds};
}

}  // namespace mppnet::exp
