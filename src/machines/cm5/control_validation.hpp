// machines/cm5/control_validation.hpp: the control network's claims (note 000 §6, V1-V12, V31-V33) as
// validation cases.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::cm5 {

std::vector<core::ValidationCase> control_validation_cases();

}  // namespace mppnet::machines::cm5
