// machines/metro/mrp/validation_mrp.hpp: the MRP cases of note 004b §5 that the protocol model covers.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::metro::mrp {

// V1-V4 (open and turn, blocked turn, drop, reverse turn) on Fig 4.4's network, ids metro.mrp.v<n>.*;
// included in metro_validation_cases().
std::vector<core::ValidationCase> mrp_validation_cases();

// MRP-ENDPOINT: zero-load latency of a FLAT24 message on the MBTA, a blocked attempt and its retry, a
// corrupted stream retried, a lost ACK's duplicate (validation_endpoint.cpp), ids metro.mrp.*.
std::vector<core::ValidationCase> mrp_endpoint_validation_cases();

// R4 (Fig 3.27, Appendix A.5): FLAT24 on faulty complete networks, the trends the thesis states in words
// (validation_r4.cpp), ids metro.r4.*; all slow.
std::vector<core::ValidationCase> r4_validation_cases();

}  // namespace mppnet::machines::metro::mrp
