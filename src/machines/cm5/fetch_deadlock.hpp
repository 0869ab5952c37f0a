// machines/cm5/fetch_deadlock.hpp: the paper's fetch-deadlock experiment (L307-337, note 000 V22).
#pragma once

#include <cstdint>

#include "machines/cm5/network_interface.hpp"

namespace mppnet::machines::cm5 {

// Every node of a 64-node CM-5 sends 200 requests to the others in turn without waiting, then waits for
// its replies; send and receive queues of one message and receive FIFOs of one message (constant-size
// buffers), so a server whose reply cannot leave stops reading requests. `separate`: requests and
// replies on their own sides (else both on the left). Returns the requests served, or -1 when the
// machine deadlocked.
std::int64_t request_flood(bool separate, Sides replies);

}  // namespace mppnet::machines::cm5
