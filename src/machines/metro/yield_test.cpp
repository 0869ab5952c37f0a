// machines/metro/yield_test.cpp: the completeness tracker against a graph search, and yield on tiny
// networks computed exactly by enumerating every fault set.
#include "machines/metro/yield.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro {
namespace {

// The study's network, which these tests set to a multibutterfly.
MultibutterflyParams& multibutterfly(YieldParams& p) {
  return std::get<MultibutterflyParams>(p.network);
}

// Applies `unit` faults to the reference masks the way the tracker does.
void apply(const Multibutterfly& net, FaultUnit unit, int index, std::vector<std::uint8_t>& faulty,
           std::vector<std::uint8_t>& dead) {
  switch (unit) {
    case FaultUnit::Package:
      for (int u : net.package_routers[index]) faulty[u] = 1;
      return;
    case FaultUnit::Router:
      faulty[index] = 1;
      return;
    case FaultUnit::Link:
      dead[index] = 1;
      return;
  }
}

TEST(CompletenessTracker, AgreesWithGraphSearchAfterEveryFault) {
  // Also note 004a R7: the search ignores directions and dilation, so it is the same graph read as an
  // extra-stage network of radix-8 dilation-1 routers; the two must agree fault set by fault set.
  for (const Wiring w : {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout}) {
    for (const FaultUnit unit : {FaultUnit::Package, FaultUnit::Router, FaultUnit::Link}) {
      const auto net = build_instance(params(4, 2, 3, w), 21, 0);
      CompletenessTracker tracker(net);
      const int units = fault_unit_count(net, unit);
      for (int trial = 0; trial < 6; ++trial) {
        tracker.reset();
        std::vector<std::uint8_t> faulty(net.routers()), dead(link_count(net));
        core::RandomStream rng(5, trial, core::Stream::Fault);
        for (int k = 0; k < 40; ++k) {
          const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(units)));
          tracker.fail(unit, i);
          apply(net, unit, i, faulty, dead);
          ASSERT_EQ(tracker.complete(), complete_by_search(net, faulty, dead))
              << "wiring " << static_cast<int>(w) << " unit " << static_cast<int>(unit) << " fault " << k;
        }
      }
    }
  }
}

TEST(Yield, OneFaultNeverDisconnectsTwoCanWithPackageFaults) {
  // Note 004a R2 invariants: P(complete | 1) = 1 with ni = no = 2 and paired final packages; some
  // trial fails at 2 faults.
  YieldParams p;
  p.network = params(4, 2, 3, Wiring::Random);
  p.trials = 400;
  const auto r = run_yield(p);
  EXPECT_EQ(r.p_complete[1], 1.0);
  EXPECT_LT(r.p_complete[2], 1.0);
}

// E[tolerated] = sum over k >= 1 of P(complete with a uniformly random k-set of faults), because the
// first k faults of a random order are a uniformly random k-set. Enumerated over every subset.
double exact_expected_tolerated(const Multibutterfly& net, FaultUnit unit) {
  const int units = fault_unit_count(net, unit);
  std::vector<long long> complete_sets(units + 1, 0), sets(units + 1, 0);
  for (unsigned mask = 0; mask < (1u << units); ++mask) {
    std::vector<std::uint8_t> faulty(net.routers()), dead(link_count(net));
    for (int i = 0; i < units; ++i)
      if (mask & (1u << i)) apply(net, unit, i, faulty, dead);
    const int k = __builtin_popcount(mask);
    ++sets[k];
    if (complete_by_search(net, faulty, dead)) ++complete_sets[k];
  }
  double e = 0;
  for (int k = 1; k <= units; ++k) e += static_cast<double>(complete_sets[k]) / static_cast<double>(sets[k]);
  return e;
}

TEST(Yield, TwoStageFourNodeNetworkToleratesFiveThirdsByHand) {
  // r = d = 2, S = 2, ni = no = 2, deterministic: both stage-1 routers feed both final routers of each
  // class, and every node enters through both stage-1 routers. Units: 2 stage-1 routers and 2 final
  // packages {(0,0),(1,1)}, {(1,0),(0,1)}. One fault never disconnects; of the 6 pairs only {both stage-1}
  // and {both packages} do; every 3-set contains one of those. E = 1 + 4/6 = 5/3.
  YieldParams p;
  p.network = params(2, 2, 2, Wiring::Deterministic);
  const auto net = build_instance(multibutterfly(p), p.seed, 0);
  ASSERT_EQ(net.packages(), 4);
  EXPECT_NEAR(exact_expected_tolerated(net, FaultUnit::Package), 5.0 / 3.0, 1e-12);
  p.trials = 6000;
  const auto r = run_yield(p);
  EXPECT_NEAR(r.mean, 5.0 / 3.0, 4 * r.std_error);
  EXPECT_NEAR(r.p_complete[2], 2.0 / 3.0, 4 * std::sqrt(2.0 / 9.0 / 6000));
  EXPECT_EQ(r.p_complete[3], 0.0);
}

