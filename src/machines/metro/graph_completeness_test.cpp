// machines/metro/graph_completeness_test.cpp: the graph tracker against a search and the stage tracker.
#include "machines/metro/graph_completeness.hpp"

#include <gtest/gtest.h>

#include "machines/metro/metro_network.hpp"
#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro::graph_completeness_test {
namespace {

template <class P>
P tree(int levels, int ni, int final_dilation) {
  P p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = levels;
  p.node_inputs = p.node_outputs = ni;
  p.final_dilation = final_dilation;
  return p;
}

// Fault by fault, for 20 random sequences per unit, the tracker's answer equals the search's.
void expect_tracker_matches_search(const NetworkGraph& g, FaultUnit unit) {
  GraphCompletenessTracker t(g);
  const int units = fault_unit_count(g, unit);
  for (int seq = 0; seq < 20; ++seq) {
    t.reset();
    std::vector<std::uint8_t> faulty(g.routers()), dead(g.links());
    core::RandomStream rng(7, static_cast<std::uint64_t>(seq), core::Stream::Fault);
    for (int k = 0; k < 40; ++k) {
      const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(units)));
      t.fail(unit, i);
      if (unit == FaultUnit::Link) dead[i] = 1;
      if (unit == FaultUnit::Router) faulty[i] = 1;
      if (unit == FaultUnit::Package)
        for (int u : g.package_routers[i]) faulty[u] = 1;
      ASSERT_EQ(t.complete(), complete_by_search(g, faulty, dead)) << "sequence " << seq << " fault " << k;
    }
  }
}

TEST(GraphCompleteness, FatTreesMatchTheSearchForEveryFaultUnit) {
  for (const MetroNetwork& p :
       {MetroNetwork{tree<MetroFatTreeParams>(3, 4, 2)}, MetroNetwork{tree<MetroFatTreeParams>(2, 2, 1)},
        MetroNetwork{tree<HybridFatTreeParams>(1, 2, 1)}})
    for (const FaultUnit unit : {FaultUnit::Package, FaultUnit::Router, FaultUnit::Link})
      expect_tracker_matches_search(build_network_graph(p, 1, 0), unit);
}

// The same multibutterfly through both trackers: identical answers fault by fault.
TEST(GraphCompleteness, MultibutterflyAgreesWithTheStageTracker) {
  for (const Wiring w : {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout}) {
    const Multibutterfly net = build_instance(params(4, 2, 3, w), 1, 0);
    const NetworkGraph g = to_graph(net);
    CompletenessTracker a(net);
    GraphCompletenessTracker b(g);
    for (const FaultUnit unit : {FaultUnit::Package, FaultUnit::Link}) {
      ASSERT_EQ(fault_unit_count(net, unit), fault_unit_count(g, unit));
      for (int seq = 0; seq < 30; ++seq) {
        a.reset();
        b.reset();
        core::RandomStream rng(3, static_cast<std::uint64_t>(seq), core::Stream::Fault);
        for (int k = 0; k < 60; ++k) {
          const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(fault_unit_count(g, unit))));
          a.fail(unit, i);
          b.fail(unit, i);
          ASSERT_EQ(a.cut_pairs(), b.cut_pairs()) << static_cast<int>(w) << " seq " << seq << " k " << k;
        }
      }
    }
  }
}

// Eq 3.6 through the graph: the 16-node r = d = 2 multibutterfly has ni*d^(S-1) = 16 paths per pair.
TEST(GraphPaths, MultibutterflyGraphHasEquation36Paths) {
  const GraphPaths gp = graph_paths(to_graph(build_instance(params(2, 2, 4, Wiring::Deterministic), 1, 0)));
  EXPECT_EQ(gp.min_paths, 16);
  EXPECT_EQ(gp.max_paths, 16);
  EXPECT_EQ(gp.max_hops, 4);
}

}  // namespace
}  // namespace mppnet::machines::metro::graph_completeness_test
