// machines/cm5/message_sets.hpp: the message sets of note 000 V19/V20, as (source, destination) lists.
//
// The paper claims the data network routes "all message sets nearly as well as the bandwidths allow"
// (note 000 §2.3.12, V19). These are the sets that claim is checked on: a random permutation, the
// classic bit permutations (transpose, bit reversal, perfect shuffle), all-to-all, and a set whose every
// message crosses the top of the tree. Each is a plain list, so the congestion bound
// (machines/cm5/congestion.hpp) and the simulated completion (machines/cm5/completion.hpp) read the
// same messages in the same order.
//
// Sizes: the bit permutations and across_root need N a power of two (transpose: a power of four, so the
// address splits into equal halves) and return an empty set otherwise; random_permutation and
// all_to_all take any N >= 1. The CM-5 sizes of interest are 32 .. 16384.
#pragma once

#include <cstdint>
#include <vector>

#include "core/all_to_all_order.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace mppnet::machines::cm5 {

struct SetMessage {
  NodeId src;
  NodeId dest;
};

using MessageSet = std::vector<SetMessage>;

// One message per node, in node order, to a uniformly random permutation of the nodes (a Fisher-Yates
// shuffle on the Setup stream of `seed`); a node may draw itself.
MessageSet random_permutation(int nodes, std::uint64_t seed);
// 0 .. n-1 in the order of a Fisher-Yates shuffle drawn from `draw` (the one shuffle of machines/cm5).
std::vector<std::int32_t> shuffled(int n, core::RandomStream& draw);
// Node (h, l), its address split into high and low halves, sends to (l, h). Empty unless N = 4^k.
MessageSet transpose(int nodes);
// Node i sends to i with its log2(N) address bits reversed. Empty unless N = 2^k.
MessageSet bit_reversal(int nodes);
// Node i sends to i rotated left by one bit within log2(N) bits. Empty unless N = 2^k.
MessageSet perfect_shuffle(int nodes);
// Every ordered pair src != dest once, in rounds r = 1 .. N-1; round r sends src -> (src + r) mod N for
// every src in order, so every round is a permutation and no node is hot.
MessageSet all_to_all(int nodes);
// Every ordered pair src != dest once, in rounds r = 1 .. bit_ceil(N)-1; round r sends src -> src XOR r
// for every src in order whose partner exists, so all pairs of a round meet at one level of the tree.
MessageSet all_to_all_xor(int nodes);
// Rounds first .. first + count - 1 of either all-to-all (those that exist), in the same order as the
// node program's (core/all_to_all_order.hpp).
using core::all_to_all_round_count;
using core::AllToAllOrder;
MessageSet all_to_all_rounds(int nodes, AllToAllOrder order, int first, int count);
// Node i sends to (i + N/2) mod N: every message crosses the top of the tree. Empty unless N = 2^k.
MessageSet across_root(int nodes);
// `set` repeated `times` times, copy after copy (so a source's copies alternate sides when sides are
// assigned per source in order).
MessageSet repeat(const MessageSet& set, int times);

}  // namespace mppnet::machines::cm5
