// machines/cm5/partition_run.hpp: the partition-isolation experiment of note 000 V25 (paper L179-183).
#pragma once

#include <cstdint>

namespace mppnet::machines::cm5 {

struct PartitionRun {
  std::int64_t second_delivered = 0;  // the second partition's messages, all of which must arrive
  std::int64_t second_changed = 0;    // of them, delivered at another cycle when the first is busy
};

// A 256-node machine as two 128-node partitions (its halves). The second sends 4,000 random messages
// of 1-5 words within itself, once alone and once while the first saturates itself with its own.
PartitionRun partition_isolation();

}  // namespace mppnet::machines::cm5
