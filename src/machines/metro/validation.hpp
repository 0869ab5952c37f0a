// machines/metro/validation.hpp: METRO's registered validation cases (note 004a R1-R7, note 004c §8).
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::metro {

// One case per reproduced claim: path expansion (R1), Table 3.4 yield (R2: note 004a's endpoints as the
// validated configuration, the fitted "auto" endpoints as calibration cases), yield curves (R3), harvest
// (R5), latency, reliability and Table 3.1 switching (R6), extra-stage equivalence (R7), the design targets
// 1-11 and 14 of note 004c §8, the trees and the MRP protocol cases (mrp/validation_mrp.hpp). Monte Carlo
// cases over a second in a Debug build are slow = true. docs/metro.md §2 lists them and the claims that are
// not registered, with the reason.
std::vector<core::ValidationCase> metro_validation_cases();

// The fat-tree and hybrid-fat-tree cases (validation_trees.cpp), included in metro_validation_cases().
std::vector<core::ValidationCase> tree_validation_cases();

}  // namespace mppnet::machines::metro
