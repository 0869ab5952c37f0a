// machines/metro/scan/scan_system_test.cpp: gridded paths, port selection into MRP, link tests.
#include "machines/metro/scan/scan_system.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "machines/metro/mrp/scenarios.hpp"

namespace mppnet::machines::metro::scan {
namespace {

struct ScanSystemTest : ::testing::Test {
  Multibutterfly g = build_instance(mrp::figure_44_network(), 1,
                                    0);  // 40 routers: 24 of 4 + 4 ports, 16 final ones of 2 + 2
  mrp::MrpNetwork net{g, mrp::MrpParams{}, 1};
  ScanParams params;  // dual TAP, 8 columns: a 5 x 8 grid, 13 paths
};

TEST_F(ScanSystemTest, GridPathsShareAtMostOneRouter) {
  ScanSystem scan(g, &net, params);
  ASSERT_EQ(scan.paths(), 13);
  for (int p = 0; p < scan.paths(); ++p)
    for (int q = p + 1; q < scan.paths(); ++q) {
      int shared = 0;
      for (const ScanMember& a : scan.path(p))
        for (const ScanMember& b : scan.path(q)) shared += a.router == b.router ? 1 : 0;
      EXPECT_LE(shared, 1) << p << " " << q;
    }
}

TEST_F(ScanSystemTest, TwoDeadPathsCutOffOneRouterAtMost) {
  // L1903: "two faulty scan paths will make at most one component inaccessible". A row and a column cut
  // off exactly the router where they cross: 5 x 8 = 40 such pairs; two rows or two columns cut none.
  ScanSystem scan(g, &net, params);
  const std::vector<int> cut = cut_off_by_path_pairs(scan, g.routers());
  ASSERT_EQ(cut.size(), 78u);  // 13 paths
  EXPECT_EQ(*std::max_element(cut.begin(), cut.end()), 1);
  EXPECT_EQ(std::count(cut.begin(), cut.end(), 1), 40);
}

TEST_F(ScanSystemTest, SingleTapRowLosesItsWholeRowToOneFault) {
  ScanParams one = params;
  one.taps = 1;
  ScanSystem scan(g, &net, one);
  ASSERT_EQ(scan.paths(), 5);
  scan.set_path_fault(1, PathFault::TckStuck);
  int cut = 0;
  for (RouterId u = 0; u < g.routers(); ++u) cut += scan.reachable_path(u) < 0 ? 1 : 0;
  EXPECT_EQ(cut, 8);
}

TEST_F(ScanSystemTest, PortSelectionByScanDrivesTheMrpMasks) {
  ScanSystem scan(g, &net, params);
  const RouterId u = g.stage_first[1] + 2;
  ASSERT_TRUE(scan.set_port_enabled(u, 4 + 1, false));  // backward port 1
  ASSERT_TRUE(scan.set_port_enabled(u, 3, false));      // forward port 3
  EXPECT_FALSE(net.backward_selected(u, 1));
  EXPECT_FALSE(net.forward_selected(u, 3));
  EXPECT_TRUE(net.backward_selected(u, 0));
  EXPECT_EQ(scan.ports_deselected(), 2);
  ASSERT_TRUE(scan.set_port_enabled(u, 4 + 1, true));
  EXPECT_TRUE(net.backward_selected(u, 1));
}

TEST_F(ScanSystemTest, StuckTdiLoadsOnlyBypassAndTheOtherPathStillReaches) {
  ScanSystem scan(g, &net, params);
  const RouterId u = 9;  // row 1 (path 1), column 1 (path 5 + 1)
  scan.set_path_fault(1, PathFault::TdiStuck0);
  EXPECT_FALSE(scan.load(1, u, {Opcode::PortSelect, 0}) &&
               scan.router(u).instruction(0).op != Opcode::Bypass);
  EXPECT_EQ(scan.router(u).instruction(0), Instruction{});
  EXPECT_EQ(scan.reachable_path(u), 6);
  EXPECT_TRUE(scan.set_port_enabled(u, 0, false));
  EXPECT_FALSE(net.forward_selected(u, 0));
}

TEST_F(ScanSystemTest, LinkTestSeesAStuckFlipDownTheWireOnly) {
  ScanSystem scan(g, &net, params);
  const RouterId u = g.stage_first[1];
  const LinkId l = net.backward_link(u, 2);
  net.set_link_flip(l, 0x80);  // static: every word toward the destination has bit 7 inverted
  const LinkTest t = scan.test_link(l);
  ASSERT_TRUE(t.reachable);
  // Each direction: all-0, all-1, a walking 1 and a walking 0 over 10 bits: 22 patterns; bit 7 is wrong
  // in every pattern driven down, in none driven up.
  EXPECT_EQ(t.patterns, 44);
  EXPECT_EQ(t.mismatches, 22);
  const ScanSystem::LinkEnds e = scan.ends(l);
  EXPECT_EQ(e.upper, u);
  EXPECT_EQ(e.upper_port, 4 + 2);
  EXPECT_EQ(e.lower, net.link_target(l));
  EXPECT_EQ(e.lower_port, net.link_port(l));
  EXPECT_FALSE(net.backward_selected(u, 2));  // left out of service for the caller to decide
  EXPECT_FALSE(net.forward_selected(e.lower, e.lower_port));
  EXPECT_EQ(scan.ports_deselected(), 2);
}

TEST_F(ScanSystemTest, LinkTestPassesASoundWireAndEndsInBypass) {
  ScanSystem scan(g, &net, params);
  const LinkId l = net.backward_link(g.stage_first[2] + 5, 1);
  const LinkTest t = scan.test_link(l);
  EXPECT_TRUE(t.reachable);
  EXPECT_EQ(t.mismatches, 0);
  const ScanSystem::LinkEnds e = scan.ends(l);
  for (int tap = 0; tap < 2; ++tap) {
    EXPECT_EQ(scan.router(e.upper).instruction(tap), Instruction{});
    EXPECT_EQ(scan.router(e.lower).instruction(tap), Instruction{});
  }
}

TEST_F(ScanSystemTest, EveryRouterLinkHasBothEnds) {
  ScanSystem scan(g, &net, params);
  const int node_links = g.nodes * g.params.node_inputs;
  int router_links = 0;
  for (LinkId l = node_links; l < net.links(); ++l) {
    const ScanSystem::LinkEnds e = scan.ends(l);
    if (net.link_target(l) < 0) {
      EXPECT_EQ(e.upper, -1);
      continue;
    }
    ++router_links;
    EXPECT_EQ(e.lower, net.link_target(l));
    EXPECT_EQ(e.lower_port, net.link_port(l));
  }
  EXPECT_EQ(router_links, 3 * 8 * 4);  // three inter-stage gaps, 8 routers of 4 outputs each
}

TEST(ScanParamsCheck, RefusesWhatItCannotBuild) {
  ScanParams p;
  p.taps = 3;
  p.check_bits = 1;
  const auto problems = check(p, 32, 8);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].key, "metro.scan.check_bits");
  EXPECT_EQ(problems[1].key, "metro.scan.taps");
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
