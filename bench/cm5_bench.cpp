// bench/cm5_bench.cpp: the CM-5 data network model's speed (node-cycles per second at 40 MHz cycles).
#include <benchmark/benchmark.h>

#include "machines/cm5/data_network.hpp"
#include "machines/cm5/message_format.hpp"
#include "machines/cm5/streams.hpp"

namespace {

using mppnet::machines::cm5::DataNetwork;
using mppnet::machines::cm5::DataNetworkParams;

// Uniform random 5-word messages on both sides at `raw` MB/s per node offered (20 MB/s = 1 nibble a
// cycle; a message to a random node of a 16K machine is about 51 nibbles).
void BM_Cm5DataNetworkUniform(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const double raw = static_cast<double>(state.range(1)) / 10;
  const double messages_per_cycle = raw / 20 / 51;
  double node_cycles = 0, delivered = 0;
  for (auto _ : state) {
    DataNetworkParams p;
    p.nodes = nodes;
    DataNetwork net(p);
    const auto r = mppnet::machines::cm5::run_uniform(net, messages_per_cycle, 5, 3000, 1);
    node_cycles += static_cast<double>(nodes) * 3000;
    delivered += r.raw_mb_per_s() / nodes;
  }
  state.counters["node_cycles/s"] = benchmark::Counter(node_cycles, benchmark::Counter::kIsRate);
  state.counters["raw_MB/s/node"] = benchmark::Counter(delivered, benchmark::Counter::kAvgIterations);
}
// 16K nodes: uniform traffic saturates near 3.6 MB/s raw delivered per node (offered 6 and 8 MB/s
// deliver 3.59 and 3.61), so 1.8 is half saturation; 3.6 runs at saturation.
BENCHMARK(BM_Cm5DataNetworkUniform)->Args({16384, 18})->Args({16384, 36})->Unit(benchmark::kMillisecond);

}  // namespace
