// machines/cm5/completion.hpp: how long the data network takes to deliver a whole message set.
//
// Note 000 V19 compares this with the congestion bound of §5.18 (machines/cm5/congestion.hpp); V20 does
// so again with a deterministic up-choice. Both need the same side assignment as the bound, so the
// messages go on sides by alternate_sides_per_source.
#pragma once

#include <vector>

#include "core/types.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/message_sets.hpp"

namespace mppnet::machines::cm5 {

// Queues every message of `set` at cycle net.now() (the k-th message of each source, in set order, on
// side k % 2; no queue limit), runs the network until it is idle, and returns the cycle of the last
// delivery minus the start (0 for an empty set). Uses the network's observer slot and leaves it empty.
// REQUIRES: `net` is idle with no receive FIFO held (else it never drains); 1 <= words <= kMaxWords.
Cycle completion_cycles(DataNetwork& net, const std::vector<SetMessage>& set, int words);

}  // namespace mppnet::machines::cm5
