// workload/apps/fft.cpp: the FFT application: which algorithm runs, the transpose's checks and sizes,
// and the transpose-based 1-D FFT of complex doubles (the four-step algorithm; the binary exchange is in
// fft_binary_exchange.cpp).
//
// With N = N1 N2, j = j1 + N1 j2 and k = k2 + N2 k1 (Bailey, "FFTs in external or hierarchical memory",
// 1990):   X[k2 + N2 k1] = sum_j1 W_N1^(j1 k1) W_N^(j1 k2) sum_j2 W_N2^(j2 k2) x[j1 + N1 j2].
// Node p holds rows j1 in [p r, (p + 1) r), r = N1 / P, each the N2 points x[j1 + N1 j2]. It transforms
// its rows (length N2), multiplies by the twiddles W_N^(j1 k2), and an all-to-all transpose gives node q
// the columns k2 in [q c, (q + 1) c), c = N2 / P, of every row; it transforms them (length N1) and holds
// X[k2 + N2 k1] for its k2 and every k1. The transpose is one store of r c points to every other node.
//
// N must be a multiple of P^2 so that P divides both N1 and N2; N1 is the multiple of P closest to
// sqrt(N). Local transforms are radix-2 when their length is a power of two, direct DFTs otherwise (of
// at most kMaxDirectLength points: a shape that needs a longer one is rejected at app.fft_points).
// Local arithmetic is not charged to the processors: the simulated time is communication and message
// handling.
#include "workload/apps/fft.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "am/node.hpp"
#include "core/rng.hpp"
#include "workload/apps/fft_kernel.hpp"
#include "workload/apps/phases.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::workload::apps {

namespace {

using fft_kernel::Complex;
using fft_kernel::load;
using fft_kernel::root;
using fft_kernel::store;
using fft_kernel::transform;

struct Shape {
  int n = 0, n1 = 0, n2 = 0, rows = 0, cols = 0;  // rows = N1 / P, cols = N2 / P
};

// The best split has n1 <= n2 (the condition is symmetric in n1 and n2), so n1 stops at sqrt(n).
Shape shape_for(int n, int p) {
  Shape s;
  s.n = n;
  for (int n1 = p; static_cast<std::int64_t>(n1) * n1 <= n; n1 += p) {
    if (n % n1 != 0 || (n / n1) % p != 0) continue;
    if (s.n1 == 0 || std::abs(n1 - n / n1) < std::abs(s.n1 - s.n2)) {
      s.n1 = n1;
      s.n2 = n / n1;
    }
  }
  s.rows = s.n1 / p;
  s.cols = s.n2 / p;
  return s;
}

// A direct DFT costs L^2 per transform: a local length above this that is not a power of two would run
// for hours (N (N1 + N2) operations), so such shapes are rejected.
constexpr int kMaxDirectLength = 4096;

// The local length that would be a direct DFT longer than kMaxDirectLength, or 0.
int too_slow_length(const Shape& s) {
  for (const int len : {s.n1, s.n2})
    if (!std::has_single_bit(static_cast<unsigned>(len)) && len > kMaxDirectLength) return len;
  return 0;
}

// The largest P^2 x 2^j <= n whose shape is fast, or 0.
int fast_size_below(int n, int p) {
  const std::int64_t p2 = static_cast<std::int64_t>(p) * p;
  std::int64_t m = p2;
  while (m * 2 <= n) m *= 2;
  for (; m >= p2; m /= 2)
    if (too_slow_length(shape_for(static_cast<int>(m), p)) == 0) return static_cast<int>(m);
  return 0;
}

struct FftNode {
  std::vector<Complex> line, work;  // one row or column, sized up front
  std::uint32_t data = 0, send = 0, receive = 0;
};

}  // namespace

std::vector<Complex> fft_input(const AppParams& params, std::uint64_t seed) {
  const int n = params.fft_points;
  std::vector<Complex> x(n, Complex(0, 0));
  switch (params.fft_signal) {
    case FftSignal::Random:
      for (int j = 0; j < n; ++j) {
        core::RandomStream rng(seed, static_cast<std::uint64_t>(j), core::Stream::Setup);
        const double re = 2 * rng.uniform01() - 1;
        x[j] = Complex(re, 2 * rng.uniform01() - 1);
      }
      break;
    case FftSignal::Impulse:
      x[0] = 1;
      break;
    case FftSignal::Tone:
      for (int j = 0; j < n; ++j) x[j] = std::conj(root(static_cast<std::int64_t>(params.fft_tone) * j, n));
      break;
  }
  return x;
}

