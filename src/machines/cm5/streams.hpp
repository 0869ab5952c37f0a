// machines/cm5/streams.hpp: backlogged senders on the data network and what their receivers got.
//
// The paper's bandwidth claims are rates of nodes that always have a message ready. A stream run keeps
// every sending node's queue on each side topped up with messages whose destinations a pattern chooses,
// runs a warm-up, then counts what is delivered during a measurement window.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/rng.hpp"
#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

// The destination of a sender's next message, or -1 when `src` sends nothing. `draw` is the sender's own
// random stream.
using Pattern = std::function<NodeId(NodeId src, core::RandomStream& draw)>;

struct StreamRun {
  int words = 5;
  Cycle warmup_cycles = 2000;
  Cycle measure_cycles = 10000;
  bool both_sides = true;  // false: the left side only
};

struct StreamResult {
  Cycle cycles = 0;           // the measurement window
  std::int64_t messages = 0;  // delivered in the window
  std::int64_t nibbles = 0;   // their link cycles (raw)
  std::int64_t payload_bytes = 0;
  std::vector<std::int64_t> received_nibbles;  // per destination node, in the window
  std::vector<std::int64_t> delivered_from;    // messages per source node whose tails arrived in it
  double latency_avg_cycles = 0;  // head leaving the node to tail delivery, messages in the window
  int senders = 0;
  // Rates in MB/s at 40 MHz, one nibble = half a byte per 25 ns cycle.
  double raw_mb_per_s() const { return 20.0 * static_cast<double>(nibbles) / static_cast<double>(cycles); }
  double payload_mb_per_s() const { return 40.0 * payload_bytes / static_cast<double>(cycles); }
};

// Open-loop uniform random traffic: `messages_per_cycle` x nodes messages of `words` words a cycle on
// average, each from a uniformly drawn node to a uniformly chosen other one, a node's messages alternating
// sides, for `cycles` cycles (no warm-up or drain: a speed and load driver). Returns what arrived then.
StreamResult run_uniform(DataNetwork& network, double messages_per_cycle, int words, Cycle cycles,
                         std::uint64_t seed);

// Runs `pattern` with every sender backlogged. REQUIRES: `network` is idle.
StreamResult run_streams(DataNetwork& network, const Pattern& pattern, const StreamRun& run,
                         std::uint64_t seed);

}  // namespace mppnet::machines::cm5
