// machines/cm5/diagnostic_tests_test.cpp: stuck-at detection by AND/OR-combined group tests, isolation
// by halves (note V29) and chain tests, against counts derived in the comments.
#include "machines/cm5/diagnostic_tests.hpp"

#include <gtest/gtest.h>

#include <bit>

namespace mppnet::machines::cm5 {
namespace {

DiagnosticAddress all_b(int h) {
  return DiagnosticAddress(std::vector<Digit>(static_cast<std::size_t>(h), Digit::Both));
}

TEST(DiagnosticScan, TheComplementedPairsExpectBothValuesInEveryCell) {
  const ScanSystem scan(8, {.chain_bits = 100});
  for (int bit = 0; bit < 100; ++bit) {
    bool seen[2] = {false, false};
    for (int t = 0; t < scan.vectors(); ++t)
      seen[(scan.expected(t)[static_cast<std::size_t>(bit / 64)] >> (bit % 64)) & 1] = true;
    EXPECT_TRUE(seen[0] && seen[1]) << bit;
  }
}

TEST(DiagnosticGroupTest, AFaultFreeMachinePassesAndEveryStuckCellFails) {
  DiagnosticTree tree(4, 16);
  {
    const ScanSystem scan(16, {});
    GroupTester tester(tree, scan);
    EXPECT_TRUE(tester.test(all_b(4)));
  }
  // Every cell of every chip place, stuck at 0 and at 1, in pod 9: the whole-machine test fails.
  for (int chip = 0; chip < 4; ++chip)
    for (int bit = 0; bit < 64; ++bit)
      for (int value = 0; value < 2; ++value) {
        ScanSystem scan(16, {});
        scan.inject({.pod = 9, .chip = chip, .bit = bit, .value = value});
        GroupTester tester(tree, scan);
        EXPECT_FALSE(tester.test(all_b(4))) << chip << " " << bit << " " << value;
        EXPECT_TRUE(tester.test(DiagnosticAddress::parse("0BBB", 4)));  // pod 9 is in the right half
      }
}

TEST(DiagnosticGroupTest, IsolationTakesOneTestADigit) {
  // V29: h = 6, one stuck-at pod of 64. Stopping at the first: one test per B digit, h = 6, wherever the
  // pod is. Finding all: 2 tests at a digit where the pod's bit is 0 (the 0 half fails, the 1 half must
  // then be tested too), 1 where it is 1 (the 0 half passes, so the 1 half fails untested):
  // 2h - popcount(pod).
  const int h = 6;
  DiagnosticTree tree(h, 64);
  for (int pod = 0; pod < 64; ++pod)
    for (int value = 0; value < 2; ++value) {
      ScanSystem scan(64, {.seed = static_cast<std::uint64_t>(pod + 1)});
      scan.inject({.pod = pod, .chip = pod % 4, .bit = (7 * pod) % 64, .value = value});
      GroupTester tester(tree, scan);
      ASSERT_FALSE(tester.test(all_b(h)));
      const Isolation first = isolate(tester, all_b(h), true);
      EXPECT_EQ(first.pods, std::vector<int>{pod});
      EXPECT_EQ(first.tests, h);
      const Isolation all = isolate(tester, all_b(h), false);
      EXPECT_EQ(all.pods, std::vector<int>{pod});
      EXPECT_EQ(all.tests, 2 * h - std::popcount(static_cast<unsigned>(pod)));
      EXPECT_EQ(tester.chain_test(pod), std::vector<int>{pod % 4});
      EXPECT_EQ(tester.chain_tests(), 4);
    }
}

TEST(DiagnosticGroupTest, IsolationFindsTwoFaultyPodsAndSkipsAbsentHalves) {
  DiagnosticTree tree(4, 16);
  ScanSystem scan(16, {});
  scan.inject({.pod = 3, .chip = 0, .bit = 5, .value = 1});
  scan.inject({.pod = 12, .chip = 2, .bit = 60, .value = 0});
  GroupTester tester(tree, scan);
  EXPECT_EQ(isolate(tester, all_b(4), false).pods, (std::vector<int>{3, 12}));

  // Pods 0..4 of 8: the fault in pod 4. "0BB" passes, so "1BB" fails untested; "11B" and "101" hold no
  // pod and are skipped: one test in all.
  DiagnosticTree small(3, 5);
  ScanSystem one(8, {});
  one.inject({.pod = 4, .chip = 1, .bit = 0, .value = 0});
  GroupTester t(small, one);
  const Isolation r = isolate(t, all_b(3), false);
  EXPECT_EQ(r.pods, std::vector<int>{4});
  EXPECT_EQ(r.tests, 1);
}

TEST(DiagnosticGroupTest, CyclesFollowTheCostModel) {
  DiagnosticTree tree(4, 16);
  const ScanSystem scan(16, {});  // 8 vectors, 4 chips of 64 cells
  GroupTester tester(tree, scan);
  tester.test(all_b(4));
  // Selection: erase 1 + 4 digits + 2. Shifting: (8 + 1) * 256 + 8 captures.
  EXPECT_EQ(tester.cycles(), 1 + 4 + 2 + 9 * 256 + 8);
}

}  // namespace
}  // namespace mppnet::machines::cm5