TEST(Yield, MatchesExactEnumerationOnATinyNetwork) {
  // r = d = 2, 3 stages, 8 nodes: 4 + 4 routers and 4 final packages, 12 units, 4096 fault sets.
  for (const Wiring w : {Wiring::Deterministic, Wiring::Random}) {
    YieldParams p;
    p.network = params(2, 2, 3, w);
    p.trials = 20000;
    p.seed = 3;
    const auto r = run_yield(p);
    const double exact =
        exact_expected_tolerated(build_instance(multibutterfly(p), p.seed, 0), FaultUnit::Package);
    EXPECT_NEAR(r.mean, exact, 4 * r.std_error) << "wiring " << static_cast<int>(w) << " exact " << exact;
  }
}

TEST(CompletenessTracker, AgreesWithGraphSearchOnADilatedFinalStage) {
  // r = d = d_S = 2, S = 3, ni = no = 4: a final router feeds each of its nodes twice, so a final link
  // fault only cuts (router, node) when both copies are dead.
  for (const Wiring w : {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout}) {
    for (const FaultUnit unit : {FaultUnit::Package, FaultUnit::Router, FaultUnit::Link}) {
      auto np = params(2, 2, 3, w);
      np.node_inputs = np.node_outputs = 4;
      np.final_dilation = 2;
      np.final_pairing = FinalPairing::Single;
      const auto net = build_instance(np, 21, 0);
      CompletenessTracker tracker(net);
      const int units = fault_unit_count(net, unit);
      for (int trial = 0; trial < 6; ++trial) {
        tracker.reset();
        std::vector<std::uint8_t> faulty(net.routers()), dead(link_count(net));
        core::RandomStream rng(7, trial, core::Stream::Fault);
        for (int k = 0; k < 60; ++k) {
          const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(units)));
          tracker.fail(unit, i);
          apply(net, unit, i, faulty, dead);
          ASSERT_EQ(tracker.complete(), complete_by_search(net, faulty, dead))
              << "wiring " << static_cast<int>(w) << " unit " << static_cast<int>(unit) << " fault " << k;
        }
      }
    }
  }
}

TEST(Yield, DilatedFinalStageWithOneFinalRouterPerNodeToleratesFourteenFifteenthsByHand) {
  // r = 2, d = 1, S = 2, ni = no = 2, d_S = 2: 4 stage-1 routers, 2 final routers (one per class, each
  // feeding its 2 nodes twice), 6 single-router packages. Every stage-1 router reaches both final
  // routers; block endpoints put nodes 0, 1 on routers {0, 2} and nodes 2, 3 on {1, 3}. Complete iff
  // both final routers live and neither {0, 2} nor {1, 3} is wholly faulty. P(complete | 1) = 4/6;
  // P(complete | 2) = (C(4,2) - 2) / C(6,2) = 4/15; every 3-set of stage-1 routers holds a fatal pair.
  // E = 2/3 + 4/15 = 14/15: the price of d_S = no, where one package fault isolates two nodes.
  YieldParams p;
  p.network = params(2, 1, 2, Wiring::Deterministic);
  multibutterfly(p).final_dilation = 2;
  multibutterfly(p).final_pairing = FinalPairing::Single;
  const auto net = build_instance(multibutterfly(p), p.seed, 0);
  ASSERT_EQ(net.packages(), 6);
  EXPECT_NEAR(exact_expected_tolerated(net, FaultUnit::Package), 14.0 / 15.0, 1e-12);
  p.trials = 6000;
  const auto r = run_yield(p);
  EXPECT_NEAR(r.mean, 14.0 / 15.0, 4 * r.std_error);
  EXPECT_NEAR(r.p_complete[1], 2.0 / 3.0, 4 * std::sqrt(2.0 / 9.0 / 6000));
  EXPECT_EQ(r.p_complete[3], 0.0);
}

