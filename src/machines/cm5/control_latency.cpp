// machines/cm5/control_latency.cpp: the control network's unloaded latencies, each from its own run.
#include "machines/cm5/control_latency.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace mppnet::machines::cm5 {

namespace {

constexpr Cycle kLatencyLimit = 1'000'000;  // cycles; an unloaded operation ends far sooner

ControlNetworkParams with_leaves(ControlNetworkParams params, int leaves) {
  params.leaves = leaves;
  return params;
}

// The latest arrival over the leaves of `pop(net, leaf)`, which returns the arrival time if any.
template <typename Pop>
Cycle last_arrival(ControlNetwork& net, const char* what, Pop pop) {
  net.run_until(kLatencyLimit);
  Cycle last = 0;
  for (int v = 0; v < net.leaves(); ++v) {
    const std::optional<Cycle> t = pop(net, v);
    if (!t) throw std::logic_error(fmt::format("control_latency: leaf {} got no {} result", v, what));
    last = std::max(last, *t);
  }
  return last;
}

}  // namespace

ControlLatency control_latency(const ControlNetworkParams& params, int leaves) {
  ControlLatency out;
  out.leaves = leaves;
  out.level_delay_cycles = params.level_delay_cycles;
  {
    ControlNetwork net(with_leaves(params, leaves));
    out.height = net.height();
    for (int v = 0; v < leaves; ++v) net.push_sync_or(v, false);
    out.barrier_cycles = last_arrival(net, "barrier", [](ControlNetwork& n, int v) -> std::optional<Cycle> {
      const auto r = n.pop(v, OpClass::SyncOr, kLatencyLimit);
      return r ? std::optional<Cycle>(r->time) : std::nullopt;
    });
  }
  {
    ControlNetwork net(with_leaves(params, leaves));
    const std::uint32_t word = 0x5eed;
    net.push_broadcast(0, BroadcastKind::User, {&word, 1});
    out.broadcast_cycles =
        last_arrival(net, "broadcast", [](ControlNetwork& n, int v) -> std::optional<Cycle> {
          const auto m = n.pop_broadcast(v, kLatencyLimit);
          return m ? std::optional<Cycle>(m->time) : std::nullopt;
        });
  }
  {
    ControlNetwork net(with_leaves(params, leaves));
    for (int v = 0; v < leaves; ++v) {
      net.push_combine(v, {.kind = CombineKind::Reduce,
                           .op = Combiner::AddSigned,
                           .words = {static_cast<std::uint32_t>(v)},
                           .count = 1});
    }
    out.reduce_cycles = last_arrival(net, "reduction", [](ControlNetwork& n, int v) -> std::optional<Cycle> {
      const auto r = n.pop(v, OpClass::Combine, kLatencyLimit);
      return r ? std::optional<Cycle>(r->time) : std::nullopt;
    });
  }
  return out;
}

std::vector<ControlLatency> control_latency_table(const ControlNetworkParams& params,
                                                  std::span<const int> leaf_counts,
                                                  std::span<const int> level_delays) {
  std::vector<ControlLatency> rows;
  for (const int delay : level_delays) {
    ControlNetworkParams p = params;
    p.level_delay_cycles = delay;
    for (const int leaves : leaf_counts) rows.push_back(control_latency(p, leaves));
  }
  return rows;
}

std::string control_latency_markdown(std::span<const ControlLatency> rows) {
  std::string out =
      "| leaves | height | level delay (cycles) | barrier (sync OR) | broadcast (1 word) | reduce (32-bit "
      "add) |\n"
      "|---|---|---|---|---|---|\n";
  for (const ControlLatency& r : rows) {
    out += fmt::format(
        "| {} | {} | {} | {} cycles = {:.3g} µs | {} cycles = {:.3g} µs | {} cycles = {:.3g} µs |\n",
        r.leaves, r.height, r.level_delay_cycles, r.barrier_cycles, r.barrier_us(), r.broadcast_cycles,
        r.broadcast_us(), r.reduce_cycles, r.reduce_us());
  }
  return out;
}

}  // namespace mppnet::machines::cm5
