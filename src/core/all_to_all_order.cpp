// core/all_to_all_order.cpp: the all-to-all orders' rounds, partners and pair counts.
#include "core/all_to_all_order.hpp"

#include <algorithm>
#include <bit>

namespace mppnet::core {

int all_to_all_round_count(int nodes, AllToAllOrder order) {
  if (nodes < 2) return 0;
  return order == AllToAllOrder::Xor ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(nodes))) - 1
                                     : nodes - 1;
}

NodeId all_to_all_partner(AllToAllOrder order, NodeId i, int round, int nodes) {
  if (order == AllToAllOrder::Shift) return static_cast<NodeId>((std::int64_t{i} + round) % nodes);
  const NodeId j = i ^ round;
  return j < nodes ? j : -1;
}

namespace {

// The nodes i < n whose xor partner i ^ r is also < n. With 2^h the top bit of r, i ^ r stays within i's
// aligned block of 2^(h+1) nodes: every node of a whole block has its partner. In the last, partial block
// of m nodes, the lower half's partners are in the upper half and only the m - 2^h upper nodes exist; each
// is the partner of one lower node, so 2 (m - 2^h) pairs, or none when m <= 2^h.
std::int64_t xor_pairs_in_round(std::int64_t n, std::int64_t r) {
  const std::int64_t half = std::int64_t{1} << (std::bit_width(static_cast<std::uint64_t>(r)) - 1);
  const std::int64_t block = 2 * half;
  const std::int64_t m = n % block;
  return n / block * block + 2 * std::max<std::int64_t>(0, m - half);
}

}  // namespace

std::int64_t all_to_all_pairs(int nodes, AllToAllOrder order, std::int64_t first, std::int64_t last) {
  first = std::max<std::int64_t>(first, 1);
  last = std::min<std::int64_t>(last, all_to_all_round_count(nodes, order));
  if (last < first) return 0;
  if (order == AllToAllOrder::Shift) return (last - first + 1) * nodes;
  std::int64_t pairs = 0;
  for (std::int64_t r = first; r <= last; ++r) pairs += xor_pairs_in_round(nodes, r);
  return pairs;
}

}  // namespace mppnet::core
