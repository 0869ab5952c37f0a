// machines/metro/scan/reconfigure_test.cpp: dead ends, yield and harvest propagation, masks by scan.
#include "machines/metro/scan/reconfigure.hpp"

#include <gtest/gtest.h>

#include "core/rng.hpp"
#include "machines/metro/harvest.hpp"
#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/scan/scan_system.hpp"

namespace mppnet::machines::metro::scan {
namespace {

TEST(Reconfigure, SoundNetworkHasNoDeadEndsAndStaysWhole) {
  const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  NetworkMasks m(g);
  for (RouterId u = 0; u < g.routers(); ++u) EXPECT_FALSE(is_dead_end(g, m, u));
  const ReconfigureResult r = propagate(g, m, ReconfigureMode::Yield);
  EXPECT_TRUE(r.masked.empty());
  EXPECT_TRUE(r.complete);
}

TEST(Reconfigure, DeterministicWiringDeadEndsAWholeFanoutClass) {
  // Fig 4.4's deterministic wiring: stage-1 routers 0-3 (fanout class 0) send direction 1 to stage-2
  // class 1, fanout classes (0*d + k) mod 4 = 0, 1: routers 8 + 4 + {0, 1}. Losing those two dead-ends
  // all four; every node also enters by fanout class 1 (routers 4-7), whose direction-1 copies go to
  // routers 14 and 15, so yield masks all four and the network stays complete.
  const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  ASSERT_EQ(g.out[g.out_first[0] + 1 * 2 + 0], 12);
  ASSERT_EQ(g.out[g.out_first[0] + 1 * 2 + 1], 13);
  NetworkMasks m(g);
  m.router[12] = m.router[13] = 1;
  for (RouterId u = 0; u < 8; ++u) EXPECT_EQ(is_dead_end(g, m, u), u < 4) << u;
  const ReconfigureResult r = propagate(g, m, ReconfigureMode::Yield);
  EXPECT_EQ(r.masked, (std::vector<RouterId>{0, 1, 2, 3}));
  EXPECT_TRUE(r.refused.empty());
  EXPECT_TRUE(r.cut_off.empty());
  EXPECT_TRUE(r.complete);
}

TEST(Reconfigure, MaskedLinksCountLikeMaskedRouters) {
  const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  NetworkMasks m(g);
  m.output[g.out_first[0] + 2] = m.output[g.out_first[0] + 3] = 1;  // both direction-1 links of router 0
  EXPECT_TRUE(is_dead_end(g, m, 0));
  EXPECT_FALSE(is_dead_end(g, m, 1));
  const ReconfigureResult r = propagate(g, m, ReconfigureMode::Yield);
  EXPECT_EQ(r.masked, (std::vector<RouterId>{0}));
}

TEST(Reconfigure, HarvestModeAgreesWithChongOnRouterFaults) {
  // Harvest mode is Fig 3.28's propagation (harvest.hpp, an implementation of its own): with faults in
  // stages 1..S-1 that leave every node an entry, both keep the same nodes.
  MultibutterflyParams p = mrp::figure_44_network();
  p.wiring = Wiring::Random;
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Multibutterfly g = build_instance(p, 1 + trial % 5, 0);
    core::RandomStream rng(7, static_cast<std::uint64_t>(trial), core::Stream::Fault);
    std::vector<std::uint8_t> faulty(g.routers(), 0);
    const int last = g.stage_first[g.stages() - 1];
    for (int k = 0; k < 2 + trial % 4; ++k) faulty[rng.below(static_cast<std::uint32_t>(last))] = 1;
    bool entry_lost = false;
    for (NodeId x = 0; x < g.nodes; ++x)
      entry_lost = entry_lost || (faulty[g.node_in[2 * x]] && faulty[g.node_in[2 * x + 1]]);
    if (entry_lost) continue;
    NetworkMasks m(g);
    m.router = faulty;
    const ReconfigureResult r = propagate(g, m, ReconfigureMode::Harvest);
    const std::vector<std::uint8_t> live = chong_live_nodes(g, faulty);
    std::vector<std::uint8_t> kept(g.nodes, 1);
    for (NodeId x : r.cut_off) kept[x] = 0;
    EXPECT_EQ(kept, live) << "trial " << trial;
    ++compared;
  }
  EXPECT_GT(compared, 200);
}

TEST(Reconfigure, YieldNeverCutsOffANodeHarvestMay) {
  MultibutterflyParams p = mrp::figure_44_network();
  p.wiring = Wiring::Random;
  int harvest_cut = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Multibutterfly g = build_instance(p, 1 + trial % 5, 0);
    core::RandomStream rng(11, static_cast<std::uint64_t>(trial), core::Stream::Fault);
    NetworkMasks m(g);
    for (int k = 0; k < 4; ++k) m.router[g.stage_first[1] + rng.below(8)] = 1;
    NetworkMasks h = m;
    const ReconfigureResult y = propagate(g, m, ReconfigureMode::Yield);
    const bool whole_before = all_pairs_connected(g, h);
    const ReconfigureResult hv = propagate(g, h, ReconfigureMode::Harvest);
    if (whole_before) {
      EXPECT_TRUE(y.complete) << trial;
    }
    EXPECT_TRUE(y.cut_off.empty()) << trial;
    harvest_cut += hv.cut_off.empty() ? 0 : 1;
  }
  EXPECT_GT(harvest_cut, 0);  // the Fig 5.4 situation occurs among these fault sets
}

TEST(Reconfigure, MasksReachThePortSelectRegistersByScan) {
  const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  mrp::MrpNetwork net(g, mrp::MrpParams{}, 1);
  ScanSystem scan(g, &net, ScanParams{});
  NetworkMasks m(g);
  m.router[12] = 1;
  EXPECT_EQ(apply_masks(g, m, scan), 0);
  // Router 12 (stage 2) has 4 inputs from stage 1 and 4 outputs to stage 3: its 8 ports and the 8 far ends.
  EXPECT_EQ(scan.ports_deselected(), 16);
  for (int p = 0; p < 4; ++p) EXPECT_FALSE(net.forward_selected(12, p));
  for (RouterId u = 0; u < 8; ++u)
    for (int port = 0; port < 4; ++port)
      if (g.out[g.out_first[u] + port] == 12) {
        EXPECT_FALSE(net.backward_selected(u, port));
      }
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
