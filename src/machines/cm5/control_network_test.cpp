// machines/cm5/control_network_test.cpp: the control network against the paper and serial references.
#include "machines/cm5/control_network.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "machines/cm5/control_experiments.hpp"
#include "machines/cm5/router_done_run.hpp"

namespace mppnet::machines::cm5 {
namespace {

TEST(ControlNetwork, PaperForwardScan) {
  // Leiserson et al. 1992, L516-517.
  EXPECT_EQ(paper_scan(CombineKind::ForwardScan), (std::vector<std::int64_t>{0, 3, 5, 5, 9, 11, 17, 22}));
}

TEST(ControlNetwork, PaperBackwardScan) {
  // The same values suffix-summed by hand: 27 = 2+0+4+2+6+5+8, ..., 8, 0.
  EXPECT_EQ(paper_scan(CombineKind::BackwardScan), (std::vector<std::int64_t>{27, 25, 25, 21, 19, 13, 8, 0}));
}

TEST(ControlNetwork, SegmentedScanByHand) {
  ControlNetwork net({.leaves = 8});
  std::vector<std::vector<std::uint32_t>> x = {{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
  std::vector<bool> seg = {false, false, true, false, false, true, false, false};
  // Segments [1 2] [3 4 5] [6 7 8].
  auto fwd = combine_once(net, CombineKind::ForwardScan, Combiner::AddSigned, x, seg);
  std::vector<std::uint32_t> f;
  for (auto& r : fwd) f.push_back(r.words[0]);
  EXPECT_EQ(f, (std::vector<std::uint32_t>{0, 1, 0, 3, 7, 0, 6, 13}));
  auto bwd = combine_once(net, CombineKind::BackwardScan, Combiner::AddSigned, x, seg);
  std::vector<std::uint32_t> b;
  for (auto& r : bwd) b.push_back(r.words[0]);
  EXPECT_EQ(b, (std::vector<std::uint32_t>{2, 0, 9, 5, 0, 15, 8, 0}));
}

TEST(ControlNetwork, OverflowByHand) {
  ControlNetwork net({.leaves = 4});
  std::vector<std::vector<std::uint32_t>> x = {{0x7fffffffu}, {1}, {0}, {0}};
  auto s = combine_once(net, CombineKind::Reduce, Combiner::AddSigned, x, std::vector<bool>(4, false));
  EXPECT_EQ(s[0].words[0], 0x80000000u);
  EXPECT_TRUE(s[0].overflow);  // 2^31 is beyond int32
  auto u = combine_once(net, CombineKind::Reduce, Combiner::AddUnsigned, x, std::vector<bool>(4, false));
  EXPECT_EQ(u[0].words[0], 0x80000000u);
  EXPECT_FALSE(u[0].overflow);  // 2^31 fits in 32 unsigned bits
}

TEST(ControlNetwork, TwoWordAddCarriesThroughTheTree) {
  ControlNetwork net({.leaves = 4});
  // 4 * (2^32 - 1) = 0x3_FFFFFFFC: a carry out of the low word at two levels.
  std::vector<std::vector<std::uint32_t>> x(4, {0u, 0xffffffffu});
  auto r = combine_once(net, CombineKind::Reduce, Combiner::AddUnsigned, x, std::vector<bool>(4, false));
  EXPECT_EQ(r[2].words[0], 3u);
  EXPECT_EQ(r[2].words[1], 0xfffffffcu);
  EXPECT_FALSE(r[2].overflow);
}

TEST(ControlNetwork, RandomCombinesMatchTheSerialReference) {
  // V3, V4: every kind and operator, segments, one word.
  EXPECT_EQ(random_combine_errors({.leaves = 64, .trials = 150}), 0);
  EXPECT_EQ(random_combine_errors({.leaves = 37, .trials = 60, .seed = 2}), 0);  // not a power of 2
}

TEST(ControlNetwork, MultiWordCombines) {
  // V5 (and scans and the maximum on 2 and 3 words).
  EXPECT_EQ(random_combine_errors({.leaves = 32, .trials = 60, .words = 2}), 0);
  EXPECT_EQ(random_combine_errors({.leaves = 32, .trials = 60, .words = 3, .seed = 5}), 0);
}

TEST(ControlNetwork, AbstainAndMapOut) {
  // V6 and V31: abstainers count as the identity and get nothing.
  EXPECT_EQ(random_combine_errors({.leaves = 64, .trials = 60, .abstain = 0.3}), 0);
  EXPECT_EQ(random_combine_errors({.leaves = 64, .trials = 60, .abstain = 0.5, .map_out = true}), 0);
}

TEST(ControlNetwork, MismatchIsSeenByEveryone) {
  EXPECT_EQ(mismatch_seen_by(32), 32);
}

TEST(ControlNetwork, BroadcastCollision) {
  EXPECT_EQ(broadcast_collisions(32, true), 1);
  EXPECT_EQ(broadcast_collisions(32, false), 0);
}

TEST(ControlNetwork, BroadcastOvertakesAWaitingScan) {
  const PriorityRun r = broadcast_overtakes_scan(32);
  EXPECT_TRUE(r.broadcast_first);
  EXPECT_EQ(r.scan_errors, 0);
}

TEST(ControlNetwork, ReductionsPipelineOnePerSlot) {
  EXPECT_EQ(pipelined_slots(64, 10), 9);
}

TEST(ControlNetwork, LatencyIsTwoLevelsPerHeight) {
  ControlNetwork net({.leaves = 1024});
  EXPECT_EQ(net.height(), 10);
  std::vector<std::vector<std::uint32_t>> x(1024, {1});
  auto r = combine_once(net, CombineKind::Reduce, Combiner::AddSigned, x, std::vector<bool>(1024, false));
  EXPECT_EQ(r[0].words[0], 1024u);
  EXPECT_EQ(r[0].time, 2 * 10 * 13);  // pushed before slot 0: 20 levels of 13 cycles
}

TEST(ControlNetwork, AsyncOr) {
  const AsyncOrRun r = async_or_run(64);
  EXPECT_EQ(r.delay, r.expected);
  EXPECT_TRUE(r.combine_unchanged);
  EXPECT_EQ(r.interrupted, 64);  // the 32 that enabled it took one interrupt, the others none
}

TEST(ControlNetwork, SplitPhaseBarrierHidesItsLatency) {
  // 64 leaves: height 6, a barrier pushed before slot 0 arrives at 2 x 6 x 13 = 156 cycles.
  EXPECT_EQ(split_phase_wait(64, 0), 156);
  EXPECT_EQ(split_phase_wait(64, 100), 56);
  EXPECT_EQ(split_phase_wait(64, 156), 0);
  EXPECT_EQ(split_phase_wait(64, 400), 0);
}

TEST(ControlNetwork, FlushAndResumeGiveTheSameResults) {
  for (Cycle at : {1, 40, 100, 200}) EXPECT_EQ(flush_resume_differences(32, 12, at), 0) << "flush at " << at;
}

TEST(ControlNetwork, BadCallsAreRefused) {
  ControlNetwork net({.leaves = 8});
  const std::uint32_t words[9] = {};
  EXPECT_THROW(net.push_broadcast(0, BroadcastKind::User, {words, 9}), std::invalid_argument);
  EXPECT_THROW(net.push_broadcast(0, BroadcastKind::Supervisor, {words, 5}), std::invalid_argument);
  EXPECT_NO_THROW(net.push_broadcast(0, BroadcastKind::Supervisor, {words, 4}));
  EXPECT_THROW(net.push_combine(8, {}), std::invalid_argument);
  EXPECT_THROW(net.push_combine(0, {.count = 9}), std::invalid_argument);
  EXPECT_THROW(net.push_combine(0, {.op = static_cast<Combiner>(7)}), std::invalid_argument);
  net.set_abstain(3, OpClass::Combine, true);
  EXPECT_THROW(net.push_combine(3, {}), std::invalid_argument);
  EXPECT_THROW(ControlNetwork({.leaves = 1}), std::invalid_argument);
  EXPECT_THROW(net.set_async_or(0, 2, true, 0), std::invalid_argument);
}

TEST(ControlNetwork, FullFifoRefusesThePush) {
  ControlNetwork net({.leaves = 8, .ni_fifo_packets = 8});
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(net.push_combine(0, {}));
  EXPECT_FALSE(net.push_combine(0, {}));
}

}  // namespace
}  // namespace mppnet::machines::cm5

namespace mppnet::machines::cm5 {
namespace {

TEST(RouterDone, AnswersOnlyAfterTheLastMessageArrived) {
  const RouterDoneRun r = router_done_all_to_all(64, 20, DeliveryFault::None);
  EXPECT_EQ(r.sent, 64 * 20);
  EXPECT_EQ(r.delivered, r.sent);
  EXPECT_EQ(r.delivered_after, 0);
  EXPECT_EQ(r.nodes_done, 64);
  EXPECT_GE(r.done, r.last_delivery);
  EXPECT_FALSE(r.error_everywhere);
}

TEST(RouterDone, ALostMessageMeansNoAnswer) {
  const RouterDoneRun r = router_done_all_to_all(64, 20, DeliveryFault::Lose);
  EXPECT_EQ(r.delivered, r.sent - 1);
  EXPECT_EQ(r.nodes_done, 0);
}

TEST(RouterDone, ADuplicateRaisesTheError) {
  const RouterDoneRun r = router_done_all_to_all(64, 20, DeliveryFault::Duplicate);
  EXPECT_EQ(r.delivered, r.sent + 1);
  EXPECT_TRUE(r.error_everywhere);
}

}  // namespace
}  // namespace mppnet::machines::cm5
