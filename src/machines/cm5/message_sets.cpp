// machines/cm5/message_sets.cpp: builds the permutation, all-to-all and across-the-root message sets.
#include "machines/cm5/message_sets.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "core/rng.hpp"

namespace mppnet::machines::cm5 {

namespace {

bool is_power_of_two(int nodes) {
  return nodes >= 1 && std::has_single_bit(static_cast<unsigned>(nodes));
}

int address_bits(int nodes) {
  return std::countr_zero(static_cast<unsigned>(nodes));
}

// The set in which node i sends to map(i), for every node in order.
template <class Map>
MessageSet permutation(int nodes, Map map) {
  MessageSet set;
  set.reserve(static_cast<std::size_t>(nodes));
  for (NodeId i = 0; i < nodes; ++i) set.push_back({i, map(i)});
  return set;
}

}  // namespace

std::vector<std::int32_t> shuffled(int n, core::RandomStream& draw) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(std::max(n, 0)));
  for (std::int32_t i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[draw.below(static_cast<std::uint32_t>(i + 1))]);
  return order;
}

MessageSet random_permutation(int nodes, std::uint64_t seed) {
  core::RandomStream draw(seed, 0, core::Stream::Setup);
  const std::vector<NodeId> dest = shuffled(nodes, draw);
  return permutation(nodes, [&](NodeId i) { return dest[i]; });
}

MessageSet transpose(int nodes) {
  if (!is_power_of_two(nodes) || address_bits(nodes) % 2 != 0) return {};
  const int half = address_bits(nodes) / 2;
  const NodeId low_mask = (NodeId{1} << half) - 1;
  return permutation(nodes, [&](NodeId i) { return ((i & low_mask) << half) | (i >> half); });
}

MessageSet bit_reversal(int nodes) {
  if (!is_power_of_two(nodes)) return {};
  const int bits = address_bits(nodes);
  return permutation(nodes, [&](NodeId i) {
    NodeId r = 0;
    for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
  });
}

MessageSet perfect_shuffle(int nodes) {
  if (!is_power_of_two(nodes)) return {};
  const int bits = address_bits(nodes);
  if (bits == 0) return permutation(nodes, [](NodeId i) { return i; });
  return permutation(nodes, [&](NodeId i) { return ((i << 1) | (i >> (bits - 1))) & (nodes - 1); });
}

MessageSet all_to_all_rounds(int nodes, AllToAllOrder order, int first, int count) {
  MessageSet set;
  // In 64 bits: a caller's count may reach the int range's end.
  const auto last = static_cast<int>(
      std::min<std::int64_t>(std::int64_t{first} + count - 1, all_to_all_round_count(nodes, order)));
  first = std::max(first, 1);
  if (last >= first)
    set.reserve(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(last - first + 1));
  for (int r = first; r <= last; ++r) {
    for (NodeId src = 0; src < nodes; ++src) {
      const NodeId dest = core::all_to_all_partner(order, src, r, nodes);
      if (dest >= 0) set.push_back({src, dest});
    }
  }
  return set;
}

MessageSet all_to_all(int nodes) {
  return all_to_all_rounds(nodes, AllToAllOrder::Shift, 1, nodes);
}

MessageSet all_to_all_xor(int nodes) {
  return all_to_all_rounds(nodes, AllToAllOrder::Xor, 1, all_to_all_round_count(nodes, AllToAllOrder::Xor));
}

MessageSet across_root(int nodes) {
  if (!is_power_of_two(nodes)) return {};
  return permutation(nodes, [&](NodeId i) { return (i + nodes / 2) % nodes; });
}

MessageSet repeat(const MessageSet& set, int times) {
  MessageSet out;
  if (times <= 0) return out;
  out.reserve(set.size() * static_cast<std::size_t>(times));
  for (int k = 0; k < times; ++k) out.insert(out.end(), set.begin(), set.end());
  return out;
}

}  // namespace mppnet::machines::cm5
