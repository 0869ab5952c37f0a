// machines/metro/harvest_test.cpp: Chong's reconfiguration on hand-built fault sets and its invariants.
#include "machines/metro/harvest.hpp"

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro {
namespace {

// The default radix 4, dilation 2 network of `stages` stages.
MultibutterflyParams params(int stages, Wiring w) {
  return metro::params(4, 2, stages, w);
}

int count(const std::vector<std::uint8_t>& v) {
  int n = 0;
  for (auto x : v) n += x;
  return n;
}

TEST(ChongHarvest, NoFaultAndAnySingleFaultKeepEveryNode) {
  // Note 004a R5 invariant: harvest = N with 0 or 1 faults.
  const auto net = build_instance(params(3, Wiring::Deterministic), 1, 0);
  std::vector<std::uint8_t> faulty(net.routers(), 0);
  EXPECT_EQ(count(chong_live_nodes(net, faulty)), 64);
  for (int pkg = 0; pkg < net.packages(); ++pkg) {
    std::vector<std::uint8_t> f(net.routers(), 0);
    for (int u : net.package_routers[pkg]) f[u] = 1;
    EXPECT_EQ(count(chong_live_nodes(net, f)), 64) << "package " << pkg;
  }
}

TEST(ChongHarvest, ExtraStageAndDilatedFinalNetworksKeepEveryNodeAfterAnySingleFault) {
  // An extra stage (r*d = 8 equivalent outputs per router, one direction) and a final stage of d_S = 2
  // (ni = no = 4: two full-size final routers per node) both leave every node two distinct routers at
  // each end and every router a second copy in each direction.
  auto extra = params(3, Wiring::Deterministic);
  extra.extra_stages = 1;
  auto dilated = params(3, Wiring::Deterministic);
  dilated.node_inputs = dilated.node_outputs = 4;
  dilated.final_dilation = 2;
  dilated.final_pairing = FinalPairing::Single;
  for (const auto& p : {extra, dilated}) {
    const auto net = build_instance(p, 1, 0);
    std::vector<std::uint8_t> faulty(net.routers(), 0);
    EXPECT_EQ(count(chong_live_nodes(net, faulty)), 64);
    for (int pkg = 0; pkg < net.packages(); ++pkg) {
      std::vector<std::uint8_t> f(net.routers(), 0);
      for (int u : net.package_routers[pkg]) f[u] = 1;
      EXPECT_EQ(count(chong_live_nodes(net, f)), 64) << describe(p) << " package " << pkg;
    }
  }
}

TEST(ChongHarvest, DilatedFinalStageLosesAClassOfFourWhenItsTwoFinalRoutersFail) {
  // d_S = 2, no = 4: final class 0 is two routers feeding nodes 0..3 twice each. Both faulty: nodes 0..3
  // are I/O-isolated; the stage-2 routers' direction 0 then serves no live node and is ignored.
  auto p = params(3, Wiring::Deterministic);
  p.node_inputs = p.node_outputs = 4;
  p.final_dilation = 2;
  p.final_pairing = FinalPairing::Single;
  const auto net = build_instance(p, 1, 0);
  std::vector<std::uint8_t> faulty(net.routers(), 0);
  faulty[net.router_id(2, 0, 0)] = faulty[net.router_id(2, 0, 1)] = 1;
  const auto live = chong_live_nodes(net, faulty);
  EXPECT_EQ(count(live), 60);
  for (int x = 0; x < 4; ++x) EXPECT_EQ(live[x], 0) << x;
}

TEST(ChongHarvest, BlockEndpointsLoseEightNodesWhenTheirTwoStage1RoutersFail) {
  // Block wiring (note 004a §4.7): nodes 0..7 enter through stage-1 routers 0 and 8 (fanout classes of
  // 8 routers, r*d = 8 nodes per router). Both faulty: those 8 nodes are I/O-isolated, nobody else is.
  const auto net = build_instance(params(3, Wiring::Deterministic), 1, 0);
  std::vector<std::uint8_t> faulty(net.routers(), 0);
  faulty[0] = faulty[8] = 1;
  const auto live = chong_live_nodes(net, faulty);
  EXPECT_EQ(count(live), 56);
  for (int x = 0; x < 8; ++x) EXPECT_FALSE(live[x]) << x;
}

TEST(ChongHarvest, LosingBothFinalRoutersOfAClassDropsOnlyThatClass) {
  // Final class 5 serves nodes 20..23; with both its routers faulty those nodes are I/O-isolated, and
  // the stage-2 routers that feed class 5 are not blocked, because the direction has no live node left.
  const auto net = build_instance(params(3, Wiring::Deterministic), 1, 0);
  std::vector<std::uint8_t> faulty(net.routers(), 0);
  faulty[net.router_id(2, 5, 0)] = faulty[net.router_id(2, 5, 1)] = 1;
  const auto live = chong_live_nodes(net, faulty);
  EXPECT_EQ(count(live), 60);
  for (int x = 20; x < 24; ++x) EXPECT_FALSE(live[x]);
}

TEST(ChongHarvest, StudyIsDeterministicAndFallsWithFaults) {
  HarvestParams p;
  p.network = params(3, Wiring::MaximalFanout);
  p.fault_fractions = {0.0, 0.05, 0.25};
  p.trials = 50;
  const auto a = run_harvest(p);
  const auto b = run_harvest(p);
  ASSERT_EQ(a.points.size(), 3u);
  EXPECT_EQ(a.points[0].harvest, 1.0);
  EXPECT_EQ(a.points[0].p_complete, 1.0);
  EXPECT_GT(a.points[1].harvest, a.points[2].harvest);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(a.points[i].harvest, b.points[i].harvest);
  EXPECT_NE(format_harvest(a).find("P(complete)"), std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::metro
