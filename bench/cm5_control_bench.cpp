// bench/cm5_control_bench.cpp: the CM-5 control network model's speed on a 16K-leaf partition (issue 13):
// one reduction, 1,000 pipelined forward scans and one broadcast, each driven as the tests drive it
// (pushes on the leaves, run_until or step, pops on the leaves).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "machines/cm5/control_network.hpp"

namespace {

using mppnet::Cycle;
using mppnet::machines::cm5::BroadcastKind;
using mppnet::machines::cm5::CombineKind;
using mppnet::machines::cm5::CombinePush;
using mppnet::machines::cm5::Combiner;
using mppnet::machines::cm5::ControlNetwork;
using mppnet::machines::cm5::OpClass;

// One 32-bit signed-add reduction over every leaf: push on all, run to the arrival, pop on all. The
// network is built once; each operation starts where the previous one left it (idle).
void BM_Cm5ControlReduce(benchmark::State& state) {
  const int leaves = static_cast<int>(state.range(0));
  ControlNetwork net({.leaves = leaves});
  std::int64_t checksum = 0;
  for (auto _ : state) {
    for (int v = 0; v < leaves; ++v) {
      const CombinePush p{.kind = CombineKind::Reduce,
                          .op = Combiner::AddSigned,
                          .words = {static_cast<std::uint32_t>(v)},
                          .count = 1};
      if (!net.push_combine(v, p)) throw std::logic_error("reduce: an NI FIFO is full");
    }
    const Cycle t = net.slot_time(net.next_slot()) + net.latency_cycles();
    net.run_until(t);
    for (int v = 0; v < leaves; ++v) {
      const auto r = net.pop(v, OpClass::Combine, t);
      if (!r) throw std::logic_error("reduce: a result is missing");
      checksum += r->words[0];
    }
  }
  benchmark::DoNotOptimize(checksum);
  state.SetItemsProcessed(state.iterations());  // items: reductions
  state.counters["leaf_ops/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * leaves, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Cm5ControlReduce)->Arg(16384)->Unit(benchmark::kMicrosecond);

// `scans` forward scans (32-bit signed add) pipelined: every leaf pushes its next scan whenever its NI
// FIFO takes it, the network steps one slot at a time, and every leaf pops what has arrived.
void BM_Cm5ControlPipelinedScans(benchmark::State& state) {
  const int leaves = static_cast<int>(state.range(0));
  const int scans = static_cast<int>(state.range(1));
  std::int64_t slots = 0, checksum = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ControlNetwork net({.leaves = leaves});
    std::vector<int> pushed(static_cast<std::size_t>(leaves), 0), popped(pushed);
    state.ResumeTiming();
    int done = 0;  // leaves with every result popped
    while (done < leaves) {
      const std::int64_t s = net.next_slot();
      for (int v = 0; v < leaves; ++v) {
        while (pushed[v] < scans && net.push_combine(v, {.kind = CombineKind::ForwardScan,
                                                         .op = Combiner::AddSigned,
                                                         .words = {static_cast<std::uint32_t>(pushed[v] + v)},
                                                         .count = 1})) {
          ++pushed[v];
        }
      }
      net.step(s);
      const Cycle now = net.slot_time(s);
      for (int v = 0; v < leaves; ++v) {
        while (auto r = net.pop(v, OpClass::Combine, now)) {
          checksum += r->words[0];
          if (++popped[v] == scans) ++done;
        }
      }
      ++slots;
    }
  }
  benchmark::DoNotOptimize(checksum);
  state.SetItemsProcessed(state.iterations() * scans);  // items: scans
  state.counters["slots"] =
      benchmark::Counter(static_cast<double>(slots), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_Cm5ControlPipelinedScans)->Args({16384, 1000})->Unit(benchmark::kMillisecond);

// A one-word user broadcast from leaf 0: push, run to its arrival, pop on every leaf.
void BM_Cm5ControlBroadcast(benchmark::State& state) {
  const int leaves = static_cast<int>(state.range(0));
  ControlNetwork net({.leaves = leaves});
  std::int64_t checksum = 0;
  std::uint32_t word = 0;
  for (auto _ : state) {
    ++word;
    if (!net.push_broadcast(0, BroadcastKind::User, {&word, 1})) {
      throw std::logic_error("broadcast: the NI FIFO is full");
    }
    const Cycle t = net.slot_time(net.next_slot()) + net.latency_cycles();
    net.run_until(t);
    for (int v = 0; v < leaves; ++v) {
      const auto m = net.pop_broadcast(v, t);
      if (!m) throw std::logic_error("broadcast: a message is missing");
      checksum += m->words[0];
    }
  }
  benchmark::DoNotOptimize(checksum);
  state.SetItemsProcessed(state.iterations());  // items: broadcasts
}
BENCHMARK(BM_Cm5ControlBroadcast)->Arg(16384)->Unit(benchmark::kMicrosecond);

}  // namespace
