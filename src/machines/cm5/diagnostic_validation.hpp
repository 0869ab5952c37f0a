// machines/cm5/diagnostic_validation.hpp: the diagnostic network's claims (note 000 §6, V27-V30) as
// validation cases.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::cm5 {

// cm5.v27.address_decode, cm5.v28.union, cm5.v29.group_tests, cm5.v30.level_select_growth.
std::vector<core::ValidationCase> diagnostic_validation_cases();

}  // namespace mppnet::machines::cm5
