// workload/apps/sized_defaults.hpp: the memory each application needs per node, and defaults that fit
// the machine they run on.
//
// An application's defaults ([app] table) suit a machine of up to 64 nodes. On a larger one, a default
// may not fit: alltoall's receive area grows with P, node 0 gathers P sets of samples, and
// the FFT needs a multiple of P^2 points. A value the user set is kept and, if it does not fit, refused
// with the reason (the application's own check); a default that does not fit is replaced by the nearest
// value that does, and the run says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/apps/app_params.hpp"

namespace mppnet::workload::apps {

// Bytes of node memory per node, as each application allocates it (the applications check with these).
std::uint64_t alltoall_memory_bytes(int nodes, int bytes);
std::uint64_t samplesort_memory_bytes(int nodes, int keys, int samples);
std::uint64_t radixsort_memory_bytes(int keys, int bits);
std::uint64_t fft_memory_bytes(int nodes, int points);           // the transpose
std::uint64_t fft_exchange_memory_bytes(int nodes, int points);  // the binary exchange

// The smallest number of points at or above `at_least` that the FFT accepts on `nodes` nodes, or 0 if
// there is none up to 2^24 (fft.cpp): for the transpose a multiple of P^2 whose local transforms are
// fast, for the binary exchange a power of two >= P; auto tries the transpose first.
int fft_points_at_least(int at_least, int nodes, FftAlgorithm algorithm);

struct DefaultChange {
  std::string key;     // "app.samplesort_samples"
  long long value;     // the value used
  std::string reason;  // why the default was not used
};

// Replaces the defaults of application `app` that do not fit `nodes` nodes of `memory_bytes` each, leaving
// every key in `set_keys` (the keys the user set) as it is. Returns what it changed.
std::vector<DefaultChange> fit_defaults(const std::string& app, AppParams& params, int nodes,
                                        std::int64_t memory_bytes, const std::vector<std::string>& set_keys);

}  // namespace mppnet::workload::apps
