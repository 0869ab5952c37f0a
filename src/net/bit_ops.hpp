// net/bit_ops.hpp: the bit operations the bitmask router's files share (fast_router.cpp, fast_multicast.cpp).
#pragma once

#include <cstdint>

namespace mppnet::net::bits {

inline std::uint64_t bit(int i) {
  return std::uint64_t{1} << i;
}
// `a` if it is not zero, else `b`, without a branch: which one holds is data-dependent, and a branch
// here is mispredicted about half the time under load.
inline std::uint64_t either(std::uint64_t a, std::uint64_t b) {
  return a | (b & (0 - std::uint64_t{a == 0}));
}

}  // namespace mppnet::net::bits
