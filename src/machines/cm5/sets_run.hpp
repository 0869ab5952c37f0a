// machines/cm5/sets_run.hpp: the message sets of note 000 V19/V20 on a data network of any size, each
// against the paper's load estimate (`mppnet cm5-sets`).
//
// Every set is queued at once, the k-th message of each source on side k % 2, and the network runs until
// the last delivery (machines/cm5/completion.hpp); the bound is machines/cm5/congestion.hpp's. The
// permutations repeat `copies` times; the all-to-all sets may be cut to a window of rounds, the way
// docs/cm5.md ("The all-to-all's schedule") compares the shift and the xor order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

struct SetsOptions {
  int nodes = 1024;
  std::vector<std::string> sets;  // empty: every set the size allows
  int copies = 8;                 // of each permutation
  int first_round = 1;            // of the all-to-all sets
  int rounds = 0;                 // 0: every round from first_round on
  int words = 5;
  int buffer_nibbles = DataNetworkParams{}.buffer_nibbles;
  bool deterministic = false;  // up-links: the first parent instead of a random unobstructed one
  std::uint64_t seed = 1;
};

struct SetRow {
  std::string set;
  std::int64_t messages = 0;
  Cycle bound = 0;                // the paper's load estimate, a lower bound on the completion
  Cycle completion = 0;           // first injection to last delivery
  std::int64_t busiest_link = 0;  // messages through the busiest chip output
  double ratio() const {
    return bound > 0 ? static_cast<double>(completion) / static_cast<double>(bound) : 0;
  }
};

// The most messages one set may have (the host holds them all at once: about 2.5 GB).
constexpr std::int64_t kMostSetMessages = std::int64_t{1} << 25;

struct SetsResult {
  std::vector<SetRow> rows;
  std::vector<std::string> left_out;  // sets too large to hold, left out of a run of every set: why
};

// The messages of all-to-all set `name` ("all_to_all" or "all_to_all_xor") in the window of `o`,
// counted without building it (the xor order skips partners beyond the machine).
std::int64_t all_to_all_messages(const std::string& name, const SetsOptions& o);

// Every set's name, in the order they run.
const std::vector<std::string>& message_set_names();
// Throws core::ConfigError naming the option for a size the CM-5 cannot have, an unknown set, a set the
// size does not allow (transpose: a power of 4; the bit permutations and across_root: a power of 2), or
// a count, window, word count or buffer out of range, or an all-to-all of more than kMostSetMessages
// asked for by name (without --sets such a set is left out and named in left_out).
// `planned`, when given, is told the messages of every set that will run, once the options are checked
// and before any set runs (the command says when they will take long).
SetsResult run_message_sets(const SetsOptions& o,
                            const std::function<void(std::int64_t messages)>& planned = {});

}  // namespace mppnet::machines::cm5
