// workload/apps/fft_binary_exchange.cpp: the binary-exchange FFT, radix-2 butterflies over the nodes.
//
// N = P m points, P and m powers of two; node v holds x[v m + l], l < m. On a machine whose size is not
// a power of two, P is the largest power of two below it and the nodes from P on idle. A
// decimation-in-frequency radix-2 FFT (Kumar, Grama, Gupta and Karypis, "Introduction to Parallel Computing",
// 1994, §10.2) takes log2 N stages of half-size h = N / 2, N / 4, ..., 1: each pair (j, j + h) with bit h of
// j clear becomes (a + b, (a - b) W_2h^(j mod h)). While h >= m the pair lies on nodes v and v xor (h / m):
// both send their whole block to the other and keep their own half of the results; the last log2 m stages are
// local. Point j then holds X[bitrev(j)].
//
// Different stages have different partners, so a partner may be stages ahead: each stage's data has a
// receive area and an arrival count of its own (counted stores, tag = stage).
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/counted_store.hpp"
#include "workload/apps/fft.hpp"
#include "workload/apps/fft_kernel.hpp"
#include "workload/apps/phases.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::workload::apps {

namespace {

using fft_kernel::Complex;
using fft_kernel::load;
using fft_kernel::root;
using fft_kernel::store;

struct ExchangeNode {
  ArrivalCounters arrivals;
  std::uint32_t data = 0, receive = 0;  // receive: one area of m points per exchange stage
};

std::int64_t bit_reversed(std::int64_t j, int bits) {
  std::int64_t r = 0;
  for (int b = 0; b < bits; ++b) r |= ((j >> b) & 1) << (bits - 1 - b);
  return r;
}

// A tag per exchange: log2 P' <= 30 for any int P.
static_assert(ArrivalCounters::kTags >= 30);

}  // namespace

void check_binary_exchange_fft(const AppParams& params, int p, const am::AmParams& am) {
  const int n = params.fft_points, q = fft_exchange_nodes(p);
  if (!std::has_single_bit(static_cast<unsigned>(n)) || n < q) {
    const std::int64_t try_points = std::max<std::int64_t>(q, std::bit_ceil(static_cast<unsigned>(n)));
    const bool auto_choice = params.fft_algorithm == FftAlgorithm::Auto;
    throw AppParamError(
        "app.fft_points",
        fmt::format(
            "{} points: the binary exchange needs a power of two of at least {} (try {}){}", n,
            q == p ? fmt::format("P = {}", p)
                   : fmt::format("{}, the nodes of this machine's {} that take part", q, p),
            try_points,
            auto_choice && static_cast<std::int64_t>(p) * p <= kMaxFftPoints
                ? fmt::format(", the transpose a multiple of P^2 = {}", static_cast<std::int64_t>(p) * p)
                : std::string()));
  }
  if (const std::uint64_t need = fft_exchange_memory_bytes(p, n);
      need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError("app.fft_points",
                        fmt::format("the binary exchange needs {} bytes of memory per node (16 x "
                                    "app.fft_points / P' x (1 + log2 P') + 64, P' the nodes that take part); "
                                    "am.memory_bytes is {}",
                                    need, am.memory_bytes));
}

FftRun run_binary_exchange_fft(am::Machine& m, const AppParams& params, const std::vector<Complex>& x,
                               const ProgressSink& progress) {
  const int p = fft_exchange_nodes(m.nodes()), n = params.fft_points;
  const int points = n / p, exchanges = std::countr_zero(static_cast<unsigned>(p));
  std::vector<ExchangeNode> st(m.nodes());
  m.attach(st);
  // The butterflies are local computation (not charged): the local stages' phase shows zero time.
  PhaseTimer phases(m.nodes(), {"exchanges: send", "exchanges: wait", "local stages"}, progress);
  m.run([p, points, exchanges, &x, &phases](am::Node& node) -> am::Task<> {
    if (node.id() >= p) {
      phases.end(node);
      co_return;
    }
    auto& s = node.state<ExchangeNode>();
    const auto um = static_cast<std::uint32_t>(points);
    s.data = node.allocate(16 * um);
    s.receive = node.allocate(16 * um * static_cast<std::uint32_t>(exchanges));
    const std::int64_t base = static_cast<std::int64_t>(node.id()) * points;
    for (int l = 0; l < points; ++l) store(node, s.data, l, x[base + l]);
    for (int e = 0; e < exchanges; ++e) {
      const int h_nodes = p >> (e + 1);  // h / m: the partner differs in this bit
      const std::int64_t h = static_cast<std::int64_t>(h_nodes) * points;
      const NodeId partner = node.id() ^ h_nodes;
      const std::uint32_t area = s.receive + 16 * um * static_cast<std::uint32_t>(e);
      phases.enter(node, 0);
      co_await counted_store<ExchangeNode>(node, partner, s.data, area, 16 * um, e);
      phases.tick(node);
      phases.enter(node, 1);
      co_await counted_sync<ExchangeNode>(node, e, 16ll * points);
      const bool upper = (node.id() & h_nodes) != 0;
      for (int l = 0; l < points; ++l) {
        const Complex mine = load(node, s.data, l), theirs = load(node, area, l);
        const std::int64_t low = (upper ? base - h : base) + l;  // the pair's lower index j
        store(node, s.data, l, upper ? (theirs - mine) * root(low % h, 2 * h) : mine + theirs);
      }
    }
    phases.enter(node, 2);
    for (std::int64_t h = points / 2; h >= 1; h /= 2)
      for (std::int64_t j = 0; j < points; ++j) {
        if ((j & h) != 0) continue;
        const Complex a = load(node, s.data, j), b = load(node, s.data, j + h);
        store(node, s.data, j, a + b);
        store(node, s.data, j + h, (a - b) * root(j % h, 2 * h));
      }
    phases.end(node);
  });

  FftRun out;
  out.spectrum.resize(n);
  const int bits = std::countr_zero(static_cast<unsigned>(n));
  for (NodeId v = 0; v < p; ++v)
    for (int l = 0; l < points; ++l) {
      const std::int64_t j = static_cast<std::int64_t>(v) * points + l;
      out.spectrum[bit_reversed(j, bits)] = load(m.node(v), st[v].data, l);
    }
  AppResult& r = out.result;
  r.phases = phases.phases();
  r.ends = phases.ends();
  const double worst = fft_kernel::check_spectrum(
      x, out.spectrum,
      m.nodes() == p
          ? fmt::format("(binary exchange over {} nodes, {} exchanges)", p, exchanges)
          : fmt::format("(binary exchange over {} of the {} nodes, {} exchanges)", p, m.nodes(), exchanges),
      r);
  r.metrics.push_back({"points", n});
  r.metrics.push_back({"exchanges", exchanges});
  r.metrics.push_back({"max_error", worst});
  return out;
}

}  // namespace mppnet::workload::apps
