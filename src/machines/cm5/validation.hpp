// machines/cm5/validation.hpp: the CM-5 data network's claims as validation cases (note 000 §6).
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::cm5 {

// Every registered case; docs/validation.md tabulates them with the values measured.
std::vector<core::ValidationCase> cm5_validation_cases();

}  // namespace mppnet::machines::cm5
