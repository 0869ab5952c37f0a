// machines/cm5/open_loop.cpp: open-loop sources, the window's counts and the drain.
#include "machines/cm5/open_loop.hpp"

#include <algorithm>
#include <vector>

#include "machines/cm5/fat_tree_shape.hpp"
#include "machines/cm5/message_format.hpp"
#include "workload/patterns.hpp"

namespace mppnet::machines::cm5 {

namespace {

constexpr double kAcceptedFraction = 0.95;
constexpr std::uint64_t kMeasured = 1;  // the label of a message created in the window

class OpenLoopCounter final : public DataNetworkObserver {
 public:
  OpenLoopCounter(Cycle from, Cycle to) : from_(from), to_(to) {}
  void on_delivery(MessageId, const Message& m) override {
    // Link cycles inside the window count for the accepted rate, as in the stream runs.
    const Cycle first = m.delivered - m.nibbles + 1;
    const Cycle inside = std::max<Cycle>(0, std::min(m.delivered + 1, to_) - std::max(first, from_));
    nibbles_ += inside;
    payload_ += static_cast<double>(inside) * payload_bytes(m.words) / m.nibbles;
    if (m.label != kMeasured) return;
    ++delivered_;
    latency_sum_ += m.delivered - m.created;
    network_latency_sum_ += m.delivered - m.injected;
  }
  std::int64_t nibbles_ = 0;
  double payload_ = 0;
  std::int64_t delivered_ = 0;
  std::int64_t latency_sum_ = 0;
  std::int64_t network_latency_sum_ = 0;

 private:
  Cycle from_, to_;
};

}  // namespace

Pattern open_loop_pattern(TrafficPattern p, int nodes) {
  const int bits = workload::is_power_of_two(nodes) ? workload::address_bits(nodes) : 0;
  switch (p) {
    case TrafficPattern::BitComplement:
      return [bits](NodeId x, core::RandomStream&) { return workload::bit_complement(x, bits); };
    case TrafficPattern::BitReversal:
      return [bits](NodeId x, core::RandomStream&) { return workload::bit_reverse(x, bits); };
    case TrafficPattern::Transpose:
      return [bits](NodeId x, core::RandomStream&) { return workload::transpose(x, bits); };
    case TrafficPattern::Locality:
    case TrafficPattern::Uniform:
      break;
  }
  return [nodes](NodeId, core::RandomStream& draw) {
    return static_cast<NodeId>(draw.below(static_cast<std::uint32_t>(nodes)));
  };
}

OpenLoopResult run_open_loop(DataNetwork& network, const Pattern& pattern, double load, const StreamRun& run,
                             std::uint64_t seed) {
  const int nodes = network.params().nodes;
  const Cycle start = network.now();
  const Cycle from = start + run.warmup_cycles, to = from + run.measure_cycles;
  OpenLoopCounter counter(from, to);
  network.set_observer(&counter);
  std::vector<core::RandomStream> arrivals, destinations;
  arrivals.reserve(static_cast<std::size_t>(nodes));
  destinations.reserve(static_cast<std::size_t>(nodes));
  for (NodeId v = 0; v < nodes; ++v) {
    arrivals.emplace_back(seed, static_cast<std::uint64_t>(v), core::Stream::Arrival);
    destinations.emplace_back(seed, static_cast<std::uint64_t>(v), core::Stream::Destination);
  }
  std::vector<std::uint8_t> side(static_cast<std::size_t>(nodes), 0);
  OpenLoopResult r;
  double offered_nibbles = 0;
  for (Cycle t = start; t < to; ++t) {
    for (NodeId v = 0; v < nodes; ++v) {
      const auto s = static_cast<std::size_t>(v);
      const NodeId dest = pattern(v, destinations[s]);
      const int nibbles = message_nibbles(run.words, FatTreeShape::lca_height(v, dest));
      if (arrivals[s].uniform01() >= load * kSides / nibbles) continue;
      const bool measured = t >= from;
      network.send(v, dest, run.words, 0, side[s], measured ? kMeasured : 0);
      side[s] ^= 1;
      if (measured) {
        ++r.created;
        offered_nibbles += nibbles;
      }
    }
    network.run_until(t + 1);
  }
  // Drain: the measured messages still queued or in flight, for up to another window.
  for (Cycle t = to; t < to + run.measure_cycles && counter.delivered_ < r.created; t += 64)
    network.run_until(t + 64);
  network.set_observer(nullptr);
  const double window = static_cast<double>(run.measure_cycles) * nodes;
  // 4 bits per 25 ns cycle: a nibble a cycle is 20 MB/s.
  r.offered_raw_mb_per_s = 20.0 * offered_nibbles / window;
  r.accepted_raw_mb_per_s = 20.0 * static_cast<double>(counter.nibbles_) / window;
  r.accepted_payload_mb_per_s = 40.0 * counter.payload_ / window;
  r.delivered = counter.delivered_;
  if (r.delivered > 0) {
    r.latency_avg_cycles = static_cast<double>(counter.latency_sum_) / static_cast<double>(r.delivered);
    r.network_latency_avg_cycles =
        static_cast<double>(counter.network_latency_sum_) / static_cast<double>(r.delivered);
  }
  r.saturated =
      r.delivered < r.created || r.accepted_raw_mb_per_s < kAcceptedFraction * r.offered_raw_mb_per_s;
  return r;
}

}  // namespace mppnet::machines::cm5
