// net/clocked_network_test.cpp: the endpoint contract of the flit-level network: bounded send queues that
// refuse, deliveries announced at their time, ejection held and resumed, and sleep over idle stretches
// that changes no timing.
#include "net/clocked_network.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "net/built_network.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::net::clocked_network_test {
namespace {

constexpr Picoseconds kCyclePs = 1000;

topo::TopologyParams mesh4x4() {
  return topo::testing::mesh(4, 2);
}

struct Delivered {
  PacketId id;
  NodeId src;
  NodeId dest;
  Picoseconds time_ps;
};

class Log final : public DeliveryHandler {
 public:
  void on_delivery(PacketId id, const Packet& p, Picoseconds t) override {
    got.push_back({id, p.src, p.dest, t});
  }
  void after_cycle(Picoseconds) override { ++cycles; }
  void on_ack(const Ack& a, Picoseconds t) override { acks.push_back({a.packet, a.src, a.dest, t}); }
  std::vector<Delivered> got;
  std::vector<Delivered> acks;
  int cycles = 0;
};

// Calls `action` at the times it is scheduled for.
class Action final : public core::Component {
 public:
  explicit Action(std::function<void()> f) : f_(std::move(f)) {}
  bool tick(Cycle) override { return false; }
  void on_event(std::uint32_t, std::uint64_t) override { f_(); }

