// exp/validation.hpp: the registry of validation cases, gathered from the generic network and each machine.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::exp {

using core::Tolerance;
using core::ValidationCase;

struct ValidationOutcome {
  const ValidationCase* c = nullptr;
  double measured = 0;
  bool passed = false;
};

// Every registered case: the generic network's, then each machine's in registration order.
const std::vector<ValidationCase>& validation_cases();

ValidationOutcome run_case(const ValidationCase& c);

}  // namespace mppnet::exp
