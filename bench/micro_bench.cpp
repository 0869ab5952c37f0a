// bench/micro_bench.cpp: Google Benchmark micro-benchmarks of the hot paths.
#include <benchmark/benchmark.h>

#include "core/calendar_queue.hpp"
#include "core/rng.hpp"
#include "exp/fixed_run.hpp"
#include "exp/foundation_validation.hpp"

namespace {

void BM_RandomStreamDraw(benchmark::State& state) {
  mppnet::core::RandomStream rng(1, 2, mppnet::core::Stream::Arrival);
  for (auto _ : state) benchmark::DoNotOptimize(rng.below(64));
}
BENCHMARK(BM_RandomStreamDraw);

void BM_CalendarQueueHold(benchmark::State& state) {
  // The "hold" model: pop the earliest event and push one a random gap later, at a steady population.
  mppnet::core::CalendarQueue<std::uint32_t> q;
  mppnet::core::RandomStream rng(1, 3, mppnet::core::Stream::Arrival);
  for (std::uint32_t i = 0; i < state.range(0); ++i) q.push(rng.below(100), i);
  for (auto _ : state) {
    auto e = q.pop();
    q.push(e.time + 1 + rng.below(100), e.payload);
  }
}
BENCHMARK(BM_CalendarQueueHold)->Arg(64)->Arg(4096);

// Simulated node-cycles per second of whole networks (counters report them).
void run_network(benchmark::State& state, const mppnet::exp::ExperimentConfig& cfg, double load,
                 long long cycles) {
  double node_cycles = 0, hops = 0;
  for (auto _ : state) {
    const auto c = mppnet::exp::run_fixed_cycles(cfg, load, 0, cycles);
    node_cycles += static_cast<double>(c.nodes) * static_cast<double>(c.cycles);
    hops += static_cast<double>(c.flit_hops);
  }
  state.counters["node_cycles/s"] = benchmark::Counter(node_cycles, benchmark::Counter::kIsRate);
  state.counters["flit_hops/s"] = benchmark::Counter(hops, benchmark::Counter::kIsRate);
}

void BM_Mesh8x8(benchmark::State& state) {
  run_network(state, mppnet::exp::mesh_8x8_config(), static_cast<double>(state.range(0)) / 100, 20000);
}
BENCHMARK(BM_Mesh8x8)->Arg(10)->Arg(40)->Unit(benchmark::kMillisecond);

void BM_Tree4ary3(benchmark::State& state) {
  run_network(state, mppnet::exp::kary_ntree_config(4, 3), static_cast<double>(state.range(0)) / 100, 20000);
}
BENCHMARK(BM_Tree4ary3)->Arg(60)->Unit(benchmark::kMillisecond);

}  // namespace
