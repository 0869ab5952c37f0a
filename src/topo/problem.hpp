// topo/problem.hpp: one reason a topology cannot be built, naming the config key at fault
// ("topology.k"); the same type as every other build check's (core/problem.hpp).
#pragma once

#include "core/problem.hpp"

namespace mppnet::topo {

using Problem = core::Problem;

}  // namespace mppnet::topo
