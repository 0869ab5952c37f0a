// topo/saturating.hpp: size arithmetic that saturates instead of overflowing, for checks on user input.
//
// check() must compare node and router counts of arbitrary user values (k = 10^9, n = 10^9) against its
// caps without undefined behaviour, so every size is computed in long long and pinned at kSaturated.
#pragma once

#include <limits>

namespace mppnet::topo {

constexpr long long kSaturated = std::numeric_limits<long long>::max();

// REQUIRES: a >= 0, b >= 0.
constexpr long long saturating_mul(long long a, long long b) {
  long long r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

// REQUIRES: a >= 0, b >= 0.
constexpr long long saturating_add(long long a, long long b) {
  long long r = 0;
  return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

// base^exp, pinned at kSaturated. REQUIRES: base >= 0, exp >= 0. Stops early once saturated, so a
// huge exponent costs nothing.
constexpr long long saturating_pow(long long base, long long exp) {
  if (base <= 1) return exp == 0 ? 1 : base;
  long long r = 1;
  for (long long i = 0; i < exp && r != kSaturated; ++i) r = saturating_mul(r, base);
  return r;
}

}  // namespace mppnet::topo
