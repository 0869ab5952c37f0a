// exp/validation.hpp: the registry of validation cases, gathered from the generic network and each machine.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::exp {

using core::Tolerance;
using core::ValidationCase;

struct ValidationOutcome {
  const ValidationCase* c = nullptr;
  double measured = 0;  // the mean, for a case measured over seeds
  bool passed = false;
  double interval = 0;  // the half-width of the mean's 95% confidence interval (0 for one measurement)
  int seeds = 0;        // the seeds measured (0: not a random quantity)
};

// The seeds `validate --fast` takes of a random quantity's: enough for a mean, too few for a verdict
// (the interval is shown, not required).
inline constexpr int kFastSeeds = 3;

// Every registered case: the generic network's, then each machine's in registration order.
const std::vector<ValidationCase>& validation_cases();

// Measures case `c`: once, or over seeds 1..c.seeds (1..kFastSeeds when `fast`).
ValidationOutcome run_case(const ValidationCase& c, bool fast = false);

}  // namespace mppnet::exp
