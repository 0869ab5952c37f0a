// machines/cm5/all_fall_down_run.hpp: the all-fall-down experiment of note 000 V23 (paper L357-377).
#pragma once

#include <cstdint>

namespace mppnet::machines::cm5 {

struct AllFallDownRun {
  std::int64_t sent = 0;
  std::int64_t in_network_at_fall = 0;  // messages in the network when the chips began to fall
  std::int64_t left_after_fall = 0;     // still in the network once every chip had fallen
  bool kirchhoff_balanced = false;      // every chip's counted inputs equal its outputs
  std::int64_t fallen = 0;              // messages that fell onto some node
  std::int64_t most_on_a_node = 0;
  int nodes_landed_on = 0;
  std::int64_t delivered = 0;  // at their true destination, after resume
  std::int64_t distinct_delivered = 0;
  bool all_at_true_destination = false;
};

// 256 nodes each send 8 messages to node 0; after 2,000 cycles injection is frozen and the chips enter
// all-fall-down one by one in a random order, one a cycle; 2,000 cycles later the system resends what
// fell to its true destination.
AllFallDownRun all_fall_down_hot_spot();

}  // namespace mppnet::machines::cm5
