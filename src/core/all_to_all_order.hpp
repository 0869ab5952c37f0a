// core/all_to_all_order.hpp: the two orders of an all-to-all exchange's pairs, in rounds.
//
// Shared by the node program (workload/apps/alltoall) and the CM-5's message sets (machines/cm5), which
// must send the same pairs in the same order for the data network's measurements to explain the
// program's times.
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace mppnet::core {

// Shift: round r = 1 .. P-1 pairs node i with (i + r) mod P. Xor: round r = 1 .. bit_ceil(P)-1 pairs node
// i with i XOR r, when that node exists; every pair of a round then meets at one level of a tree (the
// level of r's top bit). Over its rounds each order pairs every node with every other node once.
enum class AllToAllOrder { Shift, Xor };

// The number of rounds (numbered 1 .. count): P - 1, or bit_ceil(P) - 1; 0 for fewer than 2 nodes.
int all_to_all_round_count(int nodes, AllToAllOrder order);

// Node i's partner in round r, or -1 when the round gives it none (the xor order on a size that is not a
// power of two). REQUIRES: 0 <= i < nodes, 1 <= round <= all_to_all_round_count(nodes, order).
NodeId all_to_all_partner(AllToAllOrder order, NodeId i, int round, int nodes);

// The number of pairs (i, partner) over rounds first .. last (clamped to the rounds that exist), without
// listing them: N per shift round; for an xor round, the nodes whose partner exists (closed form).
std::int64_t all_to_all_pairs(int nodes, AllToAllOrder order, std::int64_t first, std::int64_t last);

}  // namespace mppnet::core
