// workload/apps/fft_kernel.hpp: what the two FFT algorithms share: roots of unity, the local
// transform, complex points in node memory, and the check of a spectrum against a direct DFT.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "am/node.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps::fft_kernel {

using Complex = std::complex<double>;

// exp(-2 pi i e / n), with e reduced first so that the angle stays accurate.
Complex root(std::int64_t e, std::int64_t n);

// The DFT of `data` in place; `work` holds at least data.size() points. Radix 2 when the length is a
// power of two, a direct DFT otherwise.
void transform(std::span<Complex> data, std::vector<Complex>& work);

inline bool is_power_of_two(std::int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

inline Complex load(am::Node& node, std::uint32_t base, std::int64_t i) {
  return node.load<Complex>(base + 16 * static_cast<std::uint32_t>(i));
}
inline void store(am::Node& node, std::uint32_t base, std::int64_t i, Complex v) {
  node.store_local(base + 16 * static_cast<std::uint32_t>(i), v);
}

// Compares `spectrum` with a direct DFT of `x` (every frequency up to 4096 points, about 1024 evenly
// spread ones above), fills r.passed and r.check ("<points> points <how> agree with ...") and returns
// the largest difference.
double check_spectrum(const std::vector<Complex>& x, const std::vector<Complex>& spectrum,
                      const std::string& how, AppResult& r);

}  // namespace mppnet::workload::apps::fft_kernel
