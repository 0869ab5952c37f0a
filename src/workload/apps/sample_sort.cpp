// workload/apps/sample_sort.cpp: sample sort of 64-bit keys.
//
// 1. Every node sorts its n keys and sends s random samples (positions drawn from the seed) to node 0.
// 2. Node 0 sorts the P s samples and broadcasts the P - 1 splitters at positions (d + 1) s, as one block.
// 3. Every node sends node d the keys in [splitter d - 1, splitter d) of its sorted keys, if there are
//    any; the keys arrive by active messages whose handler appends them (handlers run one at a time, so
//    appending needs no lock). Nobody is told how many keys to expect: with fewer keys per node than
//    nodes most buckets are empty, and a count for every pair would be P^2 messages. Instead every node
//    counts the key messages it sent and received, and the nodes sum sent minus received (a reduction)
//    until the sum is zero (Kirchhoff's counting, as the CM-5's router-done test, here in software). Sent
//    counts are final when a node enters the first reduction and received counts only grow, so a zero sum
//    means every node had all its keys when it gave its count.
// 4. Every node sorts what it received. Node d then holds the d-th range of the global order.
//
// Samples are random rather than regular (PSRS, Shi and Schaeffer 1992): regular samples spread over
// the global order only when s >= P - 1, and with fewer the first and last buckets collect the tails
// of every node (about P n / 2s keys). With random samples a bucket spans s of the P s samples and its
// size varies by about n / sqrt(s). A node's receive area holds 4 n keys; an overflow is reported by
// the check (keys beyond the area are counted, not stored).
#include <algorithm>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/counted_store.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"
#include "workload/apps/sort_keys.hpp"

namespace mppnet::workload::apps {

namespace {

constexpr int kSamplesTag = 0;
constexpr int kReceiveFactor = 4;
constexpr auto kSampleStream = static_cast<core::Stream>(0x53414d50);  // "SAMP", apart from the keys' stream

struct SampleSortNode {
  ArrivalCounters arrivals;
  std::vector<std::uint64_t> scratch;  // host copy for local sorting, sized up front
  std::uint32_t keys = 0, sample = 0, samples = 0, splitters = 0, receive = 0;
  std::int64_t capacity = 0;       // keys the receive area holds
  std::int64_t arrived = 0;        // keys received (stored or not)
  std::int64_t messages_sent = 0;  // key messages sent to other nodes
  std::int64_t messages_got = 0;   // key messages received from other nodes
  std::int64_t overflow = 0;       // keys that did not fit
  int reductions = 0;              // sums of sent minus received until zero
};

void append(am::Node& node, SampleSortNode& s, const std::byte* data, std::int64_t keys) {
  const std::int64_t fit = std::clamp<std::int64_t>(s.capacity - s.arrived, 0, keys);
  std::copy(data, data + 8 * fit, node.memory().begin() + s.receive + 8 * s.arrived);
  s.overflow += keys - fit;
  s.arrived += keys;
}

void on_keys(am::Incoming& in) {
  auto& s = in.node.state<SampleSortNode>();
  append(in.node, s, in.data().data(), static_cast<std::int64_t>(in.data().size() / 8));
  ++s.messages_got;
}

void sort_in_memory(am::Node& node, std::vector<std::uint64_t>& scratch, std::uint32_t addr, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    scratch[i] = node.load<std::uint64_t>(addr + 8 * static_cast<std::uint32_t>(i));
  std::sort(scratch.begin(), scratch.begin() + n);
  for (std::int64_t i = 0; i < n; ++i) node.store_local(addr + 8 * static_cast<std::uint32_t>(i), scratch[i]);
}

}  // namespace

void check_sample_sort(const AppParams& params, int p, const am::AmParams& am) {
  const int n = params.samplesort_keys, samples = params.samplesort_samples;
  if (samples > n)
    throw AppParamError(
        "app.samplesort_samples",
        fmt::format("{} samples per node exceed app.samplesort_keys = {} keys per node", samples, n));
  const std::uint64_t need = samplesort_memory_bytes(p, n, samples);
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.samplesort_keys",
        fmt::format("samplesort needs {} bytes of memory per node (8 x (5 x app.samplesort_keys + (P + 1) x "
                    "app.samplesort_samples + P)); am.memory_bytes is {}",
                    need, am.memory_bytes));
}

