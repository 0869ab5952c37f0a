// workload/apps/registry.cpp: the list of applications.
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

const std::vector<AppInfo>& applications() {
  static const std::vector<AppInfo> list = {
      {"alltoall",
       "All-to-all personalised exchange: every node stores a distinct block in every other node.",
       {"app.alltoall_bytes", "app.alltoall_schedule"},
       &check_alltoall,
       &run_alltoall,
       &alltoall_messages},
      {"counter",
       "Shared counter: every node fetch-and-adds 1 on one node's counter, one request at a time.",
       {"app.counter_increments", "app.counter_home"},
       &check_shared_counter,
       &run_shared_counter,
       &counter_messages},
      {"permutation",
       "Random permutations: each round every node sends a block to its partner in a derangement drawn "
       "from the seed.",
       {"app.permutation_rounds", "app.permutation_bytes"},
       &check_permutations,
       &run_permutations,
       &permutation_messages},
      {"stencil2d",
       "2-D nearest-neighbour stencil: Jacobi iterations with halo exchange on a near-square grid of nodes.",
       {"app.stencil_edge", "app.stencil_iterations"},
       &check_stencil2d,
       &run_stencil2d,
       &stencil2d_messages},
      {"stencil3d",
       "3-D nearest-neighbour stencil: Jacobi iterations with halo exchange on a near-cube grid of nodes.",
       {"app.stencil_edge", "app.stencil_iterations"},
       &check_stencil3d,
       &run_stencil3d,
       &stencil3d_messages},
      {"samplesort",
       "Sample sort of 64-bit keys: random samples choose splitters, then every nonempty bucket to its node.",
       {"app.samplesort_keys", "app.samplesort_samples"},
       &check_sample_sort,
       &run_sample_sort,
       &samplesort_messages},
      {"radixsort",
       "LSD radix sort of 64-bit keys: per pass scans of the digit counts and a redistribution of all keys.",
       {"app.radixsort_keys", "app.radixsort_bits"},
       &check_radix_sort,
       &run_radix_sort,
       &radixsort_messages},
      {"fft",
       "1-D FFT of complex doubles, transpose (four-step) or binary exchange, checked against a direct DFT.",
       {"app.fft_points", "app.fft_algorithm", "app.fft_signal", "app.fft_tone"},
       &check_fft,
       &run_fft,
       &fft_messages},
      {"getput",
       "Split-C style get/put benchmark: idle one-word round trips, then per-node put and get bandwidth.",
       {"app.getput_bytes", "app.getput_repeats", "app.getput_distance"},
       &check_getput,
       &run_getput,
       &getput_messages},
  };
  return list;
}

const AppInfo* find_application(std::string_view name) {
  for (const auto& a : applications())
    if (a.name == name) return &a;
  return nullptr;
}

AppResult run_application(const AppInfo& app, const topo::TopologyParams& topology,
                          const net::RouterParams& router, const am::AmParams& am, const AppParams& params,
                          std::uint64_t seed, std::int64_t watchdog_cycles, const ProgressSink& progress) {
  am::SimulatedMachine sim(topology, router, am, seed, watchdog_cycles);
  return run_application_on(app, sim.machine, params, seed, progress);
}

AppResult run_application_on(const AppInfo& app, am::Machine& machine, const AppParams& params,
                             std::uint64_t seed, const ProgressSink& progress) {
  AppResult r = app.run(machine, params, seed, progress);
  r.nodes = machine.nodes();
  r.totals = machine.totals();
  r.collectives_path = machine.collectives().path();
  return r;
}

}  // namespace mppnet::workload::apps