FftAlgorithm resolved_fft_algorithm(const AppParams& params, int p) {
  if (params.fft_algorithm != FftAlgorithm::Auto) return params.fft_algorithm;
  const std::int64_t p2 = static_cast<std::int64_t>(p) * p;
  const bool transpose = p2 <= kMaxFftPoints && params.fft_points % p2 == 0;
  return transpose ? FftAlgorithm::Transpose : FftAlgorithm::BinaryExchange;
}

int fft_exchange_nodes(int p) {
  return static_cast<int>(std::bit_floor(static_cast<unsigned>(p)));
}

namespace {

void check_transpose(const AppParams& params, int p, const am::AmParams& am) {
  const int n = params.fft_points;
  if (static_cast<std::int64_t>(p) * p > kMaxFftPoints)
    throw AppParamError(
        "app.fft_points",
        fmt::format(
            "the transpose FFT needs a multiple of P^2 = {} points, above app.fft_points' "
            "limit of 16777216: it runs on at most 4096 nodes, this machine has {} (app.fft_algorithm = "
            "\"binary_exchange\" takes a power of two of at least P points)",
            static_cast<std::int64_t>(p) * p, p));
  if (n % (p * p) != 0)
    throw AppParamError("app.fft_points", fmt::format("{} is not a multiple of P^2 = {} x {} = {} (try {})",
                                                      n, p, p, p * p, (n / (p * p) + 1) * p * p));
  const Shape sh = shape_for(n, p);
  if (const int slow = too_slow_length(sh); slow != 0) {
    const int fast = fast_size_below(n, p);
    throw AppParamError(
        "app.fft_points",
        fmt::format(
            "{} points on {} nodes split as {} x {}: a local transform of length {} is not a power of "
            "two and longer than {}, and its direct O(L^2) DFT would take hours{}",
            n, p, sh.n1, sh.n2, slow, kMaxDirectLength,
            fast == 0 ? std::string() : fmt::format(" (try {} = {} x {})", fast, p * p, fast / (p * p))));
  }
  if (const std::uint64_t need = fft_memory_bytes(p, n); need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError("app.fft_points",
                        fmt::format("fft needs {} bytes of memory per node (3 x 16 x app.fft_points / P); "
                                    "am.memory_bytes is {}",
                                    need, am.memory_bytes));
}

}  // namespace

void check_fft(const AppParams& params, int p, const am::AmParams& am) {
  if (resolved_fft_algorithm(params, p) == FftAlgorithm::BinaryExchange)
    check_binary_exchange_fft(params, p, am);
  else
    check_transpose(params, p, am);
}

FftRun run_fft_spectrum(am::Machine& m, const AppParams& params, std::uint64_t seed,
                        const ProgressSink& progress) {
  const int p = m.nodes();
  check_fft(params, p, m.params());
  const std::vector<Complex> x = fft_input(params, seed);
  if (resolved_fft_algorithm(params, p) == FftAlgorithm::BinaryExchange)
    return run_binary_exchange_fft(m, params, x, progress);
  const int n = params.fft_points;
  const Shape sh = shape_for(n, p);
  std::vector<FftNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    st[v].line.resize(std::max(sh.n1, sh.n2));
    st[v].work.resize(std::max(sh.n1, sh.n2));
  }
  m.attach(st);
  // The row and column transforms are local computation (not charged): their phases show zero time.
  PhaseTimer phases(p, {"row transforms", "transpose: send", "transpose: wait", "column transforms"},
                    progress);
  m.run([&sh, &x, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<FftNode>();
    phases.enter(node, 0);
    const int p = node.nodes(), me = node.id();
    const auto points = static_cast<std::uint32_t>(sh.n / p);
    s.data = node.allocate(16 * points);
    s.send = node.allocate(16 * points);
    s.receive = node.allocate(16 * points);
    // Rows j1 = me r + a, points x[j1 + N1 j2] at data[a N2 + j2]. Steps 1 and 2: transform, twiddle.
    for (int a = 0; a < sh.rows; ++a) {
      const std::int64_t j1 = static_cast<std::int64_t>(me) * sh.rows + a;
      for (int j2 = 0; j2 < sh.n2; ++j2) s.line[j2] = x[j1 + static_cast<std::int64_t>(sh.n1) * j2];
      transform({s.line.data(), static_cast<std::size_t>(sh.n2)}, s.work);
      for (int k2 = 0; k2 < sh.n2; ++k2)
        store(node, s.data, a * sh.n2 + k2, s.line[k2] * root(j1 * k2, sh.n));
    }
    // Transpose: the block for node q is rows a, columns k2 = q c + b, packed as send[q r c + a c + b]; it
    // lands in q's receive area at slot me.
    const auto block = static_cast<std::uint32_t>(sh.rows * sh.cols);
    for (int q = 0; q < p; ++q)
      for (int a = 0; a < sh.rows; ++a)
        for (int b = 0; b < sh.cols; ++b)
          store(node, s.send, q * block + a * sh.cols + b, load(node, s.data, a * sh.n2 + q * sh.cols + b));
    phases.enter(node, 1);
    for (int r = 1; r < p; ++r) {
      const int q = (me + r) % p;
      co_await node.store(q, s.send + 16 * block * q, s.receive + 16 * block * me, 16 * block);
      phases.tick(node);
    }
    for (std::uint32_t i = 0; i < block; ++i)
      store(node, s.receive, block * me + i, load(node, s.send, block * me + i));
    phases.enter(node, 2);
    co_await node.store_sync(static_cast<std::int64_t>(p - 1) * 16 * block);
    phases.enter(node, 3);
    // Step 3: column k2 = me c + b gathers j1 = q r + a from slot q; X[k2 + N2 k1] goes to data[b N1 + k1].
    for (int b = 0; b < sh.cols; ++b) {
      for (int q = 0; q < p; ++q)
        for (int a = 0; a < sh.rows; ++a)
          s.line[q * sh.rows + a] = load(node, s.receive, q * block + a * sh.cols + b);
      transform({s.line.data(), static_cast<std::size_t>(sh.n1)}, s.work);
      for (int k1 = 0; k1 < sh.n1; ++k1) store(node, s.data, b * sh.n1 + k1, s.line[k1]);
    }
    phases.end(node);
  });

