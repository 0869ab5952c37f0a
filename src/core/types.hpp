// core/types.hpp: the integer time base and the index types shared by every layer.
#pragma once

#include <cstdint>

namespace mppnet {

// Simulated time. Picoseconds keep every clock domain of the seed machines exact
// (25 000 ps at 40 MHz, 31 250 ps at 32 MHz); cycles count ticks of one domain.
using Picoseconds = std::int64_t;
using Cycle = std::int64_t;

// Index types: plain integers on hot paths, named so that signatures say what they take.
using NodeId = std::int32_t;    // a terminal (processor) of the network
using RouterId = std::int32_t;  // a router of the network
using PortId = std::int32_t;    // a port of one router (input and output share the number)
using VcId = std::int32_t;      // a virtual channel of one port

}  // namespace mppnet
