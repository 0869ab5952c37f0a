// machines/cm1/router_test.cpp: hand-worked small cubes, the heart's three cases, invariants, modes.
#include "machines/cm1/router.hpp"

#include <algorithm>
#include <bit>

#include <gtest/gtest.h>

#include "machines/cm1/config.hpp"
#include "machines/cm1/patterns.hpp"
#include "machines/cm1/run.hpp"

namespace mppnet::machines::cm1::router_test {
namespace {

MachineParams cube(int dims, int procs_per_chip) {
  MachineParams m;
  m.dims = dims;
  m.procs_per_chip = procs_per_chip;
  return m;
}

RouterParams checked(RouterParams r = {}) {
  r.check_invariants = true;
  return r;
}

// dst with every VP silent except the listed (source, destination) pairs.
std::vector<std::uint32_t> sends(std::size_t vps,
                                 std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> m) {
  std::vector<std::uint32_t> dst(vps, kNoMessage);
  for (const auto& [s, d] : m) dst[s] = d;
  return dst;
}

TEST(Cm1Router, OneMessageCrossesBothDimensionsInOnePetitCycle) {
  // 2-cube, 1 processor per chip (VP = chip). Chip 0 -> chip 3, rel 11: column 0 crosses to chip 1
  // (rel 10), column 1 crosses to chip 3 (rel 00), which ejects it at the end of petit cycle 1.
  Router r(cube(2, 1), checked(), 1);
  const auto st = r.route(sends(4, {{0, 3}}));
  EXPECT_EQ(st.petit_cycles, 1);
  EXPECT_EQ(st.delivered, 1);
  EXPECT_EQ(st.productive, 2);
  EXPECT_EQ(st.desperation, 0);
  EXPECT_EQ(r.delivered_at()[0], 1);
  EXPECT_EQ(r.hops()[0], 2);
  EXPECT_EQ(st.invariant_violations, 0);
}

TEST(Cm1Router, OneChannelCarriesOneMessagePerPetitCycle) {
  // 2-cube, 4 processors per chip (VP = chip * 4 + processor). Processors 0..3 of chip 0 all send to chip 1
  // (rel 01), processor k to processor k there. Petit cycle 1 injects all four into rows 0..3; in column 0
  // the lowest row (processor 0) crosses and the rest pack up; column 1 has no takers. So processor k's
  // message crosses in petit cycle k + 1: delivery at 1, 2, 3, 4.
  Router r(cube(2, 4), checked(), 1);
  const auto st = r.route(sends(16, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(st.petit_cycles, 4);
  for (std::uint32_t k = 0; k < 4; ++k) EXPECT_EQ(r.delivered_at()[k], static_cast<int>(k) + 1) << k;
  EXPECT_EQ(st.latency_sum, 1 + 2 + 3 + 4);
  EXPECT_EQ(st.desperation, 0);
  EXPECT_EQ(st.invariant_violations, 0);
}

TEST(Cm1Router, FullChipDesperationRoutesTheHighestRow) {
  // 2-cube, 8 processors per chip (VP = chip * 8 + processor); processors 0..7 of chip 0 send to chip 2
  // (rel 10), processor k to processor k there (VP 16 + k).
  // pc 1: rows 0..6 take processors 0..6; processor 7 gets no acknowledgement. Column 0: 7 rows full and
  //   none wants dimension 0, so row 6 (processor 6) is desperation-routed to chip 1 (rel 11). Column 1:
  //   chip 0 sends processor 0 to chip 2 (ejected, pc 1); chip 1 sends processor 6 on to chip 3 (rel 01).
  // pc 2: chip 0 holds 1..5 in rows 0..4; processor 7 enters row 5 (6 messages: no desperation). Column 0:
  //   chip 3 sends processor 6 to chip 2 (rel 00). Column 1: chip 0 sends processor 1. Both ejected at pc 2.
  // pc 3..7: processors 2, 3, 4, 5, 7 cross dimension 1 one per petit cycle.
  Router r(cube(2, 8), checked(), 1);
  std::vector<std::uint32_t> dst(32, kNoMessage);
  for (std::uint32_t k = 0; k < 8; ++k) dst[k] = 16 + k;
  const auto st = r.route(dst);
  EXPECT_EQ(st.petit_cycles, 7);
  EXPECT_EQ(st.desperation, 1);
  const int expected_pc[8] = {1, 2, 3, 4, 5, 6, 2, 7};
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(r.delivered_at()[static_cast<std::size_t>(k)], expected_pc[k]) << k;
    EXPECT_EQ(r.hops()[static_cast<std::size_t>(k)], k == 6 ? 3 : 1) << k;  // 1 + 2 x 1 desperation hop
  }
  EXPECT_EQ(st.productive + st.desperation, 10);
  EXPECT_EQ(st.invariant_violations, 0);
}

TEST(Cm1Router, BufferedMessagesKeepTheirRows) {
  // The same set as above, observed after petit cycle 1: chip 0 keeps processors 1..5 in rows 0..4
  // (packed by the heart), rows 5 and 6 empty; chip 3 holds processor 6's message in row 6, where the
  // message arriving over the last dimension lands.
  Router r(cube(2, 8), RouterParams{}, 1);
  std::vector<std::uint32_t> dst(32, kNoMessage);
  for (std::uint32_t k = 0; k < 8; ++k) dst[k] = 16 + k;
  std::vector<std::int64_t> chip0, chip3;
  r.set_observer([&](const Router& rt, std::int64_t pc) {
    if (pc != 1) return;
    chip0 = rt.rows_of(0);
    chip3 = rt.rows_of(3);
  });
  r.route(dst);
  EXPECT_EQ(chip0, (std::vector<std::int64_t>{1, 2, 3, 4, 5, -1, -1}));
  EXPECT_EQ(chip3, (std::vector<std::int64_t>{-1, -1, -1, -1, -1, -1, 6}));
}

TEST(Cm1Router, MessagesToOneProcessorInOnePetitCycleAreOred) {
  // 2-cube, 2 processors per chip. VP 2 (chip 1) and VP 4 (chip 2) both send to VP 6 (chip 3, processor 0).
  // Column 0: chip 2 -> chip 3 (row 0). Column 1: chip 1 -> chip 3 (row 6). Both arrive in petit cycle 1
  // and are OR'ed: data = source VP, so VP 6 receives 2 | 4 = 6.
  Router r(cube(2, 2), checked(), 1);
  const auto st = r.route(sends(8, {{2, 6}, {4, 6}}));
  EXPECT_EQ(st.petit_cycles, 1);
  EXPECT_EQ(st.or_combined, 1);
  EXPECT_EQ(r.received()[6], 2u | 4u);
}

TEST(Cm1Router, SingleEjectPerProcessorDelaysTheSecondMessage) {
  // As above, with one message per processor per petit cycle: row 0 (VP 4's) goes at pc 1; VP 2's stays
  // in row 6, goes round the heart without wanting any dimension, and is ejected at pc 2.
  RouterParams p = checked();
  p.eject_limit = EjectLimit::OnePerProcessor;
  Router r(cube(2, 2), p, 1);
  const auto st = r.route(sends(8, {{2, 6}, {4, 6}}));
  EXPECT_EQ(st.petit_cycles, 2);
  EXPECT_EQ(st.or_combined, 0);
  EXPECT_EQ(r.delivered_at()[4], 1);
  EXPECT_EQ(r.delivered_at()[2], 2);
  EXPECT_EQ(st.invariant_violations, 0);
}

TEST(Cm1Router, SingleEjectPerChipLimitsDifferentProcessorsToo) {
  // VP 2 -> VP 6 and VP 4 -> VP 7 (two processors of chip 3): one per chip means two petit cycles.
  RouterParams p = checked();
  p.eject_limit = EjectLimit::OnePerChip;
  Router r(cube(2, 2), p, 1);
  EXPECT_EQ(r.route(sends(8, {{2, 6}, {4, 7}})).petit_cycles, 2);
  p.eject_limit = EjectLimit::None;
  Router all(cube(2, 2), p, 1);
  EXPECT_EQ(all.route(sends(8, {{2, 6}, {4, 7}})).petit_cycles, 1);
}

TEST(Cm1Router, ComplementOnA3CubeUsesEveryWireEveryPetitCycle) {
  // 3-cube, 2 processors per chip: every message has rel 111. pc 1: column 0 sends row 0 and receives
  // (rel 110); column 1 sends the other original (rel 111), column 2 the arrival of column 0; each chip
  // ends with rel 101 and 010. pc 2 delivers both. 16 messages x 3 hops = 48 = 8 chips x 3 dims x 2 pc.
  MachineParams m = cube(3, 2);
  TrafficParams t;
  t.pattern = Pattern::Complement;
  Router r(m, checked(), 1);
  const auto st = r.route(make_destinations(m, t, 1));
  EXPECT_EQ(st.petit_cycles, 2);
  EXPECT_EQ(st.productive, 48);
  EXPECT_EQ(st.channel_slots, 48);
  EXPECT_EQ(st.desperation, 0);
}

TEST(Cm1Router, ComplementOnTheFullMachineTakes16PetitCyclesPerVpBank) {
  // Note 001 §5 E3: complement on 64K processors, every message wants every wire: p = 16v exactly.
  Cm1Config c;
  c.traffic.pattern = Pattern::Complement;
  const auto r = run_routing(c);
  EXPECT_EQ(r.stats.petit_cycles, 16);
  EXPECT_DOUBLE_EQ(r.productive_fraction, 1.0);
  EXPECT_EQ(r.stats.desperation, 0);
}

TEST(Cm1Router, InvariantsHoldAfterEveryPetitCycleInEveryMode) {
  for (const auto pattern :
       {Pattern::RandomFunction, Pattern::HotSpot, Pattern::BitReversal, Pattern::AllToOne}) {
    for (const auto limit : {EjectLimit::None, EjectLimit::OnePerChip}) {
      for (const auto bufs : {BufferedRows::Keep, BufferedRows::Repack}) {
        Cm1Config c;
        c.machine.dims = 6;
        c.traffic.pattern = pattern;
        c.traffic.vp_ratio = 2;
        c.cm1.eject_limit = limit;
        c.cm1.buffered_rows = bufs;
        c.cm1.injector_priority =
            bufs == BufferedRows::Keep ? InjectorPriority::Fixed : InjectorPriority::Rotating;
        c.cm1.vp_ejection = limit == EjectLimit::None ? VpEjection::OneBank : VpEjection::AnyBank;
        c.cm1.check_invariants = true;
        const auto r = run_routing(c);
        EXPECT_TRUE(r.stats.terminated);
        EXPECT_EQ(r.stats.delivered, r.stats.messages);
        EXPECT_EQ(r.stats.invariant_violations, 0) << static_cast<int>(pattern);
      }
    }
  }
}

TEST(Cm1Router, HopsHaveTheParityOfTheHammingDistance) {
  Cm1Config c;
  c.machine.dims = 8;
  c.cm1.check_invariants = true;
  const auto dst = make_destinations(c.machine, c.traffic, 3);
  Router r(c.machine, c.cm1, 1);
  r.route(dst);
  for (std::uint32_t s = 0; s < dst.size(); ++s) {
    const int distance = std::popcount((s >> 4) ^ (dst[s] >> 4));  // chip = processor >> log2(16)
    EXPECT_GE(r.hops()[s], distance);
    EXPECT_EQ((r.hops()[s] - distance) % 2, 0) << s;
  }
}

TEST(Cm1Router, AllToOneOrsEveryMessage) {
  // 4-cube, 2 processors per chip: all 32 VPs send their number to VP 0, which receives 0 | 1 | ... | 31.
  Cm1Config c;
  c.machine.dims = 4;
  c.machine.procs_per_chip = 2;
  c.traffic.pattern = Pattern::AllToOne;
  Router r(c.machine, c.cm1, 1);
  const auto st = r.route(make_destinations(c.machine, c.traffic, 1));
  EXPECT_EQ(st.delivered, 32);
  EXPECT_EQ(r.received()[0], 31u);
}

TEST(Cm1Router, CombiningFoldsMessagesForOneVpThatMeet) {
  // The OR example above with CM-2 combining: VP 4's message reaches chip 3 in column 0 (rel 00) and VP 2's
  // arrives there in column 1 with the same relative address and destination VP: it is folded into the
  // first and both are delivered at pc 1, with no OR at the ejector.
  RouterParams p = checked();
  p.combining = true;
  Router r(cube(2, 2), p, 1);
  const auto st = r.route(sends(8, {{2, 6}, {4, 6}}));
  EXPECT_EQ(st.combined, 1);
  EXPECT_EQ(st.or_combined, 0);
  EXPECT_EQ(st.delivered, 2);
  EXPECT_EQ(r.delivered_at()[2], 1);
  EXPECT_EQ(r.received()[6], 2u | 4u);
  EXPECT_EQ(st.invariant_violations, 0);
}

TEST(Cm1Router, CombiningAtTheInjectorSavesTheWires) {
  // VP 0 and VP 1 (both on chip 0) send to VP 6 on chip 3: folded at injection, one message crosses two
  // dimensions (2 transmissions instead of 4).
  RouterParams p = checked();
  p.combining = true;
  Router r(cube(2, 2), p, 1);
  const auto st = r.route(sends(8, {{0, 6}, {1, 6}}));
  EXPECT_EQ(st.petit_cycles, 1);
  EXPECT_EQ(st.transmissions, 2);
  EXPECT_EQ(r.received()[6], 1u);
  EXPECT_EQ(st.delivered, 2);
}

TEST(Cm1Router, CombiningMakesAllToOneFast) {
  Cm1Config c;
  c.machine.dims = 6;
  c.traffic.pattern = Pattern::AllToOne;
  c.cm1.check_invariants = true;
  const auto plain = run_routing(c);
  c.cm1.combining = true;
  const auto combined = run_routing(c);
  EXPECT_EQ(combined.stats.delivered, 1024);
  EXPECT_EQ(combined.stats.invariant_violations, 0);
  EXPECT_LT(combined.stats.petit_cycles * 4, plain.stats.petit_cycles);
}

TEST(Cm1Router, SameSeedSameResultOtherSeedOtherResult) {
  Cm1Config c;
  c.machine.dims = 8;
  c.traffic.vp_ratio = 2;
  const auto a = run_routing(c);
  const auto b = run_routing(c);
  EXPECT_EQ(a.stats.remaining_after, b.stats.remaining_after);
  EXPECT_EQ(a.stats.transmissions, b.stats.transmissions);
  c.run.seed = 2;
  EXPECT_NE(run_routing(c).stats.remaining_after, a.stats.remaining_after);
}

TEST(Cm1Router, OneVpBankPerPetitCycleHoldsArrivedMessages) {
  // 2-cube, 1 processor per chip, VP ratio 2 (VP = bank * 4 + chip). Chip 0's processor offers VP 0
  // (bank 0, to VP 5 = bank 1 of chip 1) at pc 1 and VP 4 (bank 1, to VP 1 = bank 0 of chip 1) at pc 2.
  // Each crosses dimension 0 in the petit cycle it is injected. One bank per petit cycle, bank (pc-1) mod 2:
  // VP 0's message arrives at pc 1 (bank 0 served) and waits for pc 2; VP 4's arrives at pc 2 (bank 1
  // served) and waits for pc 3. Any bank: delivered at pc 1 and pc 2.
  RouterParams p = checked();
  p.vp_ejection = VpEjection::OneBank;
  Router one(cube(2, 1), p, 2);
  auto dst = sends(8, {{0, 5}, {4, 1}});
  auto st = one.route(dst);
  EXPECT_EQ(one.delivered_at()[0], 2);
  EXPECT_EQ(one.delivered_at()[4], 3);  // injected pc 2, arrives pc 2 (bank 1 served), bank 0 at pc 3
  EXPECT_EQ(st.petit_cycles, 3);
  p.vp_ejection = VpEjection::AnyBank;
  Router any(cube(2, 1), p, 2);
  st = any.route(dst);
  EXPECT_EQ(any.delivered_at()[0], 1);
  EXPECT_EQ(any.delivered_at()[4], 2);
  EXPECT_EQ(st.petit_cycles, 2);
}

TEST(Cm1Router, OneRowLivelocksAndTheTimeoutReportsIt) {
  // With B = 1 the only row is the reserved one: every message is forced across every dimension (note
  // §5 E9). A timeout stops it; splitting in halves (paper L155) does not help a 1-row heart.
  Cm1Config c;
  c.machine.dims = 4;
  c.cm1.rows = 1;
  c.cm1.timeout_petit_cycles = 200;
  c.cm1.max_splits = 1;
  const auto r = run_routing(c);
  EXPECT_FALSE(r.stats.terminated);
  EXPECT_EQ(r.stats.splits, 1);
  EXPECT_EQ(r.stats.petit_cycles, 600);
  EXPECT_LT(r.stats.delivered, r.stats.messages);
}

TEST(Cm1Router, SparseLoadsSendAboutTheFractionAsked) {
  Cm1Config c;
  c.machine.dims = 8;
  c.traffic.send_fraction = 0.25;
  const auto r = run_routing(c);
  EXPECT_NEAR(static_cast<double>(r.stats.messages) / 4096.0, 0.25, 0.03);
  EXPECT_EQ(r.stats.delivered, r.stats.messages);
}

TEST(Cm1Router, DropBitsRoutesObliviouslyByECube) {
  // 2-cube, 2 processors per chip (VP = chip * 2 + local). VPs 0 and 1 on chip 0 both go to chip 3.
  // Column 0: VP 0 (lower row) crosses to chip 1; column 1: it crosses on to chip 3 and is delivered.
  // Adaptive: VP 1 still wants both dimensions and crosses dimension 1 to chip 2 in column 1.
  // E-cube: VP 1 may not cross dimension 1 while it needs dimension 0, so it stays at chip 0.
  const auto dst = sends(8, {{0, 6}, {1, 7}});
  for (const Pipeline p : {Pipeline::Rotating, Pipeline::DropBits}) {
    RouterParams params = checked();
    params.pipeline = p;
    Router r(cube(2, 2), params, 1);
    std::vector<std::int64_t> chip0, chip2;
    r.set_observer([&](const Router& rt, std::int64_t pc) {
      if (pc != 1) return;
      chip0 = rt.rows_of(0);
      chip2 = rt.rows_of(2);
    });
    const RoutingStats st = r.route(dst);
    EXPECT_EQ(st.petit_cycles, 2);
    EXPECT_EQ(st.invariant_violations, 0);
    EXPECT_EQ(r.delivered_at()[0], 1);
    EXPECT_EQ(r.delivered_at()[1], 2);
    const bool drop = p == Pipeline::DropBits;
    // (An arrival over the last dimension sits in row B-1, so look in every row.)
    EXPECT_EQ(std::count(chip0.begin(), chip0.end(), 1), drop ? 1 : 0);
    EXPECT_EQ(std::count(chip2.begin(), chip2.end(), 1), drop ? 0 : 1);
  }
}

TEST(Cm1Router, DropBitsDeliversRandomAndTransposeWithInvariants) {
  // E-cube is slower than adaptive routing on transpose (the paper's reason for adaptivity, L204-L206):
  // measured at 64K, 158 petit cycles against 20 (docs/cm1.md); here only delivery and invariants.
  Cm1Config c;
  c.machine.dims = 6;
  c.machine.procs_per_chip = 4;
  c.cm1.pipeline = Pipeline::DropBits;
  c.cm1.check_invariants = true;
  for (const Pattern pat : {Pattern::RandomFunction, Pattern::Transpose}) {
    c.traffic.pattern = pat;
    const auto r = run_routing(c);
    EXPECT_TRUE(r.stats.terminated);
    EXPECT_EQ(r.stats.delivered, r.stats.messages);
    EXPECT_EQ(r.stats.invariant_violations, 0);
  }
}

}  // namespace
}  // namespace mppnet::machines::cm1::router_test
