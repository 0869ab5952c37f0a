// machines/metro/scan/validation_scan.hpp: the scan cases of note 004b §5 (V11, V13, V15, V16).
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::metro::scan {

// Multi-TAP (V15), port selection by scan (V11), localisation by scan test (V13) and propagating
// reconfiguration (V16), ids metro.mrp.v<n>.scan_* and metro.mrp.v15.* / v16.*; included in
// metro_validation_cases().
std::vector<core::ValidationCase> scan_validation_cases();

}  // namespace mppnet::machines::metro::scan