TEST(CompletenessTracker, AgreesWithGraphSearchOnAnExtraStageNetwork) {
  // r = 4, d = 2, S = 3 with one extra stage in front: 64 nodes, 80 routers, 64 packages.
  for (const Wiring w : {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout}) {
    for (const FaultUnit unit : {FaultUnit::Package, FaultUnit::Router, FaultUnit::Link}) {
      auto np = params(4, 2, 3, w);
      np.extra_stages = 1;
      const auto net = build_instance(np, 21, 0);
      CompletenessTracker tracker(net);
      const int units = fault_unit_count(net, unit);
      for (int trial = 0; trial < 4; ++trial) {
        tracker.reset();
        std::vector<std::uint8_t> faulty(net.routers()), dead(link_count(net));
        core::RandomStream rng(9, trial, core::Stream::Fault);
        for (int k = 0; k < 50; ++k) {
          const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(units)));
          tracker.fail(unit, i);
          apply(net, unit, i, faulty, dead);
          ASSERT_EQ(tracker.complete(), complete_by_search(net, faulty, dead))
              << "wiring " << static_cast<int>(w) << " unit " << static_cast<int>(unit) << " fault " << k;
        }
      }
    }
  }
}

TEST(Yield, ExtraStageNetworkMatchesExactEnumerationAndBeatsTheBaseNetwork) {
  // r = 2, d = 1, S = 2, ni = no = 2, plus one extra stage: 4 nodes, 4 extra + 4 + 4 final routers,
  // 4 + 4 + 2 = 10 packages, 1024 fault sets enumerated. Without the extra stage (6 packages) a node
  // is cut as soon as both its stage-1 routers fail; with it, the node only needs one live extra-stage
  // router and any live path on, so it must tolerate more.
  YieldParams p;
  p.network = params(2, 1, 2, Wiring::Deterministic);
  const double base =
      exact_expected_tolerated(build_instance(multibutterfly(p), p.seed, 0), FaultUnit::Package);
  multibutterfly(p).extra_stages = 1;
  const auto net = build_instance(multibutterfly(p), p.seed, 0);
  ASSERT_EQ(net.packages(), 10);
  const double exact = exact_expected_tolerated(net, FaultUnit::Package);
  EXPECT_GT(exact, base);
  p.trials = 6000;
  const auto r = run_yield(p);
  EXPECT_NEAR(r.mean, exact, 4 * r.std_error) << "exact " << exact << " base " << base;
  EXPECT_EQ(r.p_complete[1], 1.0);
}

TEST(Yield, SameSeedSameResultAndTrialsAreIndependentOfTheirCount) {
  YieldParams p;
  p.network = params(4, 2, 3, Wiring::MaximalFanout);
  p.trials = 300;
  p.instances = 3;
  p.seed = 17;
  const auto a = run_yield(p);
  const auto b = run_yield(p);
  EXPECT_EQ(a.tolerated_count, b.tolerated_count);
  EXPECT_EQ(a.mean, b.mean);
  // Trial t depends only on (seed, t): the first 150 trials of a 300-trial run are a 150-trial run.
  p.trials = 150;
  p.instances = 3;
  const auto c = run_yield(p);
  EXPECT_EQ(c.tolerated, std::vector<int>(a.tolerated.begin(), a.tolerated.begin() + 150));
  p.seed = 18;
  EXPECT_NE(run_yield(p).tolerated_count, c.tolerated_count);
}

TEST(Yield, StandardErrorIsStddevOverRootTrials) {
  YieldParams p;
  p.network = params(4, 2, 3, Wiring::Deterministic);
  p.trials = 256;
  const auto r = run_yield(p);
  EXPECT_NEAR(r.std_error, r.stddev / 16.0, 1e-12);
  EXPECT_NEAR(r.percent_network, 100.0 * r.mean / 48.0, 1e-9);
}

TEST(Yield, ProgressReachesTheTotalAndTheTableNamesTheEstimate) {
  YieldParams p;
  p.network = params(4, 2, 3, Wiring::Deterministic);
  p.trials = 250;
  long long last_done = 0, calls = 0;
  const auto r = run_yield(p, [&](long long done, long long total) {
    EXPECT_EQ(total, 250);
    EXPECT_GT(done, last_done);
    last_done = done;
    ++calls;
  });
  EXPECT_EQ(last_done, 250);
  EXPECT_GE(calls, 2);
  const auto table = format_yield(r);
  EXPECT_NE(table.find("tolerated"), std::string::npos);
  EXPECT_NE(table.find("P(complete | k)"), std::string::npos);
  EXPECT_NE(table.find("package (48 in the network)"), std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::metro
