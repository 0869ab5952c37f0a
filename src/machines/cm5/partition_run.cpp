// machines/cm5/partition_run.cpp: one partition's timings with and without the other's traffic.
#include "machines/cm5/partition_run.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

namespace {

struct PartitionDeliveries final : DataNetworkObserver {
  std::vector<std::pair<std::uint64_t, Cycle>> second;  // label, delivery cycle
  void on_delivery(MessageId, const Message& m) override {
    if (m.label > 0) second.push_back({m.label, m.delivered});
  }
};

std::vector<std::pair<std::uint64_t, Cycle>> second_partition(bool first_busy) {
  DataNetworkParams p;
  p.nodes = 256;
  DataNetwork net(p);
  PartitionDeliveries rec;
  net.set_observer(&rec);
  core::RandomStream a(1, 0, core::Stream::Destination);
  core::RandomStream b(2, 0, core::Stream::Destination);
  for (int k = 0; k < 4000; ++k) {
    if (first_busy)
      net.send(static_cast<NodeId>(a.below(128)), static_cast<NodeId>(a.below(128)), 5, 0, k % 2, 0);
    net.send(128 + static_cast<NodeId>(b.below(128)), 128 + static_cast<NodeId>(b.below(128)), 1 + k % 5, 0,
             k % 2, 1 + static_cast<std::uint64_t>(k));
  }
  net.run_until(1'000'000);
  std::sort(rec.second.begin(), rec.second.end());
  return rec.second;
}

}  // namespace

PartitionRun partition_isolation() {
  const auto alone = second_partition(false);
  const auto shared = second_partition(true);
  PartitionRun run;
  run.second_delivered = static_cast<std::int64_t>(shared.size());
  for (std::size_t i = 0; i < alone.size(); ++i)
    run.second_changed += i >= shared.size() || shared[i] != alone[i];
  return run;
}

}  // namespace mppnet::machines::cm5
