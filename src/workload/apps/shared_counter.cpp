// workload/apps/shared_counter.cpp: a shared counter with fetch-and-add.
//
// Node h (app.counter_home) holds the counter. Every node, h too, performs app.counter_increments
// fetch-and-adds of 1, one at a time: a request whose handler adds and replies with the old value.
// Handlers run atomically, so the final value is P * increments and the returned values are exactly
// 0 .. P * increments - 1, each once.
#include <algorithm>

#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

namespace {

struct CounterNode {
  std::uint64_t counter = 0;  // at the home node
  std::vector<std::uint32_t> returned;
  bool waiting = false;
};

void on_old_value(am::Incoming& in) {
  auto& s = in.node.state<CounterNode>();
  s.returned.push_back(in.arg(0));
  s.waiting = false;
}

void on_fetch_add(am::Incoming& in) {
  auto& s = in.node.state<CounterNode>();
  const auto old = static_cast<std::uint32_t>(s.counter);
  s.counter += in.arg(0);
  in.reply(&on_old_value, old);
}

}  // namespace

void check_shared_counter(const AppParams& params, int p, const am::AmParams& /*am*/) {
  if (params.counter_home >= p)
    throw AppParamError("app.counter_home", fmt::format("{} is not a node of this {}-node machine (0 .. {})",
                                                        params.counter_home, p, p - 1));
}

AppResult run_shared_counter(am::Machine& m, const AppParams& params, std::uint64_t /*seed*/,
                             const ProgressSink& progress) {
  const int p = m.nodes();
  check_shared_counter(params, p, m.params());
  const int increments = params.counter_increments;
  std::vector<CounterNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    st[v].returned.reserve(increments);
  }
  m.attach(st);
  const NodeId home = params.counter_home;
  PhaseTimer phases(p, {"fetch-and-add round trips"}, progress);
  m.run([home, increments, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<CounterNode>();
    phases.enter(node, 0);
    for (int i = 0; i < increments; ++i) {
      s.waiting = true;
      co_await node.request(home, &on_fetch_add, 1);
      co_await node.wait_until([&s] { return !s.waiting; });
      phases.tick(node);
    }
    phases.end(node);
  });
  AppResult r;
  r.phases = phases.phases();
  r.ends = phases.ends();
  const std::uint64_t expected = static_cast<std::uint64_t>(p) * increments;
  std::vector<std::uint32_t> all;
  all.reserve(expected);
  for (const auto& s : st) all.insert(all.end(), s.returned.begin(), s.returned.end());
  std::sort(all.begin(), all.end());
  r.passed = st[home].counter == expected && all.size() == expected;
  for (std::size_t i = 0; r.passed && i < all.size(); ++i) r.passed = all[i] == i;
  r.check =
      r.passed
          ? fmt::format("counter = {} = {} nodes x {}, and the {} returned values are 0 .. {}, each once",
                        expected, p, increments, expected, expected - 1)
          : fmt::format("counter = {} (expected {}); {} values returned, distinct and complete: no",
                        st[home].counter, expected, all.size());
  r.metrics.push_back({"final_counter", static_cast<double>(st[home].counter)});
  r.metrics.push_back({"fetch_adds", static_cast<double>(expected)});
  return r;
}

}  // namespace mppnet::workload::apps
