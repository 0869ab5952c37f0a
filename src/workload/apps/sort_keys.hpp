// workload/apps/sort_keys.hpp: the keys the sorting applications sort, and the check of their output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"

namespace mppnet::workload::apps {

// Node v's keys: `count` draws of its own stream of the run seed, so the input does not depend on the
// order nodes run in and the check can regenerate it.
inline std::vector<std::uint64_t> sort_input(std::uint64_t seed, NodeId v, int count) {
  core::RandomStream rng(seed, static_cast<std::uint64_t>(v), core::Stream::Setup);
  std::vector<std::uint64_t> keys(count);
  for (auto& k : keys) k = rng.next_u64();
  return keys;
}

// Empty when `output` (node by node) is sorted across the nodes in node order and a permutation of
// `input`; otherwise the first thing found wrong. Checks the count and a multiset checksum (sum and xor
// of a hash of every key), then, when there are at most `gather_limit` keys, gathers both and compares
// the output with std::sort of the input key by key.
std::string check_sorted_permutation(const std::vector<std::vector<std::uint64_t>>& input,
                                     const std::vector<std::vector<std::uint64_t>>& output,
                                     std::size_t gather_limit = 1 << 22);

}  // namespace mppnet::workload::apps
