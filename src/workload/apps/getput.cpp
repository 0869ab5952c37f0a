// workload/apps/getput.cpp: a Split-C style get/put benchmark.
//
// Latency phase, on an idle network: node 0 alone puts one word to its partner and waits for the
// acknowledgement (sync), then gets one word from it and waits for the data; every other node waits
// for node 0's go message, so nothing else is in the network or on the partner's processor. These are
// the round trips the cost model predicts by hand (docs/am.md; apps_test derives them).
// Bandwidth phase, every node at once: app.getput_repeats puts of app.getput_bytes to its partner
// (node i + app.getput_distance mod P) then sync, a barrier, the same number of gets from the partner,
// sync. Per-node bandwidth is bytes moved / time from the start to the sync, per node; the results are
// the mean and the minimum over the nodes.
// The check: every put area holds what its put-sender wrote, and every get area what its partner
// holds, byte for byte; and the latency probe's word arrived.
#include <limits>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

namespace {

std::byte source_byte(int node, std::uint32_t k) {
  std::uint32_t x = static_cast<std::uint32_t>(node) * 2654435761u ^ k * 0x27d4eb2fu;
  x ^= x >> 15;
  return static_cast<std::byte>(x & 0xff);
}

constexpr std::uint32_t kProbeWord = 0x600dcafe;

struct GetPutNode {
  bool go = false;
  std::uint32_t source = 0, put_in = 0, get_in = 0, probe = 0;
  Picoseconds put_round_trip = 0, get_round_trip = 0;  // node 0
  Picoseconds put_time = 0, get_time = 0;
};

void on_go(am::Incoming& in) {
  in.node.state<GetPutNode>().go = true;
}

}  // namespace

void check_getput(const AppParams& params, int p, const am::AmParams& am) {
  const int distance = params.getput_distance;
  if (distance % p == 0)
    throw AppParamError(
        "app.getput_distance",
        fmt::format("{} makes every node its own partner on {} nodes (a multiple of P)", distance, p));
  const std::uint64_t need = 3ull * static_cast<std::uint64_t>(params.getput_bytes) + 64;
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.getput_bytes",
        fmt::format("getput needs {} bytes of memory per node (3 x app.getput_bytes); am.memory_bytes is {}",
                    need, am.memory_bytes));
}

AppResult run_getput(am::Machine& m, const AppParams& params, std::uint64_t /*seed*/,
                     const ProgressSink& progress) {
  const int p = m.nodes();
  check_getput(params, p, m.params());
  const auto bytes = static_cast<std::uint32_t>(params.getput_bytes);
  const int repeats = params.getput_repeats, distance = params.getput_distance;
  std::vector<GetPutNode> st(p);
  m.attach(st);
  PhaseTimer phases(p, {"idle round trips (node 0; others wait)", "barrier", "puts", "barrier again", "gets"},
                    progress);
  m.run([bytes, repeats, distance, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<GetPutNode>();
    phases.enter(node, 0);
    const int p = node.nodes();
    const NodeId partner = (node.id() + distance) % p;
    s.source = node.allocate(bytes);
    s.put_in = node.allocate(bytes);
    s.get_in = node.allocate(bytes);
    s.probe = node.allocate(8);
    for (std::uint32_t k = 0; k < bytes; ++k) node.store_local(s.source + k, source_byte(node.id(), k));
    node.store_local(s.probe, kProbeWord);

    if (node.id() == 0) {
      Picoseconds t0 = node.now();
      co_await node.put(partner, s.probe, s.probe + 4, 4);
      co_await node.sync();
      s.put_round_trip = node.now() - t0;
      t0 = node.now();
      co_await node.get(partner, s.probe, s.probe + 4, 4);
      co_await node.sync();
      s.get_round_trip = node.now() - t0;
      for (NodeId v = 1; v < p; ++v) co_await node.request(v, &on_go);
    } else {
      co_await node.wait_until([&s] { return s.go; });
    }

    phases.enter(node, 1);
    co_await node.barrier();
    phases.enter(node, 2);
    Picoseconds t0 = node.now();
    for (int i = 0; i < repeats; ++i) co_await node.put(partner, s.source, s.put_in, bytes);
    co_await node.sync();
    s.put_time = node.now() - t0;
    phases.enter(node, 3);
    co_await node.barrier();
    phases.enter(node, 4);
    t0 = node.now();
    for (int i = 0; i < repeats; ++i) co_await node.get(partner, s.source, s.get_in, bytes);
    co_await node.sync();
    s.get_time = node.now() - t0;
    phases.end(node);
  });

  AppResult r;
  r.phases = phases.phases();
  r.ends = phases.ends();
  r.passed = true;
  for (NodeId j = 0; j < p && r.passed; ++j) {
    const NodeId put_sender = ((j - distance) % p + p) % p, partner = (j + distance) % p;
    for (std::uint32_t k = 0; k < bytes; ++k) {
      if (m.node(j).load<std::byte>(st[j].put_in + k) != source_byte(put_sender, k)) {
        r.passed = false;
        r.check = fmt::format("node {}: byte {} put by node {} is wrong", j, k, put_sender);
        break;
      }
      if (m.node(j).load<std::byte>(st[j].get_in + k) != source_byte(partner, k)) {
        r.passed = false;
        r.check = fmt::format("node {}: byte {} got from node {} is wrong", j, k, partner);
        break;
      }
    }
  }
  const NodeId partner0 = distance % p;
  if (r.passed && (m.node(partner0).load<std::uint32_t>(st[partner0].probe + 4) != kProbeWord ||
                   m.node(0).load<std::uint32_t>(st[0].probe + 4) != kProbeWord)) {
    r.passed = false;
    r.check = "the latency probe's word did not arrive";
  }
  // Bytes per microsecond of simulated time (MB/s), per node.
  double put_sum = 0, get_sum = 0, put_min = std::numeric_limits<double>::infinity(), get_min = put_min;
  const double moved = static_cast<double>(bytes) * repeats;
  for (const auto& s : st) {
    const double put_bw = moved / (static_cast<double>(s.put_time) * 1e-6);
    const double get_bw = moved / (static_cast<double>(s.get_time) * 1e-6);
    put_sum += put_bw;
    get_sum += get_bw;
    put_min = std::min(put_min, put_bw);
    get_min = std::min(get_min, get_bw);
  }
  if (r.passed)
    r.check = fmt::format(
        "every node's {} bytes put to node i + {} and got from it arrived byte for byte; idle round trip "
        "of one word: put {:.3f} us, get {:.3f} us",
        bytes, distance, st[0].put_round_trip * 1e-6, st[0].get_round_trip * 1e-6);
  r.metrics.push_back({"put_round_trip_ps", static_cast<double>(st[0].put_round_trip)});
  r.metrics.push_back({"get_round_trip_ps", static_cast<double>(st[0].get_round_trip)});
  r.metrics.push_back({"put_mb_per_s_mean", put_sum / p});
  r.metrics.push_back({"put_mb_per_s_min", put_min});
  r.metrics.push_back({"get_mb_per_s_mean", get_sum / p});
  r.metrics.push_back({"get_mb_per_s_min", get_min});
  return r;
}

}  // namespace mppnet::workload::apps
