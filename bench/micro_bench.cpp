// bench/micro_bench.cpp: Google Benchmark micro-benchmarks of the hot paths.
#include <benchmark/benchmark.h>

#include "core/calendar_queue.hpp"
#include "core/rng.hpp"
#include "exp/fixed_run.hpp"
#include "exp/foundation_validation.hpp"
#include "net/vc_alloc.hpp"

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

// The VC allocators (router.vc_allocator x router.vc_choice) on the 8x8 mesh at load 0.4, where VC
// allocation is busy: the general router runs every one of them.
void BM_Mesh8x8VcAllocator(benchmark::State& state) {
  mppnet::exp::ExperimentConfig cfg = mppnet::exp::mesh_8x8_config();
  cfg.router.vc_allocator = static_cast<mppnet::net::VcAllocatorKind>(state.range(0));
  cfg.router.vc_choice = static_cast<mppnet::net::VcChoice>(state.range(1));
  run_network(state, cfg, 0.4, 20000);
}
BENCHMARK(BM_Mesh8x8VcAllocator)
    ->ArgsProduct({{1, 2, 3}, {0, 1, 2}})
    ->ArgNames({"allocator", "choice"})
    ->Unit(benchmark::kMillisecond);

// One allocation of a full request matrix: a 5-port router with 4 VCs per port, every input VC waiting
// with two candidate ports whose VCs are all free (the most contended case).
void BM_VcAllocateMatrix(benchmark::State& state) {
  namespace va = mppnet::net::vc_alloc;
  constexpr int kPorts = 5, kVcs = 4, kN = kPorts * kVcs;
  std::vector<va::Request> requests;
  std::vector<va::Candidate> candidates;
  for (int i = 0; i < kN; ++i) {
    const int first = static_cast<int>(candidates.size());
    const int a = (i / kVcs + 1) % kPorts, b = (i / kVcs + 2) % kPorts;
    for (int port : {std::min(a, b), std::max(a, b)})
      candidates.push_back({0xf, 0, static_cast<std::uint8_t>(port), -1});
    requests.push_back({static_cast<std::int16_t>(i), first, 2, false});
  }
  std::vector<std::int32_t> claim(kN, -1), dist(kN), listed(kN);
  std::vector<std::uint64_t> cells(kN * mppnet::topo::kMaxRouteCandidates);
  std::vector<va::Grant> grants(kN);
  std::uint16_t input_rr = 0;
  std::uint8_t vc_rr[kPorts] = {};
  mppnet::core::RandomStream rng(1, 4, mppnet::core::Stream::RouteChoice);
  const va::RouterView view{kVcs,      kN,    static_cast<mppnet::net::VcChoice>(state.range(1)),
                            &input_rr, vc_rr, &rng};
  const va::Scratch scratch{claim.data(), dist.data(), listed.data(), cells.data()};
  const va::Allocate allocate = va::allocator_for(static_cast<mppnet::net::VcAllocatorKind>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(allocate(view, requests, candidates, scratch, grants.data()));
}
BENCHMARK(BM_VcAllocateMatrix)->ArgsProduct({{1, 2, 3}, {0, 1, 2}})->ArgNames({"allocator", "choice"});

}  // namespace
