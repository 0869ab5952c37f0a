// machines/cm5/control_collectives.hpp: node programs' collectives on the CM-5 control network.
//
// A barrier is a synchronous OR, a broadcast a user broadcast from its root, a reduction or scan a
// combine of two 32-bit words (the 64-bit values of am/), pushed and popped by loads and stores to the
// interface at the machine's software cost. The operators the hardware lacks are synthesised as the
// paper says (L509-510, note §5.19): AND = NOT OR NOT, MIN = NOT MAX NOT, a double's maximum by the
// signed maximum of reordered bits; a floating-point sum falls back to software. The network runs in a clock
// domain of its own, one edge per packet slot, and only while it has work.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "am/collectives.hpp"
#include "am/machine.hpp"
#include "core/scheduler.hpp"
#include "machines/cm5/control_network.hpp"

namespace mppnet::machines::cm5 {

class ControlCollectives final : public am::Collectives, public core::Component, public ControlObserver {
 public:
  // leaf_of_node[v]: the control-network leaf (physical node) of program node v; leaves not in it are
  // mapped out. `params.leaves` is the partition's physical size.
  ControlCollectives(const ControlNetworkParams& params, std::vector<int> leaf_of_node,
                     core::Scheduler& scheduler, am::Machine& machine, const am::AmParams& am);

  am::Task<am::Combined> run(am::Node& node, am::Collective what, std::uint64_t value, am::ReduceOp op,
                             NodeId root) override;
  am::Task<> broadcast_block(am::Node& node, NodeId root, std::span<std::byte> block) override;
  std::string path() const override;
  ControlNetwork& network() { return net_; }
  // Calls per kind of collective, and reductions or scans whose operator was synthesised.
  const std::array<std::int64_t, am::kCollectiveKinds>& calls() const { return calls_; }
  std::int64_t synthesised() const { return synthesised_; }
  std::int64_t in_software() const { return software_; }

 private:
  bool tick(Cycle slot) override;
  void on_event(std::uint32_t kind, std::uint64_t data) override;
  void on_delivery(int leaf, Cycle time) override;

  Cycle now_cycles() const;
  std::int64_t push_cost(int words) const;
  std::int64_t pop_cost(int words) const;
  am::Task<> wait_result(am::Node& node, int leaf, OpClass k);
  // A broadcast of `block` from `root`, every node waiting once for the last message (not counted).
  am::Task<> send_block(am::Node& node, NodeId root, std::span<std::byte> block);

  ControlNetwork net_;
  std::vector<int> leaf_of_node_;
  std::vector<int> node_of_leaf_;  // -1 for a mapped-out leaf
  core::Scheduler& scheduler_;
  am::Machine& machine_;
  am::AmParams am_;
  core::ComponentId id_ = -1;
  Picoseconds cycle_ps_ = 25000;             // the control network's 40 MHz clock
  std::map<Cycle, std::vector<int>> wakes_;  // leaves to wake, by the time their result arrives
  std::array<std::int64_t, am::kCollectiveKinds> calls_{};
  std::int64_t synthesised_ = 0;
  std::int64_t software_ = 0;
  am::TreeCollectives software_collectives_;  // for what the hardware cannot do
};

}  // namespace mppnet::machines::cm5