AppResult run_sample_sort(am::Machine& m, const AppParams& params, std::uint64_t seed,
                          const ProgressSink& progress) {
  const int p = m.nodes();
  check_sample_sort(params, p, m.params());
  const int n = params.samplesort_keys, samples = params.samplesort_samples;
  std::vector<SampleSortNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    // Every node sorts its keys and what it receives; node 0 also the P s samples.
    const std::size_t sorted = static_cast<std::size_t>(kReceiveFactor) * n;
    st[v].scratch.resize(v == 0 ? std::max(sorted, static_cast<std::size_t>(p) * samples) : sorted);
  }
  m.attach(st);
  // Sorting is local computation (not charged): the final sort's phase shows zero time.
  PhaseTimer phases(p, {"samples to node 0", "splitter broadcasts", "bucket exchange", "final local sort"},
                    progress);
  m.run([n, samples, seed, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<SampleSortNode>();
    phases.enter(node, 0);
    const int p = node.nodes();
    const auto un = static_cast<std::uint32_t>(n), us = static_cast<std::uint32_t>(samples);
    s.keys = node.allocate(8 * un);
    s.sample = node.allocate(8 * us);
    s.samples = node.allocate(8 * us * static_cast<std::uint32_t>(p));  // used at node 0
    s.splitters = node.allocate(8 * static_cast<std::uint32_t>(p));
    s.capacity = static_cast<std::int64_t>(kReceiveFactor) * n;
    s.receive = node.allocate(8 * static_cast<std::uint32_t>(s.capacity));
    const std::vector<std::uint64_t> input = sort_input(seed, node.id(), n);
    for (std::uint32_t i = 0; i < un; ++i) node.store_local(s.keys + 8 * i, input[i]);
    sort_in_memory(node, s.scratch, s.keys, n);

    core::RandomStream pick(seed, static_cast<std::uint64_t>(node.id()), kSampleStream);
    for (std::uint32_t t = 0; t < us; ++t)
      node.store_local(s.sample + 8 * t, node.load<std::uint64_t>(s.keys + 8 * pick.below(un)));
    co_await counted_store<SampleSortNode>(
        node, 0, s.sample, s.samples + 8 * us * static_cast<std::uint32_t>(node.id()), 8 * us, kSamplesTag);
    if (node.id() == 0) {
      co_await counted_sync<SampleSortNode>(node, kSamplesTag, static_cast<std::int64_t>(p) * 8 * us);
      sort_in_memory(node, s.scratch, s.samples, static_cast<std::int64_t>(p) * samples);
      for (std::uint32_t d = 0; d + 1 < static_cast<std::uint32_t>(p); ++d)
        node.store_local(s.splitters + 8 * d, node.load<std::uint64_t>(s.samples + 8 * (d + 1) * us));
    }
    phases.enter(node, 1);
    // The splitters reach every node as one block broadcast from node 0: the machine's collective, a
    // software tree (a word at a time) or broadcast hardware (the CM-5's control network, 8 words a
    // message).
    co_await node.broadcast_block(0, s.splitters, 8 * static_cast<std::uint32_t>(p - 1));

    // Bucket d is [begin(d), begin(d + 1)) of the sorted keys; the schedule starts at the next node up,
    // as alltoall's does, so that every node is the target of one other at a time.
    auto begin = [&](int d) -> std::uint32_t {
      if (d == 0) return 0;
      if (d == p) return un;
      const auto splitter = node.load<std::uint64_t>(s.splitters + 8 * static_cast<std::uint32_t>(d - 1));
      std::uint32_t lo = 0, hi = un;  // first key >= splitter
      while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (node.load<std::uint64_t>(s.keys + 8 * mid) < splitter)
          lo = mid + 1;
        else
          hi = mid;
      }
      return lo;
    };
    const auto chunk = static_cast<std::uint32_t>(node.machine().params().packet_payload_bytes) / 8 * 8;
    phases.enter(node, 2);
    for (int r = 0; r < p; ++r) {
      phases.tick(node);
      const int d = (node.id() + r) % p;
      const std::uint32_t first = begin(d), count = begin(d + 1) - first;
      if (d == node.id()) {
        append(node, s, node.memory().data() + s.keys + 8 * first, count);
        continue;
      }
      for (std::uint32_t off = 0; off < 8 * count; off += chunk) {
        const std::uint32_t bytes = std::min(chunk, 8 * count - off);
        co_await node.request_data(d, &on_keys, {}, node.memory().data() + s.keys + 8 * first + off,
                                   static_cast<int>(bytes));
        ++s.messages_sent;
      }
    }
    for (;;) {
      ++s.reductions;
      const auto in_flight = static_cast<std::int64_t>(co_await node.reduce(
          static_cast<std::uint64_t>(s.messages_sent - s.messages_got), am::ReduceOp::Sum));
      if (in_flight == 0) break;
    }
    phases.enter(node, 3);
    sort_in_memory(node, s.scratch, s.receive, std::min(s.arrived, s.capacity));
    phases.end(node);
  });

  AppResult r;
  r.phases = phases.phases();
  r.ends = phases.ends();
  std::vector<std::vector<std::uint64_t>> input(p), output(p);
  std::int64_t overflow = 0, largest = 0;
  for (NodeId v = 0; v < p; ++v) {
    input[v] = sort_input(seed, v, n);
    const SampleSortNode& s = st[v];
    overflow += s.overflow;
    largest = std::max(largest, s.arrived);
    for (std::int64_t i = 0; i < std::min(s.arrived, s.capacity); ++i)
      output[v].push_back(m.node(v).load<std::uint64_t>(s.receive + 8 * static_cast<std::uint32_t>(i)));
  }
  r.check = overflow > 0 ? fmt::format(
                               "{} keys did not fit in the receive areas of {} keys (raise "
                               "app.samplesort_samples)",
                               overflow, kReceiveFactor * n)
                         : check_sorted_permutation(input, output);
  r.passed = r.check.empty();
  if (r.passed)
    r.check = fmt::format(
        "{} keys ({} per node) sorted across the nodes in node order and a permutation of the input",
        static_cast<std::int64_t>(p) * n, n);
  r.metrics.push_back({"keys_per_node", n});
  r.metrics.push_back({"largest_bucket", static_cast<double>(largest)});
  // Every node takes part in every reduction, so node 0's count is everybody's.
  r.metrics.push_back({"termination_reductions", st.empty() ? 0 : st[0].reductions});
  return r;
}

}  // namespace mppnet::workload::apps
