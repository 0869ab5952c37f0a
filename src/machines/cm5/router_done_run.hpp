// machines/cm5/router_done_run.hpp: router done over a running data network (note 000 §5.14, V11, V12).
//
// The data network and the control network of one machine run side by side at 40 MHz: every node sends
// its messages through its interface, promises router done once the interface has taken the last one,
// and keeps receiving until the control network answers. Faults at a node's interface lose or duplicate
// one message, which router done must expose: a loss by never answering, a duplicate by an error.
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace mppnet::machines::cm5 {

enum class DeliveryFault : std::uint8_t { None, Lose, Duplicate };

struct RouterDoneRun {
  std::int64_t sent = 0;
  std::int64_t delivered = 0;        // counting a duplicate twice
  std::int64_t delivered_after = 0;  // after the first node had its answer
  Cycle last_delivery = -1;
  Cycle done = -1;  // when router done reached the nodes (-1: never)
  int nodes_done = 0;
  bool error_everywhere = false;  // the created-message error reached every interface
};

// `nodes` nodes each send `messages` 5-word messages to uniformly random nodes; runs up to `limit`
// cycles.
RouterDoneRun router_done_all_to_all(int nodes, int messages, DeliveryFault fault, Cycle limit = 200'000,
                                     std::uint64_t seed = 1);

}  // namespace mppnet::machines::cm5