 private:
  std::function<void()> f_;
};

struct Rig {
  explicit Rig(ClockedNetworkOptions options, RouterParams router = {})
      : built(mesh4x4(), with_cycle(router), 1),
        domain(scheduler.add_domain("network", kCyclePs)),
        endpoint(built.network, scheduler, domain, options) {
    endpoint.set_delivery_handler(&log);
  }
  static RouterParams with_cycle(RouterParams r) {
    r.cycle_ps = kCyclePs;
    return r;
  }
  BuiltNetwork built;
  core::Scheduler scheduler;
  core::DomainId domain;
  ClockedNetwork endpoint;
  Log log;
};

TEST(ClockedNetwork, ABoundedSendQueueRefusesWhenFullAndTakesAgainOnceAPacketLeaves) {
  Rig rig({.send_queue_packets = 2});
  EXPECT_EQ(rig.endpoint.space_to_send(0, 0), 2);
  EXPECT_NE(rig.endpoint.try_send(0, 5, 4, 0, 0), kNoPacket);
  EXPECT_EQ(rig.endpoint.space_to_send(0, 0), 1);
  EXPECT_NE(rig.endpoint.try_send(0, 6, 4, 0, 0), kNoPacket);
  EXPECT_EQ(rig.endpoint.space_to_send(0, 0), 0);
  EXPECT_EQ(rig.endpoint.try_send(0, 7, 4, 0, 0), kNoPacket);  // refused: nothing was sent
  EXPECT_EQ(rig.endpoint.space_to_send(1, 0), 2);              // another node's queue is its own
  rig.scheduler.run_until([&] { return rig.endpoint.space_to_send(0, 0) > 0; });
  EXPECT_NE(rig.endpoint.try_send(0, 7, 4, 0, 0), kNoPacket);
  // An open-loop network ticks for ever (it does not sleep): run until the three have arrived.
  rig.scheduler.run_until([&] { return rig.log.got.size() == 3; });
  rig.scheduler.run_until_time(rig.scheduler.now() + 10 * kCyclePs);
  ASSERT_EQ(rig.log.got.size(), 3u);
  EXPECT_EQ(rig.endpoint.activity().flits_in_network, 0);
}

TEST(ClockedNetwork, AnUnboundedQueueNeverRefuses) {
  Rig rig({});
  EXPECT_EQ(rig.endpoint.space_to_send(3, 0), Endpoint::kUnbounded);
  for (int i = 0; i < 1000; ++i) ASSERT_NE(rig.endpoint.try_send(3, 12, 4, 0, 0), kNoPacket);
  EXPECT_EQ(rig.endpoint.activity().queued_packets, 1000);
}

TEST(ClockedNetwork, SleepsOverAnIdleStretchWithoutChangingTheTimingOfWhatFollows) {
  // 0 -> 15 on a 4x4 mesh under DOR passes R = 7 routers; with P = L = 1 and S = 4 flits the zero-load
  // latency is L + R(P + L) + S - 1 = 1 + 14 + 3 = 18 cycles (docs/design.md, Timing).
  Rig rig({.sleeps_when_idle = true});
  Action send([&] { ASSERT_NE(rig.endpoint.try_send(0, 15, 4, 0, 0), kNoPacket); });
  const core::ComponentId sender = rig.scheduler.add(rig.domain, send, false);
  rig.scheduler.schedule(1'000'000, sender);  // cycle 1000, after a thousand quiet cycles
  EXPECT_EQ(rig.scheduler.run_until([] { return false; }), core::Scheduler::Stop::Idle);
  ASSERT_EQ(rig.log.got.size(), 1u);
  EXPECT_EQ(rig.log.got[0].time_ps, (1000 + 18) * kCyclePs);
  // Stepped only while busy, not for the thousand cycles in between: a network stays awake until
  // settle = L + P + 2 = 4 cycles have passed without a flit moving, so 5 cycles at the start (0 .. 4),
  // 19 with the packet (1000 .. 1018) and 4 after its delivery.
  EXPECT_EQ(rig.endpoint.cycles_run(), 5 + 19 + 4);
  EXPECT_EQ(rig.log.cycles, rig.endpoint.cycles_run());
}

TEST(ClockedNetwork, AnnouncesEachAckAtItsArrivalAndStaysAwakeForIt) {
  // As above, 0 -> 15 is delivered 18 cycles after it is sent at cycle 1000; its ack returns 2 + 7 x 5 +
  // 8 x 1 = 45 cycles later (net/ack_path.hpp), at cycle 1063, and the network sleeps only after that.
  Rig rig({.sleeps_when_idle = true});
  rig.built.flit().enable_acks(
      {.enabled = true, .router_cycles = 5, .channel_cycles = 1, .turnaround_cycles = 2});
  Action send([&] { ASSERT_NE(rig.endpoint.try_send(0, 15, 4, 0, 0), kNoPacket); });
  const core::ComponentId sender = rig.scheduler.add(rig.domain, send, false);
  rig.scheduler.schedule(1'000'000, sender);
  EXPECT_EQ(rig.scheduler.run_until([] { return false; }), core::Scheduler::Stop::Idle);
  ASSERT_EQ(rig.log.got.size(), 1u);
  ASSERT_EQ(rig.log.acks.size(), 1u);
  EXPECT_EQ(rig.log.acks[0].id, rig.log.got[0].id);
  EXPECT_EQ(rig.log.acks[0].src, 0);
  EXPECT_EQ(rig.log.acks[0].dest, 15);
  EXPECT_EQ(rig.log.acks[0].time_ps, (1000 + 18 + 45) * kCyclePs);
}

TEST(ClockedNetwork, HeldEjectionKeepsPacketsInTheNetworkUntilResumed) {
  Rig rig({});
  ASSERT_NE(rig.endpoint.try_send(0, 15, 4, 0, 0), kNoPacket);
  rig.endpoint.hold_ejection(15, 0, true);
  rig.scheduler.run_until_time(200 * kCyclePs);
  EXPECT_TRUE(rig.log.got.empty());
  EXPECT_EQ(rig.endpoint.activity().flits_in_network, 4);  // waiting in node 15's ejection buffer
  rig.endpoint.hold_ejection(15, 0, false);
  rig.scheduler.run_until([&] { return !rig.log.got.empty(); });
  EXPECT_EQ(rig.log.got[0].src, 0);
  EXPECT_EQ(rig.log.got[0].dest, 15);
  EXPECT_GT(rig.log.got[0].time_ps, 200 * kCyclePs);
}

}  // namespace
}  // namespace mppnet::net::clocked_network_test
