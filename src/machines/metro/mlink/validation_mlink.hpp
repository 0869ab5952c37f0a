// machines/metro/mlink/validation_mlink.hpp: the MLINK cases (note 004c §8 target 12), ids metro.mlink.*.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::metro::mlink {

// A WRITE's words on the link and its reply, its round trip on the idle MBTA, and what a corrupted
// header or payload does (validation_mlink.cpp); included in metro_validation_cases().
std::vector<core::ValidationCase> mlink_validation_cases();

}  // namespace mppnet::machines::metro::mlink
