// machines/metro/scan/localise_test.cpp: MRP evidence -> scan test -> mask, on Fig 4.4's network.
#include "machines/metro/scan/localise.hpp"

#include <gtest/gtest.h>

#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/scan/scan_scenarios.hpp"

namespace mppnet::machines::metro::scan {
namespace {

struct LocaliseTest : ::testing::Test {
  Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  mrp::MrpNetwork net{g, mrp::MrpParams{}, 1};
};

TEST_F(LocaliseTest, StatusPathNamesTheFaultyLinkInEveryCorruptedAttempt) {
  const LinkId bad = stage_two_link(g, net, 15, 0, 0);
  net.set_link_flip(bad, 0x80);
  const TrafficResult t = random_messages(net, 2, 400, 1);
  ASSERT_EQ(t.stats.delivered, 400);
  ASSERT_GT(t.stats.corrupted, 2);
  const std::vector<LinkSuspect> s = link_suspects(g, t.attempts);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0].link, bad);
  EXPECT_EQ(s[0].evidence, t.stats.corrupted);  // every corrupted attempt crossed it
  EXPECT_EQ(s.size(), 1u);
}

TEST_F(LocaliseTest, StuckLinkIsTestedMaskedAndNoLongerCorrupts) {
  const LinkId bad = stage_two_link(g, net, 15, 0, 0);
  net.set_link_flip(bad, 0x80);
  const TrafficResult before = random_messages(net, 2, 400, 1);
  ScanSystem scan(g, &net, ScanParams{});
  const Localisation loc = localise_links(g, scan, before.attempts);
  EXPECT_EQ(loc.tested, std::vector<LinkId>{bad});
  EXPECT_EQ(loc.faulty, std::vector<LinkId>{bad});
  EXPECT_EQ(loc.max_ports_out, 2);
  EXPECT_EQ(scan.ports_deselected(), 2);
  const TrafficResult after = random_messages(net, 2, 400, 2);
  EXPECT_EQ(after.stats.delivered, 400);
  EXPECT_EQ(after.stats.corrupted, 0);
}

TEST_F(LocaliseTest, TransientFaultPassesItsTestAndIsSelectedAgain) {
  const LinkId bad = stage_two_link(g, net, 15, 0, 0);
  net.set_link_flip(bad, 0x80, 3, 1);  // one payload word flipped, then sound
  const TrafficResult before = random_messages(net, 2, 400, 1);
  ASSERT_EQ(before.stats.corrupted, 1);
  ScanSystem scan(g, &net, ScanParams{});
  EXPECT_TRUE(localise_links(g, scan, before.attempts).tested.empty());  // one attempt is not evidence
  const Localisation loc = localise_links(g, scan, before.attempts, 1);
  EXPECT_EQ(loc.tested, std::vector<LinkId>{bad});
  EXPECT_TRUE(loc.faulty.empty());
  EXPECT_EQ(scan.ports_deselected(), 0);
  const ScanSystem::LinkEnds e = scan.ends(bad);
  EXPECT_TRUE(net.backward_selected(e.upper, e.upper_port - scan.router(e.upper).forward_ports()));
  EXPECT_TRUE(net.forward_selected(e.lower, e.lower_port));
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
