// workload/apps/app_keys.cpp: one declaration per field of AppParams.
#include "workload/apps/app_keys.hpp"

namespace mppnet::workload::apps {

std::vector<io::Key<AppParams>> app_keys() {
  using io::in_range;
  using io::key;
  using io::one_of;
  return {
      key("alltoall_bytes", &AppParams::alltoall_bytes, in_range(1, 1 << 20),
          "alltoall: bytes every node sends to every other node."),
      key("alltoall_schedule", &AppParams::alltoall_schedule, one_of({"shift", "xor"}),
          "alltoall: the order of partners: shift (round r to node i + r mod P) or xor (round r to node i "
          "XOR r, skipped beyond P: each round's pairs meet at one level of a tree)."),
      key("counter_increments", &AppParams::counter_increments, in_range(1, 1 << 20),
          "counter: fetch-and-add operations per node."),
      key("counter_home", &AppParams::counter_home, in_range(0, 1 << 22),
          "counter: the node that holds the shared counter."),
      key("permutation_rounds", &AppParams::permutation_rounds, in_range(1, 1 << 16),
          "permutation: rounds, each a random derangement of the nodes drawn from the seed."),
      key("permutation_bytes", &AppParams::permutation_bytes, in_range(1, 1 << 16),
          "permutation: bytes every node sends to its partner in each round."),
      key("stencil_edge", &AppParams::stencil_edge, in_range(1, 256),
          "stencil2d/3d: cells per side of each node's block; a face is 8 x edge^(dims-1) bytes."),
      key("stencil_iterations", &AppParams::stencil_iterations, in_range(1, 1 << 16),
          "stencil2d/3d: Jacobi iterations, each a halo exchange with every grid neighbour."),
      key("samplesort_keys", &AppParams::samplesort_keys, in_range(1, 1 << 20),
          "samplesort: 64-bit keys per node."),
      key("samplesort_samples", &AppParams::samplesort_samples, in_range(1, 1024),
          "samplesort: keys each node contributes to the choice of splitters."),
      key("radixsort_keys", &AppParams::radixsort_keys, in_range(1, 1 << 20),
          "radixsort: 64-bit keys per node."),
      key("radixsort_bits", &AppParams::radixsort_bits, in_range(1, 8),
          "radixsort: key bits sorted per pass (64 / bits passes, rounded up)."),
      key("fft_points", &AppParams::fft_points, in_range(1, 1 << 24),
          "fft: points of the transform: a multiple of P^2 (transpose) or a power of two >= P (binary "
          "exchange)."),
      key("fft_algorithm", &AppParams::fft_algorithm, one_of({"auto", "transpose", "binary_exchange"}),
          "fft: transpose (four-step, one all-to-all), binary_exchange (log2 P exchanges with partners), or "
          "auto: transpose when app.fft_points is a multiple of P^2."),
      key("fft_signal", &AppParams::fft_signal, one_of({"random", "impulse", "tone"}),
          "fft: input: random (from the seed), impulse (x[0] = 1) or tone (frequency app.fft_tone)."),
      key("fft_tone", &AppParams::fft_tone, in_range(0, 1 << 24),
          "fft: frequency of the tone signal, in cycles per transform."),
      key("getput_bytes", &AppParams::getput_bytes, in_range(1, 1 << 20),
          "getput: bytes per put and per get in the bandwidth phase."),
      key("getput_repeats", &AppParams::getput_repeats, in_range(1, 1 << 16),
          "getput: puts, then gets, each node issues in the bandwidth phase."),
      key("getput_distance", &AppParams::getput_distance, in_range(1, 1 << 22),
          "getput: node i puts to and gets from node (i + distance) mod P."),
  };
}

}  // namespace mppnet::workload::apps
