// exp/fidelity_validation.hpp: how far the packet-level model is from the flit-level one on the same
// networks (ids "fidelity."; docs/validation.md, "Fidelity").
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::exp {

std::vector<core::ValidationCase> fidelity_validation_cases();

}  // namespace mppnet::exp
