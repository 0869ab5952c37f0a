// bench/cs2_bench.cpp: the CS-2 traffic network's speed (node-cycles per second at 70 MHz link cycles).
#include <benchmark/benchmark.h>

#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_run.hpp"

namespace {

using mppnet::machines::cs2::Cs2Config;

// Uniform random 32-byte packets on a 1,024-PE CS-2 (two layers of 1,280 Elites, DEST routing) at
// `load` tenths of the PEs' link bandwidth offered: 0.2 is a moderate load, well below saturation.
void BM_Cs2UniformTraffic(benchmark::State& state) {
  Cs2Config c;
  c.machine.pes = static_cast<int>(state.range(0));
  c.traffic.load = static_cast<double>(state.range(1)) / 10;
  c.run.warmup_cycles = 500;
  c.run.cycles = 2000;
  double node_cycles = 0, accepted = 0;
  for (auto _ : state) {
    const auto r = mppnet::machines::cs2::run_traffic(c);
    node_cycles += static_cast<double>(r.node_cycles);
    accepted += r.accepted_mb_per_s;
  }
  state.counters["node_cycles/s"] = benchmark::Counter(node_cycles, benchmark::Counter::kIsRate);
  state.counters["MB/s/PE"] = benchmark::Counter(accepted, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_Cs2UniformTraffic)->Args({1024, 2})->Unit(benchmark::kMillisecond);

}  // namespace
