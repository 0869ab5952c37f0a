// workload/traffic_check_test.cpp: one test per reason check() rejects a [traffic] table.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "workload/traffic.hpp"

namespace mppnet::workload {
namespace {

// The only problem reported, or a failure if there is not exactly one.
Problem only_problem(const TrafficParams& p, long long nodes) {
  const auto problems = check(p, nodes);
  std::string found;
  for (const auto& q : problems) found += "\n  " + q.key + ": " + q.reason;
  EXPECT_EQ(problems.size(), 1u) << "problems:" << found;
  return problems.empty() ? Problem{} : problems.front();
}

TEST(TrafficCheck, DefaultsAreValid) {
  EXPECT_TRUE(check(TrafficParams{}, 64).empty());
}

TEST(TrafficCheck, AllPatternsOnAFittingNodeCountAreValid) {
  for (std::size_t i = 0; i < kPatternCount; ++i) {
    TrafficParams p;
    p.pattern = static_cast<PatternKind>(i);
    EXPECT_TRUE(check(p, 64).empty()) << name(p.pattern);  // 64 = 4^3: even transpose fits
    EXPECT_TRUE(check(p, 1).empty()) << name(p.pattern);   // 1 = 2^0 = 4^0
  }
}

TEST(TrafficCheck, RejectsNoNodes) {
  const auto q = only_problem(TrafficParams{}, 0);
  EXPECT_EQ(q.key, "traffic");
  EXPECT_EQ(q.reason, "the network has 0 nodes; traffic needs between 1 and 2147483647");
}

TEST(TrafficCheck, RejectsMoreNodesThanNodeIdHolds) {
  EXPECT_EQ(only_problem(TrafficParams{}, 1LL << 31).key, "traffic");
}

TEST(TrafficCheck, RejectsBitReverseOnNonPowerOfTwo) {
  const auto q = only_problem({.pattern = PatternKind::BitReverse}, 1000);
  EXPECT_EQ(q.key, "traffic.pattern");
  EXPECT_EQ(q.reason, "bit_reverse needs a power-of-two node count (got 1000 nodes)");
}

TEST(TrafficCheck, RejectsBitComplementOnNonPowerOfTwo) {
  const auto q = only_problem({.pattern = PatternKind::BitComplement}, 12);
  EXPECT_EQ(q.key, "traffic.pattern");
  EXPECT_EQ(q.reason, "bit_complement needs a power-of-two node count (got 12 nodes)");
}

TEST(TrafficCheck, RejectsShuffleOnNonPowerOfTwo) {
  const auto q = only_problem({.pattern = PatternKind::Shuffle}, 48);
  EXPECT_EQ(q.key, "traffic.pattern");
  EXPECT_EQ(q.reason, "shuffle needs a power-of-two node count (got 48 nodes)");
}

TEST(TrafficCheck, RejectsTransposeOnOddNumberOfAddressBits) {
  // 32 = 2^5: a power of two, but 5 bits do not split into equal halves.
  const auto q = only_problem({.pattern = PatternKind::Transpose}, 32);
  EXPECT_EQ(q.key, "traffic.pattern");
  EXPECT_EQ(q.reason,
            "transpose needs a node count that is a power of four (1, 4, 16, 64, ...) so that the address "
            "bits split into equal halves (got 32 nodes)");
  EXPECT_EQ(only_problem({.pattern = PatternKind::Transpose}, 36).key, "traffic.pattern");  // 6 x 6, not 2^m
}

TEST(TrafficCheck, RejectsRateZeroOrNegative) {
  const auto q = only_problem({.rate = 0.0}, 16);
  EXPECT_EQ(q.key, "traffic.rate");
  EXPECT_EQ(q.reason, "rate is 0 flits/node/cycle; it must be in (0, 1]");
  EXPECT_EQ(only_problem({.rate = -0.5}, 16).key, "traffic.rate");
}

TEST(TrafficCheck, RejectsRateAboveOneAndNan) {
  EXPECT_EQ(only_problem({.rate = 1.5}, 16).reason, "rate is 1.5 flits/node/cycle; it must be in (0, 1]");
  EXPECT_EQ(only_problem({.rate = std::nan("")}, 16).key, "traffic.rate");
  EXPECT_TRUE(check({.rate = 1.0}, 16).empty());  // 1 itself is allowed
}

TEST(TrafficCheck, RejectsPacketFlitsBelowOne) {
  const auto q = only_problem({.packet_flits = 0}, 16);
  EXPECT_EQ(q.key, "traffic.packet_flits");
  EXPECT_EQ(q.reason, "packet_flits is 0; it must be in [1, 4096]");
}

TEST(TrafficCheck, RejectsPacketFlitsAbove4096) {
  EXPECT_EQ(only_problem({.packet_flits = 4097}, 16).key, "traffic.packet_flits");
  // Unused (and so unchecked) when packet_sizes is given.
  EXPECT_TRUE(check({.packet_flits = 0, .packet_sizes = {2}}, 16).empty());
}

TEST(TrafficCheck, RejectsPacketSizeOutOfRange) {
  const auto q = only_problem({.packet_sizes = {4, 0, 8}}, 16);
  EXPECT_EQ(q.key, "traffic.packet_sizes");
  EXPECT_EQ(q.reason, "entry 1 is 0; every packet size must be in [1, 4096] flits");
  EXPECT_EQ(only_problem({.packet_sizes = {5000}}, 16).key, "traffic.packet_sizes");
}

TEST(TrafficCheck, RejectsWeightCountDifferentFromSizeCount) {
  const auto q = only_problem({.packet_sizes = {1, 8}, .packet_weights = {1, 2, 3}}, 16);
  EXPECT_EQ(q.key, "traffic.packet_weights");
  EXPECT_EQ(q.reason, "3 weights for 2 packet sizes; give one weight per size, or none for equal weights");
  EXPECT_EQ(only_problem({.packet_weights = {1.0}}, 16).key, "traffic.packet_weights");  // weights, no sizes
}

TEST(TrafficCheck, RejectsNegativeOrNonFiniteWeight) {
  const auto q = only_problem({.packet_sizes = {1, 8}, .packet_weights = {1, -0.5}}, 16);
  EXPECT_EQ(q.key, "traffic.packet_weights");
  EXPECT_EQ(q.reason, "entry 1 is -0.5; weights must be finite and at least 0");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(only_problem({.packet_sizes = {1, 8}, .packet_weights = {inf, 1}}, 16).key,
            "traffic.packet_weights");
}

TEST(TrafficCheck, RejectsAllZeroWeights) {
  const auto q = only_problem({.packet_sizes = {1, 8}, .packet_weights = {0, 0}}, 16);
  EXPECT_EQ(q.key, "traffic.packet_weights");
  EXPECT_EQ(q.reason, "all 2 weights are 0; at least one must be positive");
  EXPECT_TRUE(check({.packet_sizes = {1, 8}, .packet_weights = {0, 1}}, 16).empty());  // some zeros are fine
}

TEST(TrafficCheck, RejectsEmptyHotSpotList) {
  const auto q = only_problem({.pattern = PatternKind::HotSpot, .hotspot_nodes = {}}, 16);
  EXPECT_EQ(q.key, "traffic.hotspot_nodes");
  EXPECT_EQ(q.reason, "hot_spot needs at least one hot-spot node (got an empty list)");
}

TEST(TrafficCheck, RejectsHotSpotNodeOutOfRange) {
  const auto q = only_problem({.pattern = PatternKind::HotSpot, .hotspot_nodes = {3, 16}}, 16);
  EXPECT_EQ(q.key, "traffic.hotspot_nodes");
  EXPECT_EQ(q.reason, "entry 1 is node 16; nodes are numbered 0 to 15");
  EXPECT_EQ(only_problem({.pattern = PatternKind::HotSpot, .hotspot_nodes = {-1}}, 16).key,
            "traffic.hotspot_nodes");
  // Unused (and so unchecked) by other patterns.
  EXPECT_TRUE(check({.pattern = PatternKind::Uniform, .hotspot_nodes = {99}}, 16).empty());
}

TEST(TrafficCheck, RejectsHotSpotFractionOutsideZeroOne) {
  const auto q = only_problem({.pattern = PatternKind::HotSpot, .hotspot_fraction = 1.25}, 16);
  EXPECT_EQ(q.key, "traffic.hotspot_fraction");
  EXPECT_EQ(q.reason, "hotspot_fraction is 1.25; it must be in [0, 1]");
  EXPECT_EQ(only_problem({.pattern = PatternKind::HotSpot, .hotspot_fraction = -0.1}, 16).key,
            "traffic.hotspot_fraction");
  EXPECT_TRUE(check({.pattern = PatternKind::HotSpot, .hotspot_fraction = 1.0}, 16).empty());
}

TEST(TrafficCheck, RejectsBurstRateBelowRate) {
  const auto q = only_problem({.rate = 0.4, .injection = InjectionKind::OnOff, .burst_rate = 0.3}, 16);
  EXPECT_EQ(q.key, "traffic.burst_rate");
  EXPECT_EQ(q.reason, "burst_rate is 0.3; on_off needs rate (0.4) <= burst_rate <= 1");
  // Unused (and so unchecked) by Bernoulli injection.
  EXPECT_TRUE(check({.rate = 0.4, .injection = InjectionKind::Bernoulli, .burst_rate = 0.3}, 16).empty());
}

TEST(TrafficCheck, RejectsBurstRateAboveOne) {
  const auto q = only_problem({.injection = InjectionKind::OnOff, .burst_rate = 2.0}, 16);
  EXPECT_EQ(q.key, "traffic.burst_rate");
  EXPECT_EQ(q.reason, "burst_rate is 2; on_off needs rate (0.1) <= burst_rate <= 1");
}

TEST(TrafficCheck, RejectsBurstPacketsBelowOne) {
  const auto q = only_problem({.injection = InjectionKind::OnOff, .burst_packets = 0.5}, 16);
  EXPECT_EQ(q.key, "traffic.burst_packets");
  EXPECT_EQ(q.reason, "burst_packets is 0.5; on_off needs a finite mean of at least 1 packet per burst");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(only_problem({.injection = InjectionKind::OnOff, .burst_packets = inf}, 16).key,
            "traffic.burst_packets");
}

TEST(TrafficCheck, ReportsEveryProblemAtOnce) {
  const auto problems = check({.pattern = PatternKind::BitReverse, .rate = 2.0, .packet_flits = 0}, 10);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].key, "traffic.pattern");
  EXPECT_EQ(problems[1].key, "traffic.rate");
  EXPECT_EQ(problems[2].key, "traffic.packet_flits");
}

}  // namespace
}  // namespace mppnet::workload
