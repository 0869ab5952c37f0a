// machines/cm5/all_fall_down_run.cpp: a hot spot emptied by all-fall-down and resent.
#include "machines/cm5/all_fall_down_run.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "core/rng.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/message_sets.hpp"

namespace mppnet::machines::cm5 {

namespace {

struct Deliveries final : DataNetworkObserver {
  std::vector<Message> got;
  void on_delivery(MessageId, const Message& m) override { got.push_back(m); }
};

}  // namespace

AllFallDownRun all_fall_down_hot_spot() {
  constexpr int kNodes = 256;
  DataNetworkParams p;
  p.nodes = kNodes;
  DataNetwork net(p);
  Deliveries rec;
  net.set_observer(&rec);
  AllFallDownRun run;
  for (NodeId v = 1; v < kNodes; ++v) {
    for (int k = 0; k < 8; ++k) net.send(v, 0, 5, 3, k % 2, static_cast<std::uint64_t>(run.sent++));
  }
  net.run_until(2000);
  run.in_network_at_fall = net.in_network();
  net.freeze_injection(true);
  core::RandomStream r(11, 0, core::Stream::Setup);
  const std::vector<ChipId> order = shuffled(net.shape().chips(), r);
  for (const ChipId c : order) {
    net.set_all_fall_down(c, true);
    net.run_until(net.now() + 1);
  }
  net.run_until(net.now() + 2000);
  run.left_after_fall = net.in_network();
  run.kirchhoff_balanced = net.kirchhoff_violations().empty();
  run.fallen = net.fallen_total();
  for (NodeId v = 0; v < kNodes; ++v) {
    run.most_on_a_node =
        std::max<std::int64_t>(run.most_on_a_node, static_cast<std::int64_t>(net.fallen(v).size()));
    run.nodes_landed_on += net.fallen(v).empty() ? 0 : 1;
  }
  net.resume_after_fall();
  net.freeze_injection(false);
  net.run_until(net.now() + 1'000'000);
  std::set<std::uint64_t> labels;
  run.all_at_true_destination = true;
  for (const Message& m : rec.got) {
    labels.insert(m.label);
    run.all_at_true_destination &= m.dest == 0;
  }
  run.delivered = static_cast<std::int64_t>(rec.got.size());
  run.distinct_delivered = static_cast<std::int64_t>(labels.size());
  return run;
}

}  // namespace mppnet::machines::cm5
