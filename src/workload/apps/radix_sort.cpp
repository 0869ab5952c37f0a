// workload/apps/radix_sort.cpp: parallel LSD radix sort of 64-bit keys.
//
// Every node holds n keys; a pass sorts by the next b bits (app.radixsort_bits), least significant
// first, 64 / b passes (rounded up). In a pass:
// 1. every node counting-sorts its keys by digit into its send buffer (stable) and sends its histogram
//    of 2^b counts to node 0;
// 2. node 0 turns the P histograms into every node's starting position per digit in the global order
//    (digit-major, then node order, which keeps the sort stable) and sends each node its 2^b starts;
// 3. the keys of digit v on node j go to global positions [start, start + count): to node g / n, slot
//    g mod n. Every node then holds exactly n keys again, the pass's output.
// After the last pass node i holds global positions [i n, (i + 1) n) of the sorted order.
//
// The three kinds of store are counted under their own tags: histograms of the next pass can reach
// node 0 before its own keys of this pass have all arrived.
#include <algorithm>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/counted_store.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"
#include "workload/apps/sort_keys.hpp"

namespace mppnet::workload::apps {

namespace {

constexpr int kHistogramTag = 0, kStartsTag = 1, kKeysTag = 2;

struct RadixSortNode {
  ArrivalCounters arrivals;
  std::vector<std::uint32_t> count;  // per digit, sized up front
  std::uint32_t keys = 0, send = 0, histogram = 0, histograms = 0, starts = 0;
};

}  // namespace

void check_radix_sort(const AppParams& params, int p, const am::AmParams& am) {
  const int n = params.radixsort_keys, bits = params.radixsort_bits;
  if (static_cast<std::int64_t>(p) * n > 0xffffffffLL)
    throw AppParamError("app.radixsort_keys",
                        fmt::format("{} nodes x {} keys is more than 2^32 keys in all", p, n));
  const std::uint64_t need = radixsort_memory_bytes(p, n, bits);
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.radixsort_keys",
        fmt::format(
            "radixsort needs {} bytes of memory per node (16 x app.radixsort_keys + 4 x 2^radixsort_bits "
            "x (P + 2)); am.memory_bytes is {}",
            need, am.memory_bytes));
}

AppResult run_radix_sort(am::Machine& m, const AppParams& params, std::uint64_t seed,
                         const ProgressSink& progress) {
  const int p = m.nodes();
  check_radix_sort(params, p, m.params());
  const int n = params.radixsort_keys, bits = params.radixsort_bits;
  const int digits = 1 << bits, passes = (64 + bits - 1) / bits;
  std::vector<RadixSortNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    st[v].count.resize(digits);
  }
  m.attach(st);
  // Summed over the passes. Counting and scattering keys is local computation (not charged).
  PhaseTimer phases(p, {"histogram to node 0", "scan and starts from node 0", "redistribute keys"}, progress);
  m.run([n, bits, digits, passes, seed, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<RadixSortNode>();
    const int p = node.nodes();
    const auto un = static_cast<std::uint32_t>(n), ud = static_cast<std::uint32_t>(digits);
    s.keys = node.allocate(8 * un);
    s.send = node.allocate(8 * un);
    s.histogram = node.allocate(4 * ud);
    s.histograms = node.allocate(4 * ud * static_cast<std::uint32_t>(p));  // used at node 0
    s.starts = node.allocate(4 * ud);
    const std::vector<std::uint64_t> input = sort_input(seed, node.id(), n);
    for (std::uint32_t i = 0; i < un; ++i) node.store_local(s.keys + 8 * i, input[i]);

    for (int pass = 0; pass < passes; ++pass) {
      const int shift = pass * bits;
      auto digit = [&](std::uint64_t k) { return static_cast<std::uint32_t>((k >> shift) & (ud - 1)); };
      // 1. Stable counting sort into the send buffer; the histogram goes to node 0.
      phases.enter(node, 0);
      std::fill(s.count.begin(), s.count.end(), 0u);
      for (std::uint32_t i = 0; i < un; ++i) ++s.count[digit(node.load<std::uint64_t>(s.keys + 8 * i))];
      for (std::uint32_t v = 0; v < ud; ++v) node.store_local(s.histogram + 4 * v, s.count[v]);
      std::uint32_t at = 0;
      for (auto& c : s.count) at += std::exchange(c, at);  // now the first local slot of each digit
      for (std::uint32_t i = 0; i < un; ++i) {
        const auto k = node.load<std::uint64_t>(s.keys + 8 * i);
        node.store_local(s.send + 8 * s.count[digit(k)]++, k);
      }
      co_await counted_store<RadixSortNode>(node, 0, s.histogram,
                                            s.histograms + 4 * ud * static_cast<std::uint32_t>(node.id()),
                                            4 * ud, kHistogramTag);
      // 2. Node 0: global start of (digit v, node j) = keys of smaller digits + keys of v on nodes < j.
      phases.enter(node, 1);
      if (node.id() == 0) {
        co_await counted_sync<RadixSortNode>(node, kHistogramTag, 4ll * digits * p);
        std::uint32_t global = 0;
        for (std::uint32_t v = 0; v < ud; ++v)
          for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(p); ++j) {
            const std::uint32_t slot = s.histograms + 4 * (ud * j + v);
            const auto c = node.load<std::uint32_t>(slot);
            node.store_local(slot, global);
            global += c;
          }
        for (NodeId j = 0; j < p; ++j)
          co_await counted_store<RadixSortNode>(
              node, j, s.histograms + 4 * ud * static_cast<std::uint32_t>(j), s.starts, 4 * ud, kStartsTag);
      }
      co_await counted_sync<RadixSortNode>(node, kStartsTag, 4ll * digits);
      // 3. Digit v's keys are send[first, first + c) locally and [start, start + c) globally; split at
      // node boundaries.
      phases.enter(node, 2);
      std::uint32_t first = 0;
      for (std::uint32_t v = 0; v < ud; ++v) {
        const std::uint32_t c = node.load<std::uint32_t>(s.histogram + 4 * v);
        std::uint32_t g = node.load<std::uint32_t>(s.starts + 4 * v), done = 0;
        while (done < c) {
          const NodeId dest = static_cast<NodeId>(g / un);
          const std::uint32_t piece = std::min(c - done, un - g % un);
          co_await counted_store<RadixSortNode>(node, dest, s.send + 8 * (first + done),
                                                s.keys + 8 * (g % un), 8 * piece, kKeysTag);
          done += piece;
          g += piece;
          phases.tick(node);
        }
        first += c;
      }
      co_await counted_sync<RadixSortNode>(node, kKeysTag, 8ll * n);
    }
    phases.end(node);
  });

  AppResult r;
  r.phases = phases.phases();
  r.ends = phases.ends();
  std::vector<std::vector<std::uint64_t>> input(p), output(p);
  for (NodeId v = 0; v < p; ++v) {
    input[v] = sort_input(seed, v, n);
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(n); ++i)
      output[v].push_back(m.node(v).load<std::uint64_t>(st[v].keys + 8 * i));
  }
  r.check = check_sorted_permutation(input, output);
  r.passed = r.check.empty();
  if (r.passed)
    r.check = fmt::format(
        "{} keys ({} per node) sorted in {} passes of {} bits, across the nodes in node order and "
        "a permutation of the input",
        static_cast<std::int64_t>(p) * n, n, passes, bits);
  r.metrics.push_back({"keys_per_node", n});
  r.metrics.push_back({"passes", passes});
  return r;
}

}  // namespace mppnet::workload::apps
