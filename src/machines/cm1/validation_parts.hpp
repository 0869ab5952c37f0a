// machines/cm1/validation_parts.hpp: the pieces cm1_validation_cases() is assembled from, one file each.
//
// validation_static.cpp: E1 constants and pipeline figures, E2 the clocked heart site, E11 a lone message.
// validation_heart.cpp:  E3 the heart's three cases and the complement pattern, E9 rows, E12 invariants.
// validation_load.cpp:   E4-E8 and E10, random loads: Fig. 12, the probability argument, wire use,
//                        throughput, single-eject mode, VP-bank ejection.
// Internal to machines/cm1; nothing outside includes it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/validation_case.hpp"
#include "machines/cm1/params.hpp"

namespace mppnet::machines::cm1::detail {

// The publication every cm1.* case cites; "Lnnn" are lines of its OCR'd text in the reference collection.
inline constexpr const char* kPaper =
    "Kahle, Kuszmaul, Hillis, \"The Connection Machine Message Router\", Thinking Machines Corp., 1989";

inline std::string paper(const std::string& where) {
  return std::string(kPaper) + ", " + where;
}

void add_static_cases(std::vector<core::ValidationCase>& cases);
void add_heart_cases(std::vector<core::ValidationCase>& cases);
void add_load_cases(std::vector<core::ValidationCase>& cases);

// Messages of the pattern of (c, seed) that must cross each dimension i in each direction: index 2i is
// from the chips with bit i = 0 to those with bit i = 1, index 2i + 1 the other way (paper L258-L264).
// REQUIRES: c.machine.dims <= 12.
std::array<std::int64_t, 24> dimension_demands(const Cm1Config& c, std::int64_t seed);

// The pattern's own load bound in petit cycles: each of the 2^(c-1) chips on one side of a dimension sends
// at most one message across it per petit cycle (paper L119), so p >= ceil(demand / 2^(c-1)) for every
// dimension and direction.
std::int64_t pattern_load_bound(const Cm1Config& c, std::int64_t seed);

}  // namespace mppnet::machines::cm1::detail