  FftRun out;
  out.spectrum.resize(n);
  for (NodeId q = 0; q < p; ++q)
    for (int b = 0; b < sh.cols; ++b)
      for (int k1 = 0; k1 < sh.n1; ++k1)
        out.spectrum[(q * sh.cols + b) + static_cast<std::int64_t>(sh.n2) * k1] =
            load(m.node(q), st[q].data, b * sh.n1 + k1);

  AppResult& r = out.result;
  r.phases = phases.phases();
  r.ends = phases.ends();
  const double worst = fft_kernel::check_spectrum(
      x, out.spectrum, fmt::format("as {} x {} (transpose over {} nodes)", sh.n1, sh.n2, p), r);
  r.metrics.push_back({"points", n});
  r.metrics.push_back({"n1", sh.n1});
  r.metrics.push_back({"n2", sh.n2});
  r.metrics.push_back({"max_error", worst});
  return out;
}

int fft_points_at_least(int at_least, int nodes, FftAlgorithm algorithm) {
  if (nodes < 1) return 0;
  const std::int64_t p2 = static_cast<std::int64_t>(nodes) * nodes;
  if (algorithm != FftAlgorithm::BinaryExchange && p2 <= kMaxFftPoints) {
    std::int64_t m = p2;
    while (m < at_least) m *= 2;
    for (; m <= kMaxFftPoints; m *= 2)
      if (too_slow_length(shape_for(static_cast<int>(m), nodes)) == 0) return static_cast<int>(m);
  }
  if (algorithm == FftAlgorithm::Transpose) return 0;
  const std::int64_t m =
      std::bit_ceil(static_cast<std::uint64_t>(std::max(at_least, fft_exchange_nodes(nodes))));
  return m <= kMaxFftPoints ? static_cast<int>(m) : 0;
}

AppResult run_fft(am::Machine& m, const AppParams& params, std::uint64_t seed, const ProgressSink& progress) {
  return run_fft_spectrum(m, params, seed, progress).result;
}

}  // namespace mppnet::workload::apps
