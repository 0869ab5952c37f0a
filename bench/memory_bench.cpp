// bench/memory_bench.cpp: the host's memory latency, which bounds every model whose state outgrows the
// cache: a hop of a packet reads records of its input VC, its output VC and its next router that lie
// anywhere in the network's state. One load per 64-byte line, in a random cyclic order:
//  - dependent: each load's address comes from the one before (the cost of a miss that nothing hides);
//  - independent: addresses from a random stream (what misses cost when the core can overlap them).
// Argument: the working set in MiB. docs/performance.md ("What bounds the packet model") quotes them.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/rng.hpp"

namespace {

constexpr std::size_t kLineWords = 8;  // 64-byte lines of 8-byte words

// A random cycle through the lines of `mib` MiB: line i's first word holds the next line's index.
std::vector<std::uint64_t> random_cycle(std::size_t mib) {
  const std::size_t lines = (mib << 20) / (kLineWords * sizeof(std::uint64_t));
  std::vector<std::uint64_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  mppnet::core::RandomStream rng(1, 0, mppnet::core::Stream::Setup);
  for (std::size_t i = lines - 1; i > 0; --i) {
    std::swap(order[i], order[rng.below(static_cast<std::uint32_t>(i + 1))]);
  }
  std::vector<std::uint64_t> next(lines * kLineWords);
  for (std::size_t i = 0; i < lines; ++i) next[order[i] * kLineWords] = order[(i + 1) % lines];
  return next;
}

void BM_DependentLoad(benchmark::State& state) {
  const std::vector<std::uint64_t> next = random_cycle(static_cast<std::size_t>(state.range(0)));
  std::uint64_t at = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) at = next[at * kLineWords];
    benchmark::DoNotOptimize(at);
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_DependentLoad)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Arg(512);

void BM_IndependentLoad(benchmark::State& state) {
  const std::vector<std::uint64_t> next = random_cycle(static_cast<std::size_t>(state.range(0)));
  const std::uint64_t lines = next.size() / kLineWords;
  std::uint64_t x = 0x9e3779b97f4a7c15ULL, sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) {
      x ^= x << 13;  // xorshift: addresses that do not wait for a load
      x ^= x >> 7;
      x ^= x << 17;
      sum += next[(x & (lines - 1)) * kLineWords];  // lines: a power of two (MiB / 64 B)
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1024);
}
BENCHMARK(BM_IndependentLoad)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Arg(512);

}  // namespace
