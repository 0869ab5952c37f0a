// machines/cm5/open_loop.hpp: one synthetic pattern offered open loop to the data network, latency
// counted from each message's creation, as `mppnet run` measures the other machines (traffic.pattern).
//
// Every node creates messages independently: in each cycle it draws its destination from the pattern,
// then sends a message there with probability load x 2 / (the message's link cycles), so that it offers
// `load` of its two links' raw rate whatever the distance (a route's length changes a message's size,
// paper L262-L266). A node's messages alternate sides. Messages created during the measurement window are
// timed from creation (queueing at the node included) to the tail's delivery; the run then drains for up
// to another window. The network has not kept up (saturated) when a measured message is still undelivered
// then, or when it delivered under 95% of what was offered in the window.
#pragma once

#include <cstdint>

#include "machines/cm5/config.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/streams.hpp"

namespace mppnet::machines::cm5 {

struct OpenLoopResult {
  double offered_raw_mb_per_s = 0;   // per node
  double accepted_raw_mb_per_s = 0;  // per node, link cycles of messages delivered in the window
  double accepted_payload_mb_per_s = 0;
  double latency_avg_cycles = 0;          // creation to tail delivery, measured messages delivered
  double network_latency_avg_cycles = 0;  // head leaving the node to tail delivery
  std::int64_t created = 0;               // in the window
  std::int64_t delivered = 0;             // of those, by the end of the drain
  bool saturated = false;
};

// The destination pattern of traffic.pattern (not Locality) on `nodes` nodes: uniform is any node,
// itself included, as on the CS-2 (machines/cs2/cs2_run.cpp); the bit patterns' fixed points send to
// themselves. REQUIRES: check_cm5 accepted the size for the pattern.
Pattern open_loop_pattern(TrafficPattern p, int nodes);

// REQUIRES: `network` is idle; 0 <= load <= 1.
OpenLoopResult run_open_loop(DataNetwork& network, const Pattern& pattern, double load, const StreamRun& run,
                             std::uint64_t seed);

}  // namespace mppnet::machines::cm5
