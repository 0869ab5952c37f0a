// workload/apps/sort_keys.cpp: the output check shared by the sorting applications.
#include "workload/apps/sort_keys.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mppnet::workload::apps {

namespace {

struct Multiset {
  std::uint64_t count = 0, sum = 0, xored = 0;
  void add(std::uint64_t k) {
    const std::uint64_t h = core::splitmix64(k);  // a hash, so that swapping bits between keys shows
    ++count;
    sum += h;
    xored ^= h;
  }
  bool operator==(const Multiset&) const = default;
};

}  // namespace

std::string check_sorted_permutation(const std::vector<std::vector<std::uint64_t>>& input,
                                     const std::vector<std::vector<std::uint64_t>>& output,
                                     std::size_t gather_limit) {
  Multiset in, out;
  for (const auto& keys : input)
    for (auto k : keys) in.add(k);
  bool have_previous = false;
  std::uint64_t previous = 0;
  for (std::size_t v = 0; v < output.size(); ++v) {
    for (std::size_t i = 0; i < output[v].size(); ++i) {
      const std::uint64_t k = output[v][i];
      if (have_previous && k < previous)
        return fmt::format("node {}: key {} ({:#x}) is smaller than the key before it ({:#x})", v, i, k,
                           previous);
      previous = k;
      have_previous = true;
      out.add(k);
    }
  }
  if (in.count != out.count) return fmt::format("{} keys in, {} keys out", in.count, out.count);
  if (!(in == out)) return "the output is not a permutation of the input (multiset checksums differ)";
  if (in.count > gather_limit) return {};
  std::vector<std::uint64_t> want, got;
  want.reserve(in.count);
  got.reserve(in.count);
  for (const auto& keys : input) want.insert(want.end(), keys.begin(), keys.end());
  for (const auto& keys : output) got.insert(got.end(), keys.begin(), keys.end());
  std::sort(want.begin(), want.end());
  const auto diff = std::mismatch(want.begin(), want.end(), got.begin());
  if (diff.first != want.end())
    return fmt::format("gathered output differs from std::sort of the input at position {}",
                       diff.first - want.begin());
  return {};
}

}  // namespace mppnet::workload::apps
