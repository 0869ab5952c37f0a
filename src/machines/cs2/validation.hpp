// machines/cs2/validation.hpp: the Meiko CS-2's registered validation cases (note 003 §5): the
// structural ones, R1-R3, R9 and the static parts of R7, R8 and R10; R5 on simulated packets; R4, R6
// and R5's ack round trip on simulated messages; R8 on simulated traffic.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::cs2 {

// The document every case cites, as a publication.
inline constexpr const char* kDoc = "Meiko, CS-2 Communications Network Overview (1993)";

// Counts on the built layer (R1), Meiko's naming and route strings (R2), locality (R3), the down half
// under DEST (R9), the links a bisection cuts (R7), channel loads of shifts and butterflies (R8) and of
// bit reversal and transpose (R10). docs/cs2.md lists them and what is not registered yet.
std::vector<core::ValidationCase> cs2_validation_cases();

// R5: the latency per switch on simulated packets (validation_latency.cpp).
std::vector<core::ValidationCase> latency_cases();

// R4, R5's ack round trip and R6: the ack path and the Elan's window (validation_elan.cpp).
std::vector<core::ValidationCase> elan_cases();

// R8 on simulated traffic: shifts and XOR permutations under DEST at full rate (validation_patterns.cpp).
std::vector<core::ValidationCase> pattern_cases();

// The simulated halves of R7 (bisection bandwidth with the Elan's protocol) and R11 (a hot spot's link
// kept busy) (validation_load.cpp).
std::vector<core::ValidationCase> load_cases();

// R12 (broadcast: stages, one merged ack, boxes per range, deadlock on the canonical tree and off it)
// and R14 (unicast deadlock freedom) on simulated packets (validation_broadcast.cpp).
std::vector<core::ValidationCase> broadcast_cases();

// R13 (byte errors: nothing corrupt committed, one error count per bad CRC, NACK and resend, goodput
// against (1 - p)^L; failed links: rebuilt tables, a PE's own link through the other layer)
// (validation_faults.cpp).
std::vector<core::ValidationCase> fault_cases();

}  // namespace mppnet::machines::cs2
