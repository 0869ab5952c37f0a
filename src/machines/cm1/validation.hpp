// machines/cm1/validation.hpp: the claims of the CM-1 router paper (Kahle, Kuszmaul, Hillis 1989) as
// validation cases, each with its kind of evidence and the origin of its tolerance.
#pragma once

#include <vector>

#include "core/validation_case.hpp"
#include "machines/cm1/params.hpp"

namespace mppnet::machines::cm1 {

// Every registered case; docs/cm1.md tabulates them with the values measured.
std::vector<core::ValidationCase> cm1_validation_cases();

// Mean petit cycles of `c` over seeds 1..seeds (used by the cases and by sweeps of Fig. 12).
double mean_petit_cycles(Cm1Config c, int seeds);

}  // namespace mppnet::machines::cm1
