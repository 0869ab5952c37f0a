// machines/cm5/router_done_run.cpp: the data and control networks of one machine, slot by slot.
#include "machines/cm5/router_done_run.hpp"

#include <vector>

#include "core/rng.hpp"
#include "machines/cm5/control_network.hpp"
#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

namespace {

struct Arrivals final : DataNetworkObserver {
  RouterDoneRun* run = nullptr;
  ControlNetwork* control = nullptr;
  void on_delivery(MessageId, const Message& m) override {
    ++run->delivered;
    run->last_delivery = m.delivered;
    if (run->done >= 0) ++run->delivered_after;
    control->check_created(m.delivered);
  }
};

}  // namespace

RouterDoneRun router_done_all_to_all(int nodes, int messages, DeliveryFault fault, Cycle limit,
                                     std::uint64_t seed) {
  DataNetworkParams dp;
  dp.nodes = nodes;
  dp.seed = seed;
  DataNetwork data(dp);
  ControlNetwork control({.leaves = nodes});
  control.set_in_flight([&data] { return data.kirchhoff_balance(); });
  RouterDoneRun run;
  Arrivals arrivals;
  arrivals.run = &run;
  arrivals.control = &control;
  data.set_observer(&arrivals);

  core::RandomStream r(seed, 0, core::Stream::Destination);
  std::vector<int> left(static_cast<std::size_t>(nodes), messages);
  std::vector<bool> promised(static_cast<std::size_t>(nodes), false);
  constexpr std::int64_t kSendFifo = 4;  // messages an interface holds before it refuses (send-OK)
  const int victim_dest = nodes / 2;
  if (fault == DeliveryFault::Lose) data.lose_next_delivery(victim_dest, 0);
  if (fault == DeliveryFault::Duplicate) data.duplicate_next_delivery(victim_dest, 0);
  const Cycle slot = control.params().slot_cycles;
  for (std::int64_t s = 0; s * slot <= limit && run.nodes_done < nodes; ++s) {
    const Cycle t = s * slot;
    data.run_until(t);
    for (int v = 0; v < nodes; ++v) {
      while (left[v] > 0) {
        // The first message of node 0 goes to the faulty interface, so the fault always strikes.
        const NodeId dest = v == 0 && left[v] == messages ? victim_dest : static_cast<NodeId>(r.below(nodes));
        if (data.send(v, dest, 5, 0, 0, 0, kSendFifo) == kNoMessage) break;
        ++run.sent;
        --left[v];
      }
      if (left[v] == 0 && !promised[v]) promised[v] = control.push_router_done(v);
    }
    control.step(s);
    for (int v = 0; v < nodes; ++v) {
      if (auto done = control.pop(v, OpClass::RouterDone, t)) {
        ++run.nodes_done;
        if (run.done < 0) run.done = done->time;
      }
    }
  }
  run.error_everywhere = control.error_visible(limit);
  return run;
}

}  // namespace mppnet::machines::cm5
