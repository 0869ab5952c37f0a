// net/vc_alloc_input_first_test.cpp: separable input-first VC allocation on hand-worked request matrices.
#include <gtest/gtest.h>

#include "net/vc_alloc_for_test.hpp"

namespace mppnet::net::vc_alloc::vc_alloc_input_first_test {
namespace {

using testing::Granted;
using testing::Matrix;

// A router with 2 ports x 2 VCs: output VCs 0, 1 on port 0 and 2, 3 on port 1; input VCs 0..3.
//   input 0: port 1, VCs 0 and 1 usable
//   input 1: port 1, VC 1 only (its route's VC class is 1)
//   input 2: port 0, VCs 0 and 1 usable
//   input 3: port 1, VCs 0 and 1 usable
// The round-robin pointer is at 2, so the priority distances of inputs 0, 1, 2, 3 are 2, 3, 0, 1.
Matrix two_by_two() {
  Matrix m(2, 2);
  m.row(0, {{1, 0b11}});
  m.row(1, {{1, 0b10}});
  m.row(2, {{0, 0b11}});
  m.row(3, {{1, 0b11}});
  m.input_rr = 2;
  return m;
}

TEST(VcAllocInputFirst, LowestFreeGivesEachOutputVcToTheNearestAskerAfterThePointer) {
  // lowest_free: inputs 0 and 3 ask for port 1's VC 0 (output VC 2), input 1 for output VC 3 (the only
  // VC of its class), input 2 for output VC 0. Output VC 2 goes to input 3 (distance 1) over input 0
  // (distance 2); the others have one asker each. Grants come in the order the output VCs were first
  // asked for (2, 3, 0). The pointer moves past the granted input nearest after it, input 2: to 3.
  Matrix m = two_by_two();
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{3, 2}, {1, 3}, {2, 0}}));
  EXPECT_EQ(m.input_rr, 3);
  EXPECT_EQ(m.rng.counter(), 0u) << "one candidate port per row: nothing to draw";
}

TEST(VcAllocInputFirst, RoundRobinAsksForTheVcAtThePortPointerAndMovesIt) {
  // Port 1's VC pointer at 1: inputs 0, 1 and 3 all ask for its VC 1 (output VC 3), and input 3 wins
  // (distance 1). Port 0's pointer at 0: input 2 asks for output VC 0. Afterwards each pointer is past
  // the VC granted on its port: port 0 to 1, port 1 to 0 (wrapped).
  Matrix m = two_by_two();
  m.vc_rr = {0, 1};
  EXPECT_EQ(m.run(&input_first, VcChoice::RoundRobin), (std::vector<Granted>{{3, 3}, {2, 0}}));
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{1, 0}));
  EXPECT_EQ(m.input_rr, 3);
}

TEST(VcAllocInputFirst, RandomAsksForADrawnVcSoSeveralRowsCanWinOnePort) {
  // Rows 0, 2 and 3 draw among two usable VCs (row 1 has one), in row order. The stream (seed 7,
  // component 1) draws 0, 0, 1: input 0 asks for port 1's VC 0 (output VC 2), input 2 for output VC 0,
  // input 3 for port 1's VC 1 (output VC 3), which input 1 asks for too. Input 3 (distance 1) beats
  // input 1 (distance 3); input 0 has output VC 2 alone. Two rows win VCs of port 1 in one cycle,
  // which lowest_free never allows.
  Matrix m = two_by_two();
  core::RandomStream draws = m.rng;
  ASSERT_EQ(draws.below(2), 0u);
  ASSERT_EQ(draws.below(2), 0u);
  ASSERT_EQ(draws.below(2), 1u);
  EXPECT_EQ(m.run(&input_first, VcChoice::Random), (std::vector<Granted>{{0, 2}, {3, 3}, {2, 0}}));
  EXPECT_EQ(m.rng.counter(), 3u);
}

TEST(VcAllocInputFirst, MostCreditsTakesThePortWithMoreCreditsWithoutADraw) {
  // Input 1 may go to port 0 (VC 1 usable, 5 credits) or port 1 (VC 0 usable, 9 credits): port 1's
  // VC 0, output VC 2, and no draw since the scores do not tie.
  Matrix m(2, 2);
  m.row(1, {{0, 0b10, 5}, {1, 0b01, 9}});
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{1, 2}}));
  EXPECT_EQ(m.rng.counter(), 0u);
  EXPECT_EQ(m.input_rr, 2);
}

TEST(VcAllocInputFirst, AMulticastWinsEveryBranchOrNone) {
  // 3 ports x 1 VC. Input 0 multicasts to ports 1 and 2; input 1 wants port 2.
  // Pointer at 1: input 1 (distance 0) beats input 0 (distance 2) at output VC 2, so the multicast
  // loses a branch and its output VC 1 lapses: input 1 alone is granted, the pointer moves to 2.
  Matrix m(3, 1);
  m.row(0, {{1, 0b1}, {2, 0b1}}, true);
  m.row(1, {{2, 0b1}});
  m.input_rr = 1;
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{1, 2}}));
  EXPECT_EQ(m.input_rr, 2);
  // Pointer at 0: the multicast is nearest at both outputs and takes both (VC 0 on each branch).
  m.input_rr = 0;
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{0, -1, {0, 0}}}));
  EXPECT_EQ(m.input_rr, 1);
}

TEST(VcAllocInputFirst, NoUsableVcNoGrantAndThePointerStays) {
  Matrix m(2, 2);
  m.row(0, {{1, 0}});
  m.input_rr = 3;
  EXPECT_TRUE(m.run(&input_first, VcChoice::RoundRobin).empty());
  EXPECT_EQ(m.input_rr, 3);
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{0, 0}));
}

TEST(VcAllocInputFirst, PerOutputPointersDoNotSplitTwoMulticasts) {
  // 4 ports x 1 VC. Inputs 0 and 1 both multicast to ports 2 and 3. Output VC 2's own pointer favours
  // input 0 and output VC 3's favours input 1: ranked by them, each would win one branch and lose the
  // other, and nobody would be granted, cycle after cycle. Multicasts are ranked by the router's pointer
  // (at 1): input 1 is nearest at both branches and takes both.
  Matrix m(4, 1);
  m.row(0, {{2, 0b1}, {3, 0b1}}, true);
  m.row(1, {{2, 0b1}, {3, 0b1}}, true);
  m.output_rr = {0, 0, 0, 1};
  m.input_rr = 1;
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{1, -1, {0, 0}}}));
  EXPECT_EQ(m.output_rr, (std::vector<std::uint16_t>{0, 0, 2, 2})) << "both branches' pointers pass input 1";
}

TEST(VcAllocInputFirst, PerOutputPointersStillRankUnicastRows) {
  // A unicast row keeps its output's own pointer: output VC 1's pointer at 1 ranks input 1 before
  // input 0, though the router's pointer (0) would not.
  Matrix m(2, 1);
  m.row(0, {{1, 0b1}});
  m.row(1, {{1, 0b1}});
  m.output_rr = {0, 1};
  EXPECT_EQ(m.run(&input_first, VcChoice::LowestFree), (std::vector<Granted>{{1, 1}}));
}

}  // namespace
}  // namespace mppnet::net::vc_alloc::vc_alloc_input_first_test
