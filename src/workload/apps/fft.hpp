// workload/apps/fft.hpp: the transpose FFT application, with its spectrum for tests.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "am/simulated_machine.hpp"
#include "workload/apps/app_params.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

// The input signal of app.fft_signal, N = app.fft_points points.
std::vector<std::complex<double>> fft_input(const AppParams& params, std::uint64_t seed);

struct FftRun {
  AppResult result;
  std::vector<std::complex<double>> spectrum;  // X[k], gathered from the nodes in natural order
};

// Runs the application and gathers its output. REQUIRES: the machine has not run yet.
FftRun run_fft_spectrum(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress = {});

}  // namespace mppnet::workload::apps
