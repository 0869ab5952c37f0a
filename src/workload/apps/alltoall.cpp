// workload/apps/alltoall.cpp: all-to-all personalised exchange.
//
// Node i holds one block of B bytes for every node j (block j of its send area) and receives block i of
// every node into slot j of its receive area, by store (one-way bulk puts; store_sync counts arrivals).
// The shift schedule (round r to node (i + r) mod P) makes every round a permutation, so no node is a
// hot spot. The xor schedule (round r to node i XOR r) does too, and keeps each round's pairs at one
// level of a tree: on a CM-5 the shift rounds that mix pairs meeting at two levels slow the data
// network down several times from 2,048 nodes on (docs/cm5.md, "The all-to-all's schedule").
// Byte k of the block from i to j is a hash of (i, j, k), so a misplaced or lost packet shows in the
// check.
#include <fmt/format.h>

#include "am/node.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::workload::apps {

namespace {

std::byte alltoall_byte(int from, int to, std::uint32_t k) {
  std::uint32_t x = static_cast<std::uint32_t>(from) * 2654435761u ^ static_cast<std::uint32_t>(to) * 40503u ^
                    k * 2246822519u;
  x ^= x >> 15;
  return static_cast<std::byte>(x & 0xff);
}

struct Areas {
  std::uint32_t send = 0, receive = 0;
};

}  // namespace

void check_alltoall(const AppParams& params, int p, const am::AmParams& am) {
  const std::uint64_t need = alltoall_memory_bytes(p, params.alltoall_bytes);
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError("app.alltoall_bytes",
                        fmt::format("alltoall needs {} bytes of memory per node (2 x {} nodes x "
                                    "app.alltoall_bytes = {}); am.memory_bytes is {}",
                                    need, p, params.alltoall_bytes, am.memory_bytes));
}

AppResult run_alltoall(am::Machine& m, const AppParams& params, std::uint64_t /*seed*/,
                       const ProgressSink& progress) {
  const int p = m.nodes();
  check_alltoall(params, p, m.params());
  const auto bytes = static_cast<std::uint32_t>(params.alltoall_bytes);
  const AlltoallSchedule schedule = params.alltoall_schedule;
  std::vector<Areas> areas(p);
  m.attach(areas);
  PhaseTimer phases(p, {"exchange", "wait for blocks"}, progress);
  m.run([bytes, schedule, &phases](am::Node& node) -> am::Task<> {
    const int p = node.nodes();
    phases.enter(node, 0);
    auto& a = node.state<Areas>();
    a.send = node.allocate(static_cast<std::uint32_t>(p) * bytes);
    a.receive = node.allocate(static_cast<std::uint32_t>(p) * bytes);
    for (int j = 0; j < p; ++j)
      for (std::uint32_t k = 0; k < bytes; ++k)
        node.store_local(a.send + j * bytes + k, alltoall_byte(node.id(), j, k));
    // Every node allocates the same areas in the same order, so the receive area has one address.
    for (int r = 1; r <= core::all_to_all_round_count(p, schedule); ++r) {
      const NodeId j = core::all_to_all_partner(schedule, node.id(), r, p);
      if (j < 0) continue;
      co_await node.store(j, a.send + j * bytes, a.receive + node.id() * bytes, bytes);
      phases.tick(node);
    }
    phases.enter(node, 1);
    co_await node.store_sync(static_cast<std::int64_t>(p - 1) * bytes);
    phases.end(node);
  });
  AppResult r;
  r.phases = phases.phases();
  r.ends = phases.ends();
  r.passed = true;
  for (NodeId j = 0; j < p && r.passed; ++j) {
    const am::Node& node = m.node(j);
    for (NodeId i = 0; i < p && r.passed; ++i) {
      if (i == j) continue;
      for (std::uint32_t k = 0; k < bytes; ++k) {
        if (node.load<std::byte>(areas[j].receive + i * bytes + k) == alltoall_byte(i, j, k)) continue;
        r.passed = false;
        r.check = fmt::format("node {}: byte {} of the block from node {} is wrong", j, k, i);
        break;
      }
    }
  }
  if (r.passed)
    r.check = fmt::format("every node holds the {} blocks of {} bytes the others sent it", p - 1, bytes);
  r.metrics.push_back({"bytes_per_pair", bytes});
  r.metrics.push_back({"blocks", static_cast<double>(p) * (p - 1)});
  return r;
}

}  // namespace mppnet::workload::apps
