// machines/cs2/node_machine_test.cpp: node programs on the CS-2: every application checks its own result,
// requests and replies each keep to a layer, one virtual network stripes over both, runs repeat exactly,
// a put by the Elan's DMA costs the start-up, and a machine that cannot separate requests from
// replies is refused by its key.
#include "machines/cs2/node_machine.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::machines::cs2::node_machine_test {
namespace {

Cs2Config machine_of(int pes) {
  Cs2Config c;
  c.machine.pes = pes;
  check_cs2(c);
  return c;
}

workload::apps::AppResult run(const std::string& name, Cs2NodeMachine& m, const am::AmParams& am) {
  const workload::apps::AppInfo* app = workload::apps::find_application(name);
  EXPECT_NE(app, nullptr) << name;
  workload::apps::AppParams params;
  workload::apps::fit_defaults(name, params, m.machine().nodes(), am.memory_bytes, {});
  return workload::apps::run_application_on(*app, m.machine(), params, m.seed());
}

TEST(Cs2NodePrograms, EveryApplicationChecksItsResultOnSixteenPes) {
  const am::AmParams am = cs2_am_params();
  for (const auto& app : workload::apps::applications()) {
    Cs2NodeMachine m(machine_of(16), am);
    const workload::apps::AppResult r = run(app.name, m, am);
    EXPECT_TRUE(r.passed) << app.name << ": " << r.check;
    EXPECT_GT(r.totals.finish_ps, 0) << app.name;
  }
}

// Requests take layer 0 and replies layer 1: each layer delivers exactly the packets of its kind that
// crossed the network (the runtime's own counts; a node's message to itself never enters it).
TEST(Cs2NodePrograms, RequestsAndRepliesEachKeepToALayer) {
  const am::AmParams am = cs2_am_params();
  Cs2NodeMachine m(machine_of(16), am);
  const workload::apps::AppResult r = run("counter", m, am);
  ASSERT_TRUE(r.passed) << r.check;
  const std::int64_t on0 = m.network().layer(0).counters().packets_delivered;
  const std::int64_t on1 = m.network().layer(1).counters().packets_delivered;
  EXPECT_GT(on0, 0);
  EXPECT_EQ(on0, on1) << "every counter request crossing the network has its reply";
  EXPECT_EQ(on0 + on1, r.totals.packets - 2 * (r.totals.requests - on0));
}

// One virtual network: each PE alternates its packets between the layers, so the layers' counts differ
// by at most one packet per PE.
TEST(Cs2NodePrograms, OneVirtualNetworkStripesOverBothLayers) {
  am::AmParams am = cs2_am_params();
  am.separate_vnets = false;
  Cs2NodeMachine m(machine_of(16), am);
  const workload::apps::AppResult r = run("alltoall", m, am);
  ASSERT_TRUE(r.passed) << r.check;
  const std::int64_t on0 = m.network().layer(0).counters().packets_delivered;
  const std::int64_t on1 = m.network().layer(1).counters().packets_delivered;
  EXPECT_GT(on0, 0);
  EXPECT_LE(std::llabs(on0 - on1), 16);
}

TEST(Cs2NodePrograms, TheSameSeedGivesTheSameRun) {
  const am::AmParams am = cs2_am_params();
  Cs2NodeMachine a(machine_of(64), am), b(machine_of(64), am);
  const auto ra = run("samplesort", a, am), rb = run("samplesort", b, am);
  ASSERT_TRUE(ra.passed) << ra.check;
  EXPECT_EQ(ra.totals.finish_ps, rb.totals.finish_ps);
  EXPECT_EQ(ra.totals.flits, rb.totals.flits);
  EXPECT_EQ(ra.totals.network_cycles, rb.totals.network_cycles);
}

// Byte errors on a bottom switch's up-link: every corrupted packet is aborted at its destination and sent
// again by its Elan, so the program sees each of its packets delivered exactly once, as many as without
// faults, and still checks its result (nothing corrupt was committed, L95-L97).
TEST(Cs2NodePrograms, TheElansResendWhatAByteErrorAborted) {
  const am::AmParams am = cs2_am_params();
  Cs2Config faulty = machine_of(16);
  faulty.faults.link = {0, 1, 0, 0, 4};
  faulty.faults.byte_error_rate = 0.02;
  check_cs2(faulty);
  Cs2NodeMachine clean(machine_of(16), am), m(faulty, am);
  const auto rc = run("alltoall", clean, am), r = run("alltoall", m, am);
  ASSERT_TRUE(r.passed) << r.check;
  const Cs2Network& net = m.network();
  EXPECT_GT(net.corrupted(), 0);
  EXPECT_EQ(net.layer(0).packets_aborted(), net.corrupted()) << "the faulty link is in layer 0";
  EXPECT_EQ(m.endpoint().resent(), net.corrupted());
  const auto delivered = [](const Cs2Network& n) {
    return n.layer(0).counters().packets_delivered + n.layer(1).counters().packets_delivered;
  };
  EXPECT_EQ(delivered(net), delivered(clean.network()));
  EXPECT_EQ(r.totals.packets, rc.totals.packets);
  EXPECT_GT(r.totals.finish_ps, rc.totals.finish_ps) << "resends cost time";
}

// When a put of `bytes` bytes from PE 0 to PE 1 returns on a 16-PE CS-2 (the SPARC at 25 ns): through
// the Elan's DMA after the start-up alone, 200 cycles = 5 us (the Elan takes the packets at once);
// through the SPARC after a send per 64-byte packet, 20 cycles and 1 + 16 words copied = 37 cycles each
// (the first ack comes back after the last send, 3.35 us later, so no handler interrupts them). The
// preset sends transfers of fewer than 3 packets (am.dma_min_bytes = 192) through the SPARC. Either way
// the bytes arrive.
Picoseconds put_returns(std::uint32_t bytes, bool dma) {
  am::AmParams am = cs2_am_params();
  EXPECT_TRUE(am.dma);
  EXPECT_EQ(am.dma_startup_cycles, 200);
  EXPECT_EQ(am.dma_min_bytes, 192);
  am.dma = dma;
  Cs2NodeMachine m(machine_of(16), am);
  Picoseconds returned = -1;
  m.machine().run([&returned, bytes](am::Node& node) -> am::Task<> {
    const std::uint32_t buf = node.allocate(bytes);
    if (node.id() != 0) co_return;
    for (std::uint32_t i = 0; i < bytes; ++i) node.store_local(buf + i, static_cast<std::uint8_t>(i + 1));
    co_await node.put(1, buf, buf, bytes);
    returned = node.now();
    co_await node.sync();
  });
  for (std::uint32_t i = 0; i < bytes; ++i)
    EXPECT_EQ(m.machine().node(1).load<std::uint8_t>(i), static_cast<std::uint8_t>(i + 1));
  return returned;
}

TEST(Cs2NodePrograms, APutByTheElansDmaCostsTheStartup) {
  EXPECT_EQ(put_returns(192, true), 200 * 25000);
  EXPECT_EQ(put_returns(192, false), 3 * 37 * 25000);
  EXPECT_EQ(put_returns(64, true), 37 * 25000) << "one packet goes through the SPARC";
}

TEST(Cs2NodePrograms, SeparateRequestsAndRepliesNeedTwoLayers) {
  Cs2Config c = machine_of(16);
  c.machine.layers = 1;
  try {
    Cs2NodeMachine m(c, cs2_am_params());
    FAIL() << "a one-layer machine took requests and replies apart";
  } catch (const am::ParamError& e) {
    EXPECT_EQ(e.key(), "am.separate_vnets");
    EXPECT_NE(std::string(e.what()).find("machine.layers is 1"), std::string::npos) << e.what();
  }
  am::AmParams shared = cs2_am_params();
  shared.separate_vnets = false;
  Cs2NodeMachine m(c, shared);
  EXPECT_TRUE(run("counter", m, shared).passed);
}

}  // namespace
}  // namespace mppnet::machines::cs2::node_machine_test
