// machines/cm5/streams.cpp: keeps senders backlogged and counts deliveries in the window.
#include "machines/cm5/streams.hpp"

#include <algorithm>

#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {

namespace {

class WindowCounter final : public DataNetworkObserver {
 public:
  WindowCounter(StreamResult& result, Cycle from, Cycle to) : result_(result), from_(from), to_(to) {}
  void on_delivery(MessageId, const Message& m) override {
    // The message's nibbles reached its node one a cycle up to its tail: count those inside the window,
    // so that messages straddling its edges count for their share.
    const Cycle first = m.delivered - m.nibbles + 1;
    const Cycle inside = std::max<Cycle>(0, std::min(m.delivered + 1, to_) - std::max(first, from_));
    result_.nibbles += inside;
    result_.payload_bytes += static_cast<double>(inside) * payload_bytes(m.words) / m.nibbles;
    result_.received_nibbles[m.dest] += inside;
    if (inside == 0 || m.delivered >= to_ || m.delivered < from_) return;
    ++result_.messages;
    ++result_.delivered_from[m.src];
    latency_sum_ += m.delivered - m.injected;
  }
  double latency_sum() const { return static_cast<double>(latency_sum_); }

 private:
  StreamResult& result_;
  Cycle from_, to_;
  std::int64_t latency_sum_ = 0;
};

// A result with its per-node counts sized, counting deliveries over `cycles` from now on.
StreamResult empty_result(const DataNetwork& network, Cycle cycles) {
  StreamResult result;
  result.cycles = cycles;
  result.received_nibbles.assign(network.params().nodes, 0);
  result.delivered_from.assign(network.params().nodes, 0);
  return result;
}

}  // namespace

StreamResult run_streams(DataNetwork& network, const Pattern& pattern, const StreamRun& run,
                         std::uint64_t seed) {
  const int nodes = network.params().nodes;
  StreamResult result = empty_result(network, run.measure_cycles);
  const Cycle start = network.now();
  WindowCounter counter(result, start + run.warmup_cycles, start + run.warmup_cycles + run.measure_cycles);
  network.set_observer(&counter);
  std::vector<core::RandomStream> draws;
  draws.reserve(nodes);
  for (NodeId v = 0; v < nodes; ++v)
    draws.emplace_back(seed, static_cast<std::uint64_t>(v), core::Stream::Destination);
  const int sides = run.both_sides ? kSides : 1;
  // A message holds a link at least this long, so a queue of 3 never runs dry within a step.
  const Cycle step = message_nibbles(1, 1);
  constexpr int kBacklog = 3;
  std::vector<std::uint8_t> sends(nodes, 1);
  const Cycle end = start + run.warmup_cycles + run.measure_cycles;
  for (Cycle t = start; t < end; t += step) {
    for (NodeId v = 0; v < nodes; ++v) {
      if (!sends[v]) continue;
      for (int side = 0; side < sides; ++side) {
        while (network.queued(v, side) < kBacklog) {
          const NodeId dest = pattern(v, draws[v]);
          if (dest < 0) {
            sends[v] = 0;
            break;
          }
          network.send(v, dest, run.words, 0, side);
        }
        if (!sends[v]) break;
      }
    }
    network.run_until(std::min(end, t + step));
  }
  // The tails of messages whose nibbles were arriving as the window closed (none stalls once started).
  network.run_until(end + message_nibbles(kMaxWords, network.shape().height()));
  for (NodeId v = 0; v < nodes; ++v) result.senders += sends[v];
  if (result.messages > 0)
    result.latency_avg_cycles = counter.latency_sum() / static_cast<double>(result.messages);
  network.set_observer(nullptr);
  return result;
}

StreamResult run_uniform(DataNetwork& network, double messages_per_cycle, int words, Cycle cycles,
                         std::uint64_t seed) {
  const int nodes = network.params().nodes;
  StreamResult result = empty_result(network, cycles);
  const Cycle start = network.now();
  WindowCounter counter(result, start, start + cycles);
  network.set_observer(&counter);
  core::RandomStream arrivals(seed, 0, core::Stream::Arrival);
  core::RandomStream destinations(seed, 0, core::Stream::Destination);
  std::vector<std::uint8_t> side(nodes, 0);
  // The machine starts rate x nodes messages a cycle on average: the whole part every cycle, one more
  // with the fraction's probability; each from a uniformly drawn node (draws per message, not per node).
  const double expected = messages_per_cycle * nodes;
  for (Cycle t = start; t < start + cycles; ++t) {
    auto n = static_cast<std::int64_t>(expected);
    if (arrivals.uniform01() < expected - static_cast<double>(n)) ++n;
    for (std::int64_t k = 0; k < n; ++k) {
      const auto src = static_cast<NodeId>(arrivals.below(static_cast<std::uint32_t>(nodes)));
      auto dest = static_cast<NodeId>(destinations.below(static_cast<std::uint32_t>(nodes - 1)));
      if (dest >= src) ++dest;
      network.send(src, dest, words, 0, side[src]);
      side[src] ^= 1;
    }
    network.run_until(t + 1);
  }
  result.senders = nodes;
  network.set_observer(nullptr);
  return result;
}

}  // namespace mppnet::machines::cm5
