// workload/apps/fft.hpp: the FFT application (transpose or binary exchange), with its spectrum for tests.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "am/simulated_machine.hpp"
#include "workload/apps/app_params.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

// The range of app.fft_points.
constexpr std::int64_t kMaxFftPoints = 1 << 24;

// The input signal of app.fft_signal, N = app.fft_points points.
std::vector<std::complex<double>> fft_input(const AppParams& params, std::uint64_t seed);

struct FftRun {
  AppResult result;
  std::vector<std::complex<double>> spectrum;  // X[k], gathered from the nodes in natural order
};

// Runs the application and gathers its output. REQUIRES: the machine has not run yet.
FftRun run_fft_spectrum(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress = {});

// The algorithm app.fft_algorithm = auto stands for on p nodes: the transpose when app.fft_points is a
// multiple of P^2, the binary exchange otherwise.
FftAlgorithm resolved_fft_algorithm(const AppParams& params, int p);

// The nodes the binary exchange runs on: the largest power of two up to p (the others idle).
int fft_exchange_nodes(int p);

// The binary exchange's parameter checks (fft_binary_exchange.cpp): throws AppParamError.
void check_binary_exchange_fft(const AppParams& params, int p, const am::AmParams& am);
// The binary exchange of input x (fft_binary_exchange.cpp). REQUIRES: check_fft passed for it.
FftRun run_binary_exchange_fft(am::Machine& m, const AppParams& params,
                               const std::vector<std::complex<double>>& x, const ProgressSink& progress);

}  // namespace mppnet::workload::apps
