// machines/metro/mrp/mrp_params.hpp: what an MRP router and network are built from, and their checks.
//
// METRO's router parameters (DeHon 1993, Table 9.1, L2935-2963): i forward ports, radix r, dilation d
// (o = r*d backward ports), width w, dps data pipeline stages and hw header words consumed for pipelined
// setup. i, r and d come from the network graph (multibutterfly.hpp); w, dps and hw from MrpParams.
#pragma once

#include <vector>

#include "core/problem.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::mrp {

struct MrpParams {
  int width = 8;      // w: data bits per router word (RN1 and METRO are byte-wide, Ch. 8-9)
  int word_bits = 8;  // the logical channel width a node sends: width-cascaded routers give m*w (Eq 4.3)
  int dps = 1;        // data latency through a router in cycles (note 004b §6 item 11: P = dps - 1)
  int hw = 0;         // header words each router consumes (pipelined connection setup, §4.11.2)
};

// The largest width modelled: a word's data bits are one 32-bit integer.
inline constexpr int kMaxWidth = 32;
// The longest router data pipeline modelled (a turn's fill count must fit a byte).
inline constexpr int kMaxDps = 16;
// The most ports a router side may have: allocation works on fixed arrays of this size.
inline constexpr int kMaxRouterPorts = 64;

// Every reason `p` on the network `net` cannot run; empty when it can. Keys name the parameter at fault:
// "metro.mrp.width", "metro.dilation", ... The network's own check (multibutterfly.hpp) comes first.
std::vector<core::Problem> check(const MultibutterflyParams& net, const MrpParams& p);

}  // namespace mppnet::machines::metro::mrp
