// workload/apps/app_params.hpp: the parameters of the applications ([app] table), one group per app.
#pragma once

#include "core/all_to_all_order.hpp"

namespace mppnet::workload::apps {

// fft: the input signal. Random is drawn from the seed; Impulse is x[0] = 1; Tone is
// x[j] = exp(2 pi i f j / N) with f = fft_tone.
enum class FftSignal { Random, Impulse, Tone };

// fft: Transpose is the four-step algorithm (N a multiple of P^2, one all-to-all); BinaryExchange the
// radix-2 butterflies over the nodes (N a power of two, at least the largest power of two P' <= P, on
// P' nodes while the others idle: log2 P' exchanges with partners);
// Auto takes the transpose when N is a multiple of P^2 and the binary exchange otherwise.
enum class FftAlgorithm { Auto, Transpose, BinaryExchange };

// alltoall: the order of each node's partners (core/all_to_all_order.hpp): shift, round r to node
// (i + r) mod P, or xor, round r to node i XOR r.
using AlltoallSchedule = core::AllToAllOrder;

struct AppParams {
  // alltoall: every node sends this many bytes to every other node, in the order of the schedule.
  int alltoall_bytes = 64;
  AlltoallSchedule alltoall_schedule = AlltoallSchedule::Shift;
  // counter: fetch-and-add operations per node, on a counter held by node counter_home.
  int counter_increments = 8;
  int counter_home = 0;
  // permutation: rounds, each a random derangement of the nodes; bytes each node sends per round.
  int permutation_rounds = 8;
  int permutation_bytes = 32;
  // stencil2d / stencil3d: cells per side of each node's block (a face is 8 x edge^(dims-1) bytes),
  // and Jacobi iterations.
  int stencil_edge = 4;
  int stencil_iterations = 4;
  // samplesort: keys per node; samples each node contributes to the choice of splitters.
  int samplesort_keys = 256;
  int samplesort_samples = 8;
  // radixsort: keys per node; bits of the key sorted per pass.
  int radixsort_keys = 256;
  int radixsort_bits = 4;
  // fft: points of the transform, the algorithm, the signal, and the tone's frequency.
  int fft_points = 4096;
  FftAlgorithm fft_algorithm = FftAlgorithm::Auto;
  FftSignal fft_signal = FftSignal::Random;
  int fft_tone = 1;
  // getput: bytes per put and per get, transfers of each per node, and the partner (node i + distance).
  int getput_bytes = 256;
  int getput_repeats = 4;
  int getput_distance = 1;
};

}  // namespace mppnet::workload::apps
