// machines/metro/mlink/mbta_node_machine_test.cpp: node programs on the MBTA over MLINK: a packet is an
// ROP whose delivery time follows from Fig 11.1's framing and the network's timing, a held node NACKs
// and is retried, every application checks its result, and runs repeat exactly.
#include "machines/metro/mlink/mbta_node_machine.hpp"

#include <gtest/gtest.h>

#include <string>

#include "am/param_error.hpp"
#include "machines/metro/mrp/scenarios.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::machines::metro::mlink::mbta_node_machine_test {
namespace {

MetroConfig mbta(int stages) {
  const std::string text =
      "[machine]\nmodel = \"mbta\"\n[metro]\nradix = 4\ndilation = 2\nstages = " + std::to_string(stages) +
      "\n[metro.mrp]\ndps = 2\n";
  return load_metro_text(text, "t.toml", {});
}

workload::apps::AppResult run(const std::string& name, MbtaNodeMachine& m, const am::AmParams& am) {
  const workload::apps::AppInfo* app = workload::apps::find_application(name);
  EXPECT_NE(app, nullptr) << name;
  workload::apps::AppParams params;
  workload::apps::fit_defaults(name, params, m.machine().nodes(), am.memory_bytes, {});
  return workload::apps::run_application_on(*app, m.machine(), params, m.seed());
}

struct Deliveries final : net::DeliveryHandler {
  void on_delivery(net::PacketId, const net::Packet& p, Picoseconds t) override {
    tags.push_back(p.tag);
    times.push_back(t);
  }
  std::vector<std::uint64_t> tags;
  std::vector<Picoseconds> times;
};

struct EndpointRig {
  EndpointRig()
      : graph(build_instance(mrp::mbta_network(), 1, 0)),
        net(graph, params(), 1),
        domain(scheduler.add_domain("routers", 10000)),
        ends(net, 4, interface(), 1, scheduler, domain, {.vnets = 2, .send_queue_packets = 4}) {
    net.set_fast_reclaim(true);
    ends.set_delivery_handler(&seen);
  }
  static mrp::MrpParams params() {
    mrp::MrpParams p;
    p.dps = 2;
    return p;
  }
  static MlinkParams interface() {
    MlinkParams p;
    p.queue_capacity = 4;
    return p;
  }
  Multibutterfly graph;
  mrp::MrpNetwork net;
  core::Scheduler scheduler;
  core::DomainId domain;
  MlinkEndpoint ends;
  Deliveries seen;
};

TEST(MlinkEndpoint, APacketIsAnRopDeliveredWhenItsTurnIsRead) {
  EndpointRig rig;
  // 16 bytes: an ROP of len 2, 9 + 16 = 25 frame bytes after the ROUTE of cycle 0, its TURN in cycle 26
  // read 7 cycles later (70 ns one way): delivered at 33 cycles of 10 ns.
  ASSERT_NE(rig.ends.try_send(0, 63, 16, 77, 0), net::kNoPacket);
  rig.scheduler.run_until_time(2000000);
  ASSERT_EQ(rig.seen.tags, std::vector<std::uint64_t>{77});
  EXPECT_EQ(rig.seen.times[0], 33 * 10000);
  EXPECT_EQ(rig.ends.mlink().stats().delivered, 1);
  EXPECT_EQ(rig.ends.space_to_send(0, 0), 4);
}

TEST(MlinkEndpoint, AHeldNodeAnswersNackAndThePacketArrivesOnceReleased) {
  EndpointRig rig;
  rig.ends.hold_ejection(63, 0, true);
  ASSERT_NE(rig.ends.try_send(0, 63, 8, 5, 0), net::kNoPacket);
  rig.scheduler.run_until_time(1000 * 10000);
  EXPECT_TRUE(rig.seen.tags.empty());
  EXPECT_GT(rig.ends.mlink().stats().nacked, 10);
  rig.ends.hold_ejection(63, 0, false);
  rig.scheduler.run_until_time(2000 * 10000);
  EXPECT_EQ(rig.seen.tags, std::vector<std::uint64_t>{5});
}

TEST(MlinkEndpoint, AFullQueueRefusesAndRepliesGoFirst) {
  EndpointRig rig;
  for (int k = 0; k < 4; ++k) EXPECT_NE(rig.ends.try_send(3, 9, 8, k, 0), net::kNoPacket);
  // The first is taken into MLINK at once (the queue holds the waiting ones), so room is 4 - 3 after a
  // cycle; before any cycle all four wait and a fifth is refused.
  EXPECT_EQ(rig.ends.try_send(3, 9, 8, 4, 0), net::kNoPacket);
  EXPECT_NE(rig.ends.try_send(3, 9, 8, 100, 1), net::kNoPacket);  // a reply has a queue of its own
  rig.scheduler.run_until_time(100000 * 10000);
  ASSERT_EQ(rig.seen.tags.size(), 5u);
  EXPECT_EQ(rig.seen.tags[0], 100u);  // the reply went before the waiting requests
}

TEST(MbtaNodePrograms, EveryApplicationChecksItsResultOnSixteenNodes) {
  const am::AmParams am = mbta_am_params();
  for (const auto& app : workload::apps::applications()) {
    MbtaNodeMachine m(mbta(2), am);
    const workload::apps::AppResult r = run(app.name, m, am);
    EXPECT_TRUE(r.passed) << app.name << ": " << r.check;
    EXPECT_GT(r.totals.finish_ps, 0) << app.name;
    EXPECT_GT(m.endpoint().mlink().stats().rops, 0) << app.name;
  }
}

TEST(MbtaNodePrograms, TwoApplicationsRunOnTheSixtyFourNodeMbta) {
  const am::AmParams am = mbta_am_params();
  for (const char* name : {"counter", "alltoall"}) {
    MbtaNodeMachine m(mbta(3), am);
    const workload::apps::AppResult r = run(name, m, am);
    EXPECT_TRUE(r.passed) << name << ": " << r.check;
    const MlinkStats& s = m.endpoint().mlink().stats();
    // Every packet that crossed the network is one delivered ROP (a node's message to itself stays home).
    EXPECT_EQ(s.delivered, s.rops) << name;
    EXPECT_EQ(s.failed, 0) << name;
  }
}

TEST(MbtaNodePrograms, TheSameSeedGivesTheSameRun) {
  const am::AmParams am = mbta_am_params();
  MbtaNodeMachine a(mbta(3), am), b(mbta(3), am);
  const auto ra = run("samplesort", a, am), rb = run("samplesort", b, am);
  ASSERT_TRUE(ra.passed) << ra.check;
  EXPECT_EQ(ra.totals.finish_ps, rb.totals.finish_ps);
  EXPECT_EQ(ra.totals.network_cycles, rb.totals.network_cycles);
  EXPECT_EQ(a.endpoint().mlink().stats().trials, b.endpoint().mlink().stats().trials);
}

TEST(MbtaNodePrograms, WhatTheMbtaCannotRunIsRefusedByItsKey) {
  am::AmParams am = mbta_am_params();
  MetroConfig c = mbta(3);
  c.mrp.width = 16;
  c.origin.erase("metro.mrp.width");
  try {
    check_mbta(c, am);
    FAIL() << "a 16-bit network accepted";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("metro.mrp.width"), std::string::npos) << e.what();
  }
  c = mbta(3);
  c.mrp.faulty_packages = 2;
  EXPECT_THROW(check_mbta(c, am), core::ConfigError);
  am.dma = true;
  try {
    check_mbta(mbta(3), am);
    FAIL() << "am.dma accepted";
  } catch (const am::ParamError& e) {
    EXPECT_EQ(e.key(), "am.dma");
  }
}

}  // namespace
}  // namespace mppnet::machines::metro::mlink::mbta_node_machine_test
