// workload/apps/radix_sort.cpp: parallel LSD radix sort of 64-bit keys.
//
// Every node holds n keys; a pass sorts by the next b bits (app.radixsort_bits), least significant
// first, 64 / b passes (rounded up). In a pass:
// 1. every node counting-sorts its keys by digit into its send buffer (stable) and counts them per digit;
// 2. the global start of (digit v, node j) in the order of the pass (digit-major, then node order, which
//    keeps the sort stable) is the keys of smaller digits on every node plus the keys of v on nodes below
//    j: a sum over all nodes (reduce) and an exclusive prefix sum (scan) of each digit's count. Counts are
//    packed into lanes of one 64-bit operand, as many as fit a lane that holds P n, so that a pass takes
//    2 ceil(2^b / lanes) collectives: hardware scans on a CM-5, a software tree elsewhere. No node holds
//    more than its own counts, whatever P;
// 3. the keys of digit v on node j go to global positions [start, start + count): to node g / n, slot
//    g mod n. Every node then holds exactly n keys again, the pass's output.
// After the last pass node i holds global positions [i n, (i + 1) n) of the sorted order.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/counted_store.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"
#include "workload/apps/sort_keys.hpp"

namespace mppnet::workload::apps {

namespace {

constexpr int kKeysTag = 0;

struct RadixSortNode {
  ArrivalCounters arrivals;
  std::vector<std::uint32_t> count;  // per digit, sized up front
  std::uint32_t keys = 0, send = 0, histogram = 0, starts = 0;
};

}  // namespace

void check_radix_sort(const AppParams& params, int p, const am::AmParams& am) {
  const int n = params.radixsort_keys, bits = params.radixsort_bits;
  if (static_cast<std::int64_t>(p) * n > 0xffffffffLL)
    throw AppParamError("app.radixsort_keys",
                        fmt::format("{} nodes x {} keys is more than 2^32 keys in all", p, n));
  const std::uint64_t need = radixsort_memory_bytes(n, bits);
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.radixsort_keys",
        fmt::format("radixsort needs {} bytes of memory per node (16 x app.radixsort_keys + 8 x "
                    "2^app.radixsort_bits + 64); am.memory_bytes is {}",
                    need, am.memory_bytes));
}

AppResult run_radix_sort(am::Machine& m, const AppParams& params, std::uint64_t seed,
                         const ProgressSink& progress) {
  const int p = m.nodes();
  check_radix_sort(params, p, m.params());
  const int n = params.radixsort_keys, bits = params.radixsort_bits;
  const int digits = 1 << bits, passes = (64 + bits - 1) / bits;
  // A lane holds any sum of counts (at most P n < 2^32 keys, check_radix_sort), so lanes never carry.
  const int lane_bits = std::bit_width(static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(n));
  const auto lanes = static_cast<std::uint32_t>(64 / lane_bits);
  std::vector<RadixSortNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    st[v].count.resize(digits);
  }
  m.attach(st);
  // Summed over the passes. Counting and scattering keys is local computation (not charged).
  PhaseTimer phases(p, {"scans of the digit counts", "redistribute keys"}, progress);
  m.run([n, bits, digits, passes, lane_bits, lanes, seed, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<RadixSortNode>();
    const auto lane = [lane_bits](std::uint64_t packed, int shift) {
      return (packed >> shift) & ((std::uint64_t{1} << lane_bits) - 1);
    };
    const auto un = static_cast<std::uint32_t>(n), ud = static_cast<std::uint32_t>(digits);
    s.keys = node.allocate(8 * un);
    s.send = node.allocate(8 * un);
    s.histogram = node.allocate(4 * ud);
    s.starts = node.allocate(4 * ud);
    const std::vector<std::uint64_t> input = sort_input(seed, node.id(), n);
    for (std::uint32_t i = 0; i < un; ++i) node.store_local(s.keys + 8 * i, input[i]);

    for (int pass = 0; pass < passes; ++pass) {
      const int shift = pass * bits;
      auto digit = [&](std::uint64_t k) { return static_cast<std::uint32_t>((k >> shift) & (ud - 1)); };
      // 1. Stable counting sort into the send buffer.
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
      // 2. Global start of (digit v, this node) = keys of smaller digits + keys of v on nodes below.
      std::uint64_t smaller_digits = 0;
      for (std::uint32_t v0 = 0; v0 < ud; v0 += lanes) {
        const std::uint32_t end = std::min(ud, v0 + lanes);
        std::uint64_t packed = 0;
        for (std::uint32_t v = v0; v < end; ++v)
          packed |= std::uint64_t{node.load<std::uint32_t>(s.histogram + 4 * v)} << (lane_bits * (v - v0));
        const std::uint64_t below = co_await node.scan(packed, am::ReduceOp::Sum, false);
        const std::uint64_t total = co_await node.reduce(packed, am::ReduceOp::Sum);
        for (std::uint32_t v = v0; v < end; ++v) {
          const int at_bit = lane_bits * static_cast<int>(v - v0);
          node.store_local(s.starts + 4 * v,
                           static_cast<std::uint32_t>(smaller_digits + lane(below, at_bit)));
          smaller_digits += lane(total, at_bit);
        }
      }
      // 3. Digit v's keys are send[first, first + c) locally (the counting sort left count[v] at its
      // end) and [start, start + c) globally; split at node boundaries. Node j begins with digit
      // j mod 2^b: were all to begin with digit 0, every node would send to the same few nodes at once.
      phases.enter(node, 1);
      for (std::uint32_t i = 0; i < ud; ++i) {
        const std::uint32_t v = (i + static_cast<std::uint32_t>(node.id())) % ud;
        const std::uint32_t c = node.load<std::uint32_t>(s.histogram + 4 * v), first = s.count[v] - c;
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
