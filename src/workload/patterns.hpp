// workload/patterns.hpp: the deterministic synthetic traffic patterns as pure functions of the source.
//
// Definitions follow Dally & Towles, "Principles and Practices of Interconnection Networks" (2004),
// ch. 3, "Synthetic traffic patterns": the bit permutations take the b = log2(N) address bits of the
// source s (s_{b-1} ... s_0) to those of the destination d. Some of them map a source to itself (the
// bit reverse of a palindromic address, the transpose of an address whose two halves are equal);
// that is the pattern's definition and we keep it, since a self-send is legal in the network.
#pragma once

#include <bit>
#include <cstdint>

#include "core/types.hpp"

namespace mppnet::workload {

constexpr bool is_power_of_two(long long n) {
  return n > 0 && std::has_single_bit(static_cast<std::uint64_t>(n));
}

// b such that n == 2^b. REQUIRES: is_power_of_two(n).
constexpr int address_bits(long long n) {
  return std::countr_zero(static_cast<std::uint64_t>(n));
}

// The preconditions below all read: REQUIRES: 0 <= bits <= 30 and 0 <= s < 2^bits.

// d_i = not s_i.
constexpr NodeId bit_complement(NodeId s, int bits) {
  const auto mask = (std::uint32_t{1} << bits) - 1;
  return static_cast<NodeId>(~static_cast<std::uint32_t>(s) & mask);
}

// d_i = s_{b-1-i}.
constexpr NodeId bit_reverse(NodeId s, int bits) {
  auto u = static_cast<std::uint32_t>(s);
  std::uint32_t d = 0;
  for (int i = 0; i < bits; ++i) {
    d = (d << 1) | (u & 1);
    u >>= 1;
  }
  return static_cast<NodeId>(d);
}

// d_i = s_{(i + b/2) mod b}: the high and low halves of the address swap, which on a square 2-D
// array of 2^(b/2) x 2^(b/2) nodes sends (x, y) to (y, x). REQUIRES also: bits is even.
constexpr NodeId transpose(NodeId s, int bits) {
  const int half = bits / 2;
  const auto u = static_cast<std::uint32_t>(s);
  const auto low = u & ((std::uint32_t{1} << half) - 1);
  return static_cast<NodeId>((low << half) | (u >> half));
}

// d_i = s_{(i - 1) mod b}: the address rotated left by one bit (the perfect shuffle).
constexpr NodeId shuffle(NodeId s, int bits) {
  if (bits == 0) return 0;
  const auto u = static_cast<std::uint32_t>(s);
  const auto mask = (std::uint32_t{1} << bits) - 1;
  return static_cast<NodeId>(((u << 1) | (u >> (bits - 1))) & mask);
}

// The remaining patterns are defined for any node count. REQUIRES: n >= 1 and 0 <= s < n.

// d = (s + ceil(n/2) - 1) mod n. Dally & Towles define tornado per dimension of a k-ary n-cube
// (d_x = s_x + ceil(k/2) - 1 mod k); we apply the 1-D form to node numbers for every topology, so on
// a ring it sends each packet just under halfway round in one direction, and elsewhere it is a
// fixed shift of node numbers whose distance depends on how the topology numbers its nodes.
constexpr NodeId tornado(NodeId s, NodeId n) {
  return static_cast<NodeId>((static_cast<long long>(s) + (n + 1) / 2 - 1) % n);
}

// d = (s + 1) mod n, the 1-D form of Dally & Towles' neighbor pattern (same caveat as tornado).
constexpr NodeId neighbor(NodeId s, NodeId n) {
  return static_cast<NodeId>((static_cast<long long>(s) + 1) % n);
}

}  // namespace mppnet::workload
