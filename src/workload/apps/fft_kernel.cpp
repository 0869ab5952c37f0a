// workload/apps/fft_kernel.cpp: roots of unity, the local transform and the spectrum check.
#include "workload/apps/fft_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

namespace mppnet::workload::apps::fft_kernel {

Complex root(std::int64_t e, std::int64_t n) {
  return std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(e % n) / static_cast<double>(n));
}

void transform(std::span<Complex> data, std::vector<Complex>& work) {
  const auto n = static_cast<std::int64_t>(data.size());
  if ((n & (n - 1)) != 0) {
    for (std::int64_t k = 0; k < n; ++k) {
      Complex s = 0;
      for (std::int64_t j = 0; j < n; ++j) s += data[j] * root(j * k, n);
      work[k] = s;
    }
    std::copy(work.begin(), work.begin() + n, data.begin());
    return;
  }
  for (std::int64_t i = 1, j = 0; i < n; ++i) {  // bit reversal
    std::int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  for (std::int64_t len = 2; len <= n; len <<= 1)
    for (std::int64_t i = 0; i < n; i += len)
      for (std::int64_t j = 0; j < len / 2; ++j) {
        const Complex u = data[i + j], v = data[i + j + len / 2] * root(j, len);
        data[i + j] = u + v;
        data[i + j + len / 2] = u - v;
      }
}

double check_spectrum(const std::vector<Complex>& x, const std::vector<Complex>& spectrum,
                      const std::string& how, AppResult& r) {
  const int n = static_cast<int>(x.size());
  // Direct DFT at every frequency up to 4096 points, at about 1024 evenly spread ones above. Both
  // results carry rounding errors of order 1e-16 N sum|x|; 1e-9 sum|x| leaves a wide margin and still
  // catches any misplaced point (each is worth |x_j| ~ sum|x| / N >> 1e-9 sum|x| for N below 1e8).
  double magnitude = 0;
  for (const Complex& v : x) magnitude += std::abs(v);
  const double tolerance = 1e-9 * magnitude;
  const int stride = n <= 4096 ? 1 : n / 1024;
  std::vector<Complex> w(n);
  for (int e = 0; e < n; ++e) w[e] = root(e, n);
  r.passed = true;
  double worst = 0;
  int checked = 0;
  for (int k = 0; k < n && r.passed; k += stride, ++checked) {
    Complex want = 0;
    for (std::int64_t j = 0; j < n; ++j) want += x[j] * w[(j * k) % n];
    const double error = std::abs(spectrum[k] - want);
    worst = std::max(worst, error);
    if (error <= tolerance) continue;
    r.passed = false;
    r.check =
        fmt::format("X[{}] = {} + {}i, the direct DFT gives {} + {}i (difference {:.3g}, tolerance {:.3g})",
                    k, spectrum[k].real(), spectrum[k].imag(), want.real(), want.imag(), error, tolerance);
  }
  if (r.passed)
    r.check = fmt::format(
        "{} points {} agree with a direct DFT at {} frequencies (largest difference {:.3g}, tolerance "
        "1e-9 x sum|x| = {:.3g})",
        n, how, checked, worst, tolerance);
  return worst;
}

}  // namespace mppnet::workload::apps::fft_kernel
