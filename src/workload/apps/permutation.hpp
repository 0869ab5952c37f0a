// workload/apps/permutation.hpp: the random derangements the permutation application sends along.
#pragma once

#include <cstdint>
#include <span>

#include "core/types.hpp"

namespace mppnet::workload::apps {

// Fills perm with round `round`'s derangement of 0 .. perm.size() - 1 (perm[i] != i), drawn from `seed`
// alone, so every node that calls it gets the same. REQUIRES: perm.size() >= 2.
void draw_derangement(std::uint64_t seed, int round, std::span<NodeId> perm);

}  // namespace mppnet::workload::apps
