// machines/metro/design_test.cpp: the calculators against note 004c §8 targets and note 004a R6.
#include "machines/metro/design.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace mppnet::machines::metro {
namespace {

// Table 6.1 as trip indices (note 004c §6.3): codes 00-05 never trip (t = L), 06 trips at 10, 07 at 7,
// 08-09 at 5, 0A-16 at 4, 17-1F at 3.
std::vector<int> table_6_1(int register_length) {
  std::vector<int> t(32);
  for (int s = 0; s < 32; ++s)
    t[s] = s <= 5 ? register_length : s == 6 ? 10 : s == 7 ? 7 : s <= 9 ? 5 : s <= 0x16 ? 4 : 3;
  return t;
}

TEST(ImpedanceSelection, Table61SelectsCode06ForRegisterLength15And16) {
  EXPECT_EQ(select_impedance_code(table_6_1(16), 16), 0x06);
  EXPECT_EQ(select_impedance_code(table_6_1(15), 15), 0x06);
}

TEST(ImpedanceSelection, MisleadingPairsGiveThreeWhereThePairwiseRuleGivesTen) {
  // Five 1-steps, five equal codes, one 2-step (§6.8; note 004c target 2); nothing is below t = 16.
  std::vector<int> t = {11, 10, 9, 8, 7, 6, 6, 6, 6, 6, 6};
  t.resize(32, 4);
  EXPECT_EQ(select_impedance_code(t, 16), 3);
  const int naive = naive_pairwise_code(t);
  EXPECT_TRUE(naive == 10 || naive == 11) << naive;
}

TEST(ImpedanceOuterLoop, StopsWhenBothCodesRepeat) {
  // Synthetic hardware: the best pull-up code is 20 + l / 16 and the best pull-down 12 + h / 16 (weak
  // coupling). From l = 16: h = 21, l = 13; h = 20, l = 13; h = 20, l = 13 repeats: 3 iterations.
  const auto c = set_impedance([](int l) { return 20 + l / 16; }, [](int h) { return 12 + h / 16; }, 16);
  EXPECT_TRUE(c.converged);
  EXPECT_EQ(c.pullup, 20);
  EXPECT_EQ(c.pulldown, 13);
  EXPECT_EQ(c.iterations, 3);
}

TEST(ImpedanceOuterLoop, OscillatingModelHitsTheCap) {
  const auto c =
      set_impedance([](int l) { return l % 2 == 0 ? 5 : 6; }, [](int h) { return h == 5 ? 7 : 8; }, 16, 8);
  EXPECT_FALSE(c.converged);
  EXPECT_EQ(c.iterations, 8);
}

TEST(Bounce, ThreeZ0DriverGivesQuarterThenFiveEighths) {
  EXPECT_DOUBLE_EQ(source_plateau(3, 0), 0.25);
  EXPECT_DOUBLE_EQ(source_plateau(3, 1), 0.625);
}

TEST(Bounce, MatchedDriverGivesHalfThenFullAndFarEndJumpsToFull) {
  EXPECT_DOUBLE_EQ(source_plateau(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(source_plateau(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(far_end_plateau(1, 0), 1.0);
}

TEST(Bounce, HalfCrossingAtTwoTExactlyFor1BelowKBelow2PlusRoot5) {
  for (double k : {1.01, 1.5, 2.0, 3.0, 4.2}) EXPECT_EQ(first_half_crossing(k), 1) << k;
  EXPECT_GT(first_half_crossing(2 + std::sqrt(5.0) + 0.05), 1);
  EXPECT_EQ(first_half_crossing(0.9), 0);
}

TEST(Termination, PowerOfSeriesAndParallel) {
  EXPECT_DOUBLE_EQ(series_termination_watts(5, 50), 0.25);
  EXPECT_DOUBLE_EQ(series_termination_watts(1, 50), 0.01);
  EXPECT_DOUBLE_EQ(parallel_termination_watts(1, 50), 0.02);
}

TEST(RecycleRegister, TwentyFivePairsAt200MHzAnd100ps) {
  EXPECT_EQ(recycle_register_pairs(200, 100), 25);
}

TEST(WireBudget, ThirtyCentimetresAndAPadPairFitOne200MHzCycle) {
  EXPECT_DOUBLE_EQ(transit_ns(30, 4), 2.0);
  EXPECT_EQ(wire_cycles(3.0, 30, 4, 5.0), 1);
  EXPECT_EQ(extra_turn_cycles(1), 0);
  EXPECT_EQ(wire_cycles(3.0, 31, 4, 5.0), 2);
  EXPECT_EQ(extra_turn_cycles(2), 2);
}

TEST(Mbta, LatencyAndBandwidthFigures) {
  EXPECT_DOUBLE_EQ(unloaded_latency_ns(3, 4, 10), 70);
  EXPECT_DOUBLE_EQ(unloaded_latency_ns(3, 4, 5), 35);
  EXPECT_DOUBLE_EQ(peak_network_mb_per_s(64, 100), 6400);
  EXPECT_DOUBLE_EQ(node_peak_mb_per_s(1, 2, 100), 300);
  EXPECT_DOUBLE_EQ(slotted_memory_mb_per_s(4, 8, 80), 400);
  EXPECT_DOUBLE_EQ(transmit_ns(24 * 8, 8, 10), 240);
}

TEST(Rn1, HopIs34ns) {
  EXPECT_DOUBLE_EQ(router_hop_ns(20, 14), 34);
}

TEST(UnitTree, Table74RouterCounts) {
  const auto a = unit_tree(4, 2, 2);
  EXPECT_EQ(a.logical_levels, 64);
  EXPECT_EQ(a.root_channels, 32);
  EXPECT_EQ(a.up_routers, 16);
  EXPECT_EQ(a.down_routers, (std::vector<long long>{8, 12, 16}));  // initial, middle, final
  EXPECT_EQ(a.total_routers(), 52);
  const auto b = unit_tree(4, 2, 8);
  EXPECT_EQ(b.root_channels, 128);
  EXPECT_EQ(b.up_routers, 64);
  EXPECT_EQ(b.down_routers, (std::vector<long long>{32, 48, 64}));
  EXPECT_EQ(b.total_routers(), 208);
}

TEST(Stack, LayerPitchAndMbtaHeight) {
  EXPECT_DOUBLE_EQ(stack_height_in(1, 100, 140), 0.24);
  EXPECT_NEAR(stack_height_in(19, 100, 140), 4.56, 1e-12);
  EXPECT_DOUBLE_EQ(board_side_in(4, 3.0), 12.0);    // MBTA: 16 routers, 4 x 4 on 3 in centres
  EXPECT_NEAR(board_side_in(4, 2.8), 11.2, 1e-12);  // UT64x2: < 1 ft
  EXPECT_NEAR(board_side_in(8, 2.8), 22.4, 1e-12);  // UT64x8: < 2 ft
}

TEST(Reliability, MillionPartsFailEverySixMinutesAndThousandFaultsGive100Hours) {
  EXPECT_DOUBLE_EQ(system_failure_rate_per_hour(1000000, 1e-5), 10);
  EXPECT_NEAR(mttf_hours(1000000, 1e-5, 1) * 60, 6, 1e-9);
  EXPECT_NEAR(mttf_hours(1000000, 1e-5, 1000), 100, 1e-9);
  EXPECT_NEAR(all_survive_probability(1000, 1e-6), 1 - 1000 * 1e-6, 1e-6);  // Eq 2.13
}

TEST(Latency, FormulasOfChapter2AndEq31) {
  EXPECT_DOUBLE_EQ(propagation_speed_cm_per_ns(4), 15);  // c/2 on FR4
  EXPECT_DOUBLE_EQ(multiprocessor_time(1000, 9, 10), 1000);
  EXPECT_DOUBLE_EQ(switching_ns(3, 20, 14), 102);
  // Eq 3.1: 30 cm (2 ns) and 90 cm (6 ns) at a 5 ns clock take 1 and 2 cycles.
  const std::vector<double> segments = {30, 90};
  EXPECT_DOUBLE_EQ(pipelined_transit_ns(segments, 4, 5), 15);
  EXPECT_DOUBLE_EQ(message_ns(1, 2, 3, 4, 5, 6), 1 + 2 * 7 + 5 + 6);
}

TEST(Flat24, RateIsAbout004PerRouterCycle) {
  EXPECT_NEAR(flat24_rate(0.15, 0.5, 2, 0.1), 0.04125, 1e-12);
}

}  // namespace
}  // namespace mppnet::machines::metro
