// machines/cs2/elan_collectives_test.cpp: collectives on the CS-2's broadcast: a broadcast costs one
// crossing of the canonical tree between the root's send and every PE's receive, a barrier releases
// nobody before the last PE arrives and everybody together, blocks arrive byte for byte, reductions and
// scans give am's results, and machines that cannot broadcast keep the software tree.
#include "machines/cs2/elan_collectives.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "am/node.hpp"
#include "machines/cs2/node_machine.hpp"

namespace mppnet::machines::cs2::elan_collectives_test {
namespace {

constexpr Picoseconds kSparcPs = 25000;  // cs2_am_params(): a 40 MHz SPARC

Cs2Config machine_of(int pes) {
  Cs2Config c;
  c.machine.pes = pes;
  check_cs2(c);
  return c;
}

ElanCollectives& collectives_of(Cs2NodeMachine& m) {
  auto* c = dynamic_cast<ElanCollectives*>(&m.machine().collectives());
  EXPECT_NE(c, nullptr) << "the preset runs collectives on the broadcast";
  return *c;
}

// A value broadcast from PE 0 on 16 PEs (two stages): the root's SPARC sends (20 cycles), one packet of
// 13 bytes of Elan overhead and 8 of data crosses the canonical tree, 3 switches for every copy, its
// own included (zero_load_cycles, checked against the network in cs2_network_test.cpp), and each SPARC
// reads it (20 cycles). Each clock crossing may wait up to a link cycle for the next edge: 2 in all.
TEST(ElanCollectives, ABroadcastCostsOneCrossingOfTheTree) {
  const am::AmParams am = cs2_am_params();
  const Cs2Config c = machine_of(16);
  Cs2NodeMachine m(c, am);
  std::vector<Picoseconds> done(16, -1);
  std::vector<std::uint64_t> got(16, 0);
  m.machine().run([&](am::Node& node) -> am::Task<> {
    got[static_cast<std::size_t>(node.id())] = co_await node.broadcast(0x0123456789abcdefULL, 0);
    done[static_cast<std::size_t>(node.id())] = node.now();
  });
  const Picoseconds link_ps = c.elite.clock_ps;
  const Picoseconds expected = (am.send_cycles + am.receive_cycles) * kSparcPs +
                               zero_load_cycles(c.elite, 3, am.header_bytes + 8) * link_ps;
  for (int v = 0; v < 16; ++v) {
    EXPECT_EQ(got[static_cast<std::size_t>(v)], 0x0123456789abcdefULL) << "PE " << v;
    EXPECT_GE(done[static_cast<std::size_t>(v)], expected) << "PE " << v;
    EXPECT_LE(done[static_cast<std::size_t>(v)], expected + 2 * link_ps) << "PE " << v;
  }
  EXPECT_EQ(*std::min_element(done.begin(), done.end()), *std::max_element(done.begin(), done.end()))
      << "the copies leave the switches in lockstep";
}

// PE v computes v x 100 cycles before the barrier, so PE 15 arrives last, at (1500 + 20) SPARC cycles.
// PE 0 probes from its own arrival, and an Elan acks a probe if its PE has arrived when the probe's copy
// drains there. So the release leaves at the earliest when a copy drains at PE 15 just after its arrival
// and the merged ack has come back, and reaches every PE one crossing later (then the poll); at the
// latest, the copy drained just before the arrival, so one more probe round trip comes first.
TEST(ElanCollectives, ABarrierReleasesEveryPeTogetherAfterTheLastArrives) {
  const am::AmParams am = cs2_am_params();
  const Cs2Config c = machine_of(16);
  Cs2NodeMachine m(c, am);
  std::vector<Picoseconds> done(16, -1);
  m.machine().run([&](am::Node& node) -> am::Task<> {
    co_await node.compute(100 * node.id());
    co_await node.barrier();
    done[static_cast<std::size_t>(node.id())] = node.now();
  });
  const Picoseconds link_ps = c.elite.clock_ps;
  const std::int64_t crossing = zero_load_cycles(c.elite, 3, am.header_bytes + 4);
  // The ack returns through 3 switches and 4 links (net/ack_path.hpp).
  const std::int64_t ack = 3 * c.elite.ack_cycles + 4 * c.elite.wire_cycles + c.elan.turnaround_cycles;
  const Picoseconds last_arrival = (1500 + am.send_cycles) * kSparcPs;
  const Picoseconds earliest = last_arrival + (ack + crossing) * link_ps + am.poll_cycles * kSparcPs;
  for (int v = 0; v < 16; ++v) {
    EXPECT_GE(done[static_cast<std::size_t>(v)], earliest) << "PE " << v;
    // Up to a link cycle at each of the three clock crossings besides.
    EXPECT_LE(done[static_cast<std::size_t>(v)], earliest + (crossing + ack + 3) * link_ps) << "PE " << v;
    EXPECT_EQ(done[static_cast<std::size_t>(v)], done[0]) << "PE " << v;
  }
  const ElanCollectives& coll = collectives_of(m);
  EXPECT_GE(coll.refused_probes(), 1);
  EXPECT_EQ(coll.probes(), coll.refused_probes() + 1) << "the last probe is the one every Elan acked";
}

// 200 bytes from PE 5 go as packets of 64, 64, 64 and 8 bytes, by the Elan's DMA (200 >= 192): every PE
// gets them byte for byte, the root's SPARC pays the DMA start-up, 200 cycles.
TEST(ElanCollectives, ABlockArrivesByteForByteAtEveryPe) {
  const am::AmParams am = cs2_am_params();
  Cs2NodeMachine m(machine_of(16), am);
  constexpr std::uint32_t kBytes = 200;
  m.machine().run([&](am::Node& node) -> am::Task<> {
    const std::uint32_t buf = node.allocate(kBytes);
    if (node.id() == 5)
      for (std::uint32_t i = 0; i < kBytes; ++i)
        node.store_local(buf + i, static_cast<std::uint8_t>(3 * i + 1));
    co_await node.broadcast_block(5, buf, kBytes);
  });
  for (int v = 0; v < 16; ++v)
    for (std::uint32_t i = 0; i < kBytes; ++i)
      ASSERT_EQ(m.machine().node(v).load<std::uint8_t>(i), static_cast<std::uint8_t>(3 * i + 1))
          << "PE " << v << " byte " << i;
}

// PE v gives v + 1: the sum is 16 x 17 / 2 = 136 on every PE, PE v's exclusive prefix v (v + 1) / 2,
// the minimum 1; reductions and scans repeated in a loop keep their order.
TEST(ElanCollectives, ReductionsAndScansGiveAmsResults) {
  const am::AmParams am = cs2_am_params();
  Cs2NodeMachine m(machine_of(16), am);
  std::vector<int> wrong(16, 0);
  m.machine().run([&](am::Node& node) -> am::Task<> {
    const std::uint64_t v = static_cast<std::uint64_t>(node.id());
    for (int round = 0; round < 3; ++round) {
      const std::uint64_t sum = co_await node.reduce(v + 1, am::ReduceOp::Sum);
      const std::uint64_t prefix = co_await node.scan(v + 1, am::ReduceOp::Sum, false);
      const std::uint64_t least = co_await node.reduce(v + 1, am::ReduceOp::Min);
      co_await node.barrier();
      if (sum != 136 || prefix != v * (v + 1) / 2 || least != 1) ++wrong[v];
    }
  });
  for (int v = 0; v < 16; ++v) EXPECT_EQ(wrong[static_cast<std::size_t>(v)], 0) << "PE " << v;
}

// A failed link: broadcasts take the canonical tree, which is not rebuilt around it, so the machine keeps
// am's software tree and says why.
TEST(ElanCollectives, AMachineThatCannotBroadcastKeepsTheSoftwareTree) {
  Cs2Config c = machine_of(64);
  c.faults.failed_link = {0, 2, 0, 0, 4};
  check_cs2(c);
  Cs2NodeMachine m(c, cs2_am_params());
  EXPECT_EQ(m.machine().collectives().path(), "software tree over the data network");
  EXPECT_NE(m.description().find("collectives in software"), std::string::npos) << m.description();
  c.faults.failed_link.clear();
  c.elan.collectives = CollectivesPath::Software;
  Cs2NodeMachine chosen(c, cs2_am_params());
  EXPECT_EQ(chosen.machine().collectives().path(), "software tree over the data network");
  Cs2NodeMachine hardware(machine_of(64), cs2_am_params());
  EXPECT_NE(hardware.machine().collectives().path().find("CS-2 broadcast"), std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::cs2::elan_collectives_test
