// bench/metro_bench.cpp: METRO's MRP protocol simulation, word by word (network cycles per second).
#include <benchmark/benchmark.h>

#include "machines/metro/mrp/mrp_run.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace {

using mppnet::machines::metro::MultibutterflyParams;
using mppnet::machines::metro::mrp::MrpRunParams;

// One FLAT24 barrier phase (400 24-byte messages per node at 0.04 per cycle, fast path reclamation,
// immediate retry) on the radix-4, dilation-2 multibutterfly of `nodes` = 4^stages nodes with 2 inputs
// and outputs per node: configs/metro-256.toml at 256, the issue #36 speed point (20,000 cycles/s).
// Building the network is included; it is a few milliseconds of a run of about 15,000 cycles.
void BM_MrpFlat24(benchmark::State& state) {
  MultibutterflyParams net;
  net.stages = 0;
  for (int n = 1; n < state.range(0); n *= net.radix) ++net.stages;
  const MrpRunParams p;  // FLAT24 defaults, dps = 1
  const int routers = mppnet::machines::metro::build_instance(net, 1, 0).routers();
  double cycles = 0;
  for (auto _ : state) {
    const auto r = mppnet::machines::metro::mrp::run_mrp(net, p, 1);
    cycles += static_cast<double>(r.cycles);
  }
  state.counters["cycles/s"] = benchmark::Counter(cycles, benchmark::Counter::kIsRate);
  state.counters["router_cycles/s"] = benchmark::Counter(cycles * routers, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MrpFlat24)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
