// machines/metro/sizes.hpp: powers of the radix for the sizes of user-given networks, which checks only
// compare against limits.
#pragma once

#include <algorithm>

#include "topo/saturating.hpp"

namespace mppnet::machines::metro {

// The most nodes a METRO network may have (checks refuse more).
inline constexpr long long kMaxNodes = 1LL << 20;

// base^exp pinned at `cap` (1 for exp <= 0), so that the product of such a size with a small factor
// cannot overflow before a check compares it with a limit below `cap`. REQUIRES: base >= 0.
inline long long capped_pow(long long base, int exp, long long cap) {
  return exp <= 0 ? 1 : std::min(topo::saturating_pow(base, exp), cap);
}

}  // namespace mppnet::machines::metro
