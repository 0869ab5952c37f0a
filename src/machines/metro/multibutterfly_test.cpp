// machines/metro/multibutterfly_test.cpp: wiring invariants, path expansion (Table 3.3) and check().
#include "machines/metro/multibutterfly.hpp"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

#include "machines/metro/path_expansion.hpp"

namespace mppnet::machines::metro {
namespace {

const Wiring kWirings[] = {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout};

// Every router input is wired exactly once, outputs of a stage-s router in class P and direction j land
// in class P*r+j, and no two wires join the same pair of parts (so d copies reach d distinct routers).
void expect_wiring_invariants(const Multibutterfly& net) {
  const int r = net.params.radix, S = net.stages();
  std::vector<int> uses(net.in.size(), 0);
  for (int u = 0; u < net.routers(); ++u) {
    const int s = net.stage_of(u);
    std::set<int> targets;
    for (int o = net.out_first[u]; o < net.out_first[u + 1]; ++o) {
      const int port = o - net.out_first[u];
      const int t = net.out[o];
      if (s == S - 1) {
        EXPECT_EQ(t, net.class_of(u) * r + port / net.params.final_dilation);
        continue;
      }
      EXPECT_EQ(net.stage_of(t), s + 1);
      EXPECT_EQ(net.class_of(t), net.class_of(u) * net.directions[s] + port / net.copies[s])
          << "router " << u << " port " << port;
      EXPECT_TRUE(targets.insert(t).second) << "parallel wires from router " << u;
      int found = 0;
      for (int slot = net.in_first[t]; slot < net.in_first[t + 1]; ++slot)
        if (net.in[slot] == u) ++found, ++uses[slot];
      EXPECT_EQ(found, 1);
    }
  }
  for (int x = 0; x < net.nodes; ++x) {
    std::set<int> firsts;
    for (int q = 0; q < net.params.node_inputs; ++q) {
      const int v = net.node_in[x * net.params.node_inputs + q];
      EXPECT_TRUE(firsts.insert(v).second) << "node " << x << " has two links into router " << v;
      for (int slot = net.in_first[v]; slot < net.in_first[v + 1]; ++slot)
        if (net.in[slot] == node_source(x)) ++uses[slot];
    }
  }
  for (std::size_t i = 0; i < uses.size(); ++i) EXPECT_EQ(uses[i], 1) << "input slot " << i;
}

TEST(Multibutterfly, WiringInvariantsHoldForEveryAlgorithmAndSize) {
  for (const Wiring w : kWirings) {
    for (const auto& [r, d, s] : {std::tuple{2, 2, 4}, {4, 2, 3}, {4, 2, 4}}) {
      const auto net = build_instance(params(r, d, s, w), 7, 0);
      SCOPED_TRACE(::testing::Message() << "wiring " << static_cast<int>(w) << " r=" << r << " S=" << s);
      expect_wiring_invariants(net);
    }
  }
}

TEST(Multibutterfly, ThreePortsPerNodeBuildWithEveryWiring) {
  // Not a network of the thesis: ni = no = 3 with r = 4, d = 2 (F = 3, 6, 3) exercises the general case.
  for (const Wiring w : kWirings) {
    auto p = params(4, 2, 3, w);
    p.node_inputs = p.node_outputs = 3;
    p.final_pairing = FinalPairing::Single;
    ASSERT_TRUE(check(p).empty());
    expect_wiring_invariants(build_instance(p, 2, 0));
  }
}

TEST(Multibutterfly, SizesMatchNote004aTable) {
  // Note 004a §4.2: 64-node 3-stage has 16 routers per dilated stage and 48 packages; 256-node 4-stage
  // 64 per stage and 256 packages; 1024-node 5-stage 1280 packages.
  const auto n64 = build_instance(params(4, 2, 3, Wiring::Deterministic), 1, 0);
  EXPECT_EQ(n64.nodes, 64);
  EXPECT_EQ(n64.class_size, (std::vector<int>{16, 4, 2}));
  EXPECT_EQ(n64.fanout_classes, (std::vector<int>{2, 4, 2}));
  EXPECT_EQ(n64.packages(), 48);
  EXPECT_EQ(build_instance(params(4, 2, 4, Wiring::Deterministic), 1, 0).packages(), 256);
  EXPECT_EQ(build_instance(params(4, 2, 5, Wiring::Deterministic), 1, 0).packages(), 1280);
}

TEST(Multibutterfly, FinalPackagesNeverHoldBothOutputRoutersOfADestination) {
  for (const FinalPairing pairing : {FinalPairing::Symmetric, FinalPairing::Random}) {
    auto p = params(4, 2, 3, Wiring::Deterministic);
    p.final_pairing = pairing;
    const auto net = build_instance(p, 3, 0);
    for (const auto& pkg : net.package_routers) {
      if (pkg.size() != 2) continue;
      EXPECT_NE(net.class_of(pkg[0]), net.class_of(pkg[1]));
    }
  }
}

TEST(Multibutterfly, MaximalFanoutSendsCopiesToDistinctFanoutClasses) {
  // Figs 3.23-3.24: a router's d copies of a direction go to different fanout classes of the target.
  const auto net = build_instance(params(4, 2, 4, Wiring::MaximalFanout), 5, 0);
  for (int u = 0; u < net.stage_first[net.stages() - 1]; ++u) {
    const int s1 = net.stage_of(u) + 1, f1 = net.class_size[s1] / net.fanout_classes[s1];
    for (int j = 0; j < net.params.radix; ++j) {
      std::set<int> classes;
      for (int k = 0; k < net.params.dilation; ++k)
        classes.insert(net.index_in_class(net.out[net.out_first[u] + j * net.params.dilation + k]) / f1);
      EXPECT_EQ(classes.size(), static_cast<std::size_t>(net.params.dilation));
    }
  }
}

TEST(Multibutterfly, SameSeedSameNetworkOtherSeedOtherNetwork) {
  const auto p = params(4, 2, 3, Wiring::Random);
  EXPECT_EQ(build_instance(p, 9, 2).out, build_instance(p, 9, 2).out);
  EXPECT_NE(build_instance(p, 9, 2).out, build_instance(p, 9, 3).out);
}

TEST(PathExpansion, BoundIsTable33) {
  // Table 3.3: ni = no = r = d = 2, S = 4 gives p = 2, 4, 8, 4, 2 and 2 * 2^3 = 16 paths.
  const auto p = params(2, 2, 4, Wiring::Deterministic);
  EXPECT_EQ(path_expansion_bound(p), (std::vector<long long>{2, 4, 8, 4, 2}));
  EXPECT_EQ(total_paths_bound(p), 16);
  // Note 004a R1: 64-node 2,4,8,2; 256-node 2,4,8,8,2; 1024-node 2,4,8,16,8,2.
  EXPECT_EQ(path_expansion_bound(params(4, 2, 3, Wiring::Deterministic)),
            (std::vector<long long>{2, 4, 8, 2}));
  EXPECT_EQ(path_expansion_bound(params(4, 2, 4, Wiring::Deterministic)),
            (std::vector<long long>{2, 4, 8, 8, 2}));
  EXPECT_EQ(path_expansion_bound(params(4, 2, 5, Wiring::Deterministic)),
            (std::vector<long long>{2, 4, 8, 16, 8, 2}));
}

TEST(PathExpansion, DeterministicAndMaximalFanoutMeetEq35ForEveryPair) {
  // With endpoints that respect the stage-1 fanout classes (block, spread); see the next test.
  for (const Wiring w : {Wiring::Deterministic, Wiring::MaximalFanout}) {
    for (const auto& [r, d, s] : {std::tuple{2, 2, 4}, {4, 2, 3}, {4, 2, 4}}) {
      auto p = params(r, d, s, w);
      p.endpoints = w == Wiring::Deterministic ? EndpointWiring::Block : EndpointWiring::Spread;
      const auto net = build_instance(p, 11, 0);
      const auto pe = path_expansion(net);
      EXPECT_EQ(pe.pairs_at_bound, pe.pairs) << "r=" << r << " S=" << s;
      EXPECT_EQ(pe.min_total_paths, total_paths_bound(net.params));
      EXPECT_EQ(pe.max_total_paths, total_paths_bound(net.params));
    }
  }
}

TEST(PathExpansion, MaximalFanoutWithRandomEndpointsLosesExpansionWhereBothPortsShareAFanoutClass) {
  // The Auto endpoints of maximal-fanout wiring are a random matching (the choice that reproduces Table
  // 3.4): a node whose two ports land in one stage-1 fanout class reaches only 2 distinct routers at
  // stage 2 instead of 4, so p(3) drops from 8 to 4 for it.
  const auto pe = path_expansion(build_instance(params(4, 2, 3, Wiring::MaximalFanout), 11, 0));
  EXPECT_LT(pe.pairs_at_bound, pe.pairs);
  EXPECT_EQ(pe.min[2], 4);
  EXPECT_EQ(pe.max[2], 8);
}

TEST(PathExpansion, RandomWiringFallsShortForSomePairs) {
  // Note 004a §4.7: in the 64-node random network p(3) ranges 4..8 against a bound of 8.
  const auto pe = path_expansion(build_instance(params(4, 2, 3, Wiring::Random), 11, 0));
  EXPECT_LT(pe.pairs_at_bound, pe.pairs);
  EXPECT_LT(pe.min[2], 8);
  EXPECT_EQ(pe.max[2], 8);
  EXPECT_EQ(pe.min_total_paths, 8);  // Eq 3.6 counts paths, which every wiring has
}

// A final stage of dilation d_S (§3.5.2): r = d = 2, S = 3, ni = no = 4, d_S = 2, 8 nodes.
MultibutterflyParams dilated_final(Wiring w) {
  auto p = params(2, 2, 3, w);
  p.node_inputs = p.node_outputs = 4;
  p.final_dilation = 2;
  p.final_pairing = FinalPairing::Single;
  return p;
}

TEST(Multibutterfly, DilatedFinalStageHasNoOverDsFullSizeRoutersPerDestination) {
  // R = N*ni/(r*d) = 8*4/4 = 8 routers in stages 1 and 2; the final stage has 4 classes of no/d_S = 2
  // routers with r*d_S = 4 inputs and outputs: 8 routers, 8 packages of one router each.
  for (const Wiring w : kWirings) {
    const auto net = build_instance(dilated_final(w), 5, 0);
    EXPECT_EQ(net.stage_first, (std::vector<int>{0, 8, 16, 24}));
    EXPECT_EQ(net.class_size, (std::vector<int>{8, 4, 2}));
    EXPECT_EQ(net.inputs_per_router, (std::vector<int>{4, 4, 4}));
    EXPECT_EQ(net.outputs_per_router, (std::vector<int>{4, 4, 4}));
    EXPECT_EQ(net.packages(), 24);
    expect_wiring_invariants(net);
    // Every node is fed by 2 distinct final routers, twice each.
    for (int y = 0; y < net.nodes; ++y) {
      std::multiset<int> feeders;
      for (int u = net.stage_first[2]; u < net.routers(); ++u)
        for (int o = net.out_first[u]; o < net.out_first[u + 1]; ++o)
          if (net.out[o] == y) feeders.insert(u);
      EXPECT_EQ(feeders.size(), 4u);
      EXPECT_EQ(std::set<int>(feeders.begin(), feeders.end()).size(), 2u);
    }
  }
}

TEST(PathExpansion, DilatedFinalStageMeetsEq35WithTheFinalStageExpandingByDs) {
  // Eq 3.2 with the final stage expanding by d_S too: p_in = 4, 8, 16, 32; Eq 3.3: p_out = no*r^(S+1-s)
  // = 32, 16, 8, 4. Eq 3.5 (the minimum): 4, 8, 8, 4. Paths (Eq 3.6 times d_S): ni*d^(S-1)*d_S = 32.
  const auto p = dilated_final(Wiring::Deterministic);
  EXPECT_EQ(path_expansion_bound(p), (std::vector<long long>{4, 8, 8, 4}));
  EXPECT_EQ(total_paths_bound(p), 32);
  for (const Wiring w : {Wiring::Deterministic, Wiring::MaximalFanout}) {
    auto q = dilated_final(w);
    q.endpoints = w == Wiring::Deterministic ? EndpointWiring::Block : EndpointWiring::Spread;
    const auto pe = path_expansion(build_instance(q, 11, 0));
    EXPECT_EQ(pe.pairs_at_bound, pe.pairs) << "wiring " << static_cast<int>(w);
    EXPECT_EQ(pe.min_total_paths, 32);
    EXPECT_EQ(pe.max_total_paths, 32);
  }
  // d_S = 1 leaves Table 3.3 as it was.
  auto one = p;
  one.final_dilation = 1;
  EXPECT_EQ(path_expansion_bound(one), (std::vector<long long>{4, 8, 8, 4}));
  EXPECT_EQ(total_paths_bound(one), 16);
}

TEST(PathExpansion, DilatedFinalStageOfTheStudiedRouterPerStage) {
  // r = 4, d = d_S = 2, S = 3, ni = no = 4 (RN1 parts in every stage, 64 nodes): p_in = 4, 8, 16, 32,
  // p_out = 4*4^3.., so Eq 3.5 gives min(4, 256), min(8, 64), min(16, 16), min(32, 4) = 4, 8, 16, 4 and
  // 4*2^2*2 = 32 paths; each destination has no/d_S = 2 final routers, 32 final routers in all.
  auto p = params(4, 2, 3, Wiring::Deterministic);
  p.node_inputs = p.node_outputs = 4;
  p.final_dilation = 2;
  p.final_pairing = FinalPairing::Single;
  ASSERT_TRUE(check(p).empty());
  const auto net = build_instance(p, 1, 0);
  EXPECT_EQ(net.stage_first, (std::vector<int>{0, 32, 64, 96}));
  const auto pe = path_expansion(net);
  EXPECT_EQ(pe.bound, (std::vector<long long>{4, 8, 16, 4}));
  EXPECT_EQ(pe.pairs_at_bound, pe.pairs);
  EXPECT_EQ(pe.min_total_paths, 32);
}

// One extra stage (§3.3.4) in front of r = d = 2, S = 3, ni = no = 2: 8 nodes, R = 4 routers a stage.
MultibutterflyParams extra_stage(Wiring w) {
  auto p = params(2, 2, 3, w);
  p.extra_stages = 1;
  return p;
}

TEST(Multibutterfly, ExtraStageIsOneClassWhoseOutputsAllLeadOn) {
  // Stages: the extra stage (1 class of 4), then the 3 routing stages (1 x 4, 2 x 2, 4 x 2 final).
  for (const Wiring w : kWirings) {
    const auto net = build_instance(extra_stage(w), 5, 0);
    EXPECT_EQ(net.stages(), 4);
    EXPECT_EQ(net.stage_first, (std::vector<int>{0, 4, 8, 12, 20}));
    EXPECT_EQ(net.class_size, (std::vector<int>{4, 4, 2, 2}));
    EXPECT_EQ(net.directions, (std::vector<int>{1, 2, 2, 2}));
    EXPECT_EQ(net.copies, (std::vector<int>{4, 2, 2, 1}));
    EXPECT_EQ(net.packages(), 12 + 4);  // 12 dilated routers, 8 final routers in pairs
    EXPECT_EQ(net.reach_span(0), 8);
    EXPECT_EQ(net.reach_span(1), 8);
    EXPECT_EQ(net.reach_span(2), 4);
    expect_wiring_invariants(net);  // incl. 4 distinct next-stage routers per extra-stage router
  }
}

TEST(PathExpansion, ExtraStageMultipliesPathsByRadixTimesDilation) {
  // T = 4 stages. p_in = 2, 2*(r*d) = 8, 8*d = 16, 16*d = 32, 32*1 = 32 (Eq 3.2, the extra stage fanning
  // out by r*d = 4); p_out = no*r^min(S, T+1-s) = 16, 16, 8, 4, 2 (Eq 3.3; the extra stage can use all
  // N*ni = 16 wires). Eq 3.5: 2, 8, 8, 4, 2. Paths: ni*(r*d)^E*d^(S-1) = 2*4*4 = 32, against 8 without.
  const auto p = extra_stage(Wiring::Deterministic);
  EXPECT_EQ(path_expansion_bound(p), (std::vector<long long>{2, 8, 8, 4, 2}));
  EXPECT_EQ(total_paths_bound(p), 32);
  EXPECT_EQ(total_paths_bound(params(2, 2, 3, Wiring::Deterministic)), 8);
  for (const Wiring w : {Wiring::Deterministic, Wiring::MaximalFanout}) {
    auto q = extra_stage(w);
    q.endpoints = w == Wiring::Deterministic ? EndpointWiring::Block : EndpointWiring::Spread;
    const auto pe = path_expansion(build_instance(q, 11, 0));
    EXPECT_EQ(pe.pairs_at_bound, pe.pairs) << "wiring " << static_cast<int>(w);
    EXPECT_EQ(pe.min_total_paths, 32);
    EXPECT_EQ(pe.max_total_paths, 32);
  }
  const auto pe = path_expansion(build_instance(extra_stage(Wiring::Random), 11, 0));
  EXPECT_EQ(pe.min_total_paths, 32);  // every wiring has the paths; only expansion can fall short
}

TEST(PathExpansion, ExtraStageOnTheSixtyFourNodeNetwork) {
  // r = 4, d = 2, S = 3, E = 1, ni = no = 2: p_in = 2, 16, 32, 64, 64; p_out = 2*4^min(3, 5-s) = 128,
  // 128, 32, 8, 2; Eq 3.5: 2, 16, 32, 8, 2, every pair at the bound (the extra stage reaches all 16
  // routers of stage 2, whose 32 input wires toward y's class are all on paths). Paths 2*8*2*2 = 64.
  auto p = params(4, 2, 3, Wiring::Deterministic);
  p.extra_stages = 1;
  const auto net = build_instance(p, 1, 0);
  EXPECT_EQ(net.routers(), 16 * 3 + 32);
  EXPECT_EQ(net.packages(), 16 * 3 + 16);
  const auto pe = path_expansion(net);
  EXPECT_EQ(pe.bound, (std::vector<long long>{2, 16, 32, 8, 2}));
  EXPECT_EQ(pe.pairs_at_bound, pe.pairs);
  EXPECT_EQ(pe.min_total_paths, 64);
}

// check(): one test per rejection.
std::vector<std::string> keys_of(const MultibutterflyParams& p) {
  std::vector<std::string> keys;
  for (const auto& pr : check(p)) keys.push_back(pr.key);
  return keys;
}

TEST(MultibutterflyCheck, AcceptsTheStudiedNetworks) {
  EXPECT_TRUE(check(params(4, 2, 3, Wiring::Deterministic)).empty());
  EXPECT_TRUE(check(params(2, 2, 4, Wiring::MaximalFanout)).empty());
  EXPECT_TRUE(check(params(4, 2, 5, Wiring::Random)).empty());
}
TEST(MultibutterflyCheck, RejectsRadixBelowTwo) {
  EXPECT_EQ(keys_of(params(1, 2, 3, Wiring::Deterministic)), std::vector<std::string>{"metro.radix"});
}
TEST(MultibutterflyCheck, RejectsZeroDilation) {
  EXPECT_EQ(keys_of(params(4, 0, 3, Wiring::Deterministic)), std::vector<std::string>{"metro.dilation"});
}
TEST(MultibutterflyCheck, RejectsOneStage) {
  EXPECT_EQ(keys_of(params(4, 2, 1, Wiring::Deterministic)), std::vector<std::string>{"metro.stages"});
}
TEST(MultibutterflyCheck, RejectsTooManyNodes) {
  EXPECT_EQ(keys_of(params(4, 2, 11, Wiring::Deterministic)), std::vector<std::string>{"metro.stages"});
}
TEST(MultibutterflyCheck, RejectsUnequalNodeInputsAndOutputs) {
  auto p = params(4, 2, 3, Wiring::Deterministic);
  p.node_outputs = 3;
  p.final_pairing = FinalPairing::Single;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.node_outputs"});
}
TEST(MultibutterflyCheck, RejectsDilationThatDoesNotDivideClasses) {
  auto p = params(4, 3, 3, Wiring::Deterministic);
  p.node_inputs = p.node_outputs = 4;
  p.final_pairing = FinalPairing::Single;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.dilation"});
}
TEST(MultibutterflyCheck, RejectsFinalClassSmallerThanDilation) {
  auto p = params(4, 4, 3, Wiring::Deterministic);
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.node_outputs"});
}
TEST(MultibutterflyCheck, RejectsPairingWithoutTwoOutputs) {
  auto p = params(4, 1, 3, Wiring::Deterministic);
  p.node_inputs = p.node_outputs = 1;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_pairing"});
  p.final_pairing = FinalPairing::Single;
  EXPECT_TRUE(check(p).empty());
}
TEST(MultibutterflyCheck, RejectsSymmetricPairingWithOddFinalClasses) {
  auto p = params(3, 1, 2, Wiring::Deterministic);  // 3 final classes
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_pairing"});
}

TEST(MultibutterflyCheck, RejectsFirstStageWithFewerRoutersThanNodeInputs) {
  auto p = params(2, 4, 2, Wiring::Deterministic);  // 2^(S-1) = 2 < d = 4: stage 1 has 4 routers for ni = 8
  p.node_inputs = p.node_outputs = 8;
  p.final_pairing = FinalPairing::Single;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.stages"});
}
TEST(MultibutterflyCheck, RejectsFanoutClassesThatDoNotSplitAClass) {
  auto p = params(4, 3, 3, Wiring::Deterministic);  // C_1 = 16 routers, F_1 = 3 fanout classes
  p.node_inputs = p.node_outputs = 3;
  p.final_pairing = FinalPairing::Single;
  p.endpoints = EndpointWiring::Random;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.dilation"});
  p.wiring = Wiring::Random;  // random wiring has no fanout classes
  EXPECT_TRUE(check(p).empty());
}
TEST(MultibutterflyCheck, RejectsFanoutListsThatDoNotBalance) {
  // r = 6, d = 2, S = 4: F = 2, 4, 6, 2; 4 classes x 2 copies do not spread evenly over 6.
  EXPECT_EQ(keys_of(params(6, 2, 4, Wiring::Deterministic)), std::vector<std::string>{"metro.wiring"});
}
TEST(MultibutterflyCheck, RejectsExtraStagesOutOfRange) {
  auto p = extra_stage(Wiring::Deterministic);
  p.extra_stages = -1;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.extra_stages"});
  p.extra_stages = 9;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.extra_stages"});
}
TEST(MultibutterflyCheck, RejectsExtraStageWithFewerRoutersThanItsOutputs) {
  auto p = params(4, 2, 2, Wiring::Deterministic);  // R = 16*2/8 = 4 routers, r*d = 8 outputs each
  ASSERT_TRUE(check(p).empty());
  p.extra_stages = 1;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.extra_stages"});
}
TEST(MultibutterflyCheck, RejectsExtraStageRoutersWithMoreOutputsThanTheTrackerCounts) {
  auto p = params(32, 16, 3, Wiring::Deterministic);  // r*d = 512 outputs; R = 32768*16/512 = 1024
  p.node_inputs = p.node_outputs = 16;
  p.final_pairing = FinalPairing::Single;
  ASSERT_TRUE(check(p).empty());
  p.extra_stages = 1;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.extra_stages"});
}
TEST(MultibutterflyCheck, RejectsFinalDilationOutOfRange) {
  auto p = dilated_final(Wiring::Deterministic);
  p.final_dilation = 0;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_dilation"});
}
TEST(MultibutterflyCheck, RejectsFinalDilationThatDoesNotDivideNodeOutputs) {
  auto p = dilated_final(Wiring::Deterministic);
  p.final_dilation = 3;  // no = 4
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_dilation"});
}
TEST(MultibutterflyCheck, RejectsFinalDilationLeavingFewerFinalRoutersThanTheDilation) {
  auto p = params(2, 2, 3, Wiring::Deterministic);  // no / d_S = 2 / 2 = 1 router per class, d = 2
  p.final_dilation = 2;
  p.final_pairing = FinalPairing::Single;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_dilation"});
}
TEST(MultibutterflyCheck, RejectsPairingOfDilatedFinalRouters) {
  auto p = dilated_final(Wiring::Deterministic);
  p.final_pairing = FinalPairing::Symmetric;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.final_pairing"});
}
TEST(MultibutterflyCheck, RejectsClassEndpointsWhenRadixTimesDilationDoesNotDivideTheNodes) {
  auto p = params(3, 2, 2, Wiring::Random);  // 9 nodes, 6-input routers
  p.final_pairing = FinalPairing::Single;
  EXPECT_EQ(keys_of(p), std::vector<std::string>{"metro.endpoints"});
  p.endpoints = EndpointWiring::Random;
  EXPECT_TRUE(check(p).empty());
}

}  // namespace
}  // namespace mppnet::machines::metro
