// machines/cns1/validation.hpp: the T1's registered validation cases, t1.* (note 002 §6: targets C1-C10
// and behaviours B1-B28), each measured by running code on the machine: T1 programs built from
// examples/t1 on the mesh, or messages driven through the NIs' ports.
#pragma once

#include <vector>

#include "core/validation_case.hpp"

namespace mppnet::machines::cns1 {

std::vector<core::ValidationCase> t1_validation_cases();

// The reading of the NI's cycle costs the C5, C6 and C8 cases turn on (chosen with the targets in
// view, so those cases are calibrations).
core::ModellingChoice ni_costs_choice();

// validation_costs.cpp: C1-C6 and C8 from examples/t1/mesh/costs.c.
void add_cost_cases(std::vector<core::ValidationCase>& cases);
// validation_handlers.cpp: B2-B4, B8, B9, B15, B17, B21, B26 and C8 (37 words) by hand-written T1 code on the
// mesh.
void add_handler_cases(std::vector<core::ValidationCase>& cases);
// validation_events.cpp: B10-B14, B16, B18-B20 and C7 by hand-written T1 code on the mesh.
void add_event_cases(std::vector<core::ValidationCase>& cases);
// validation_mesh.cpp: B1, B5, B7, B22, B23 on the mesh, and B27-like checks by the example programs.
void add_mesh_cases(std::vector<core::ValidationCase>& cases);

}  // namespace mppnet::machines::cns1
