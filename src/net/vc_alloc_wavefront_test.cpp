// net/vc_alloc_wavefront_test.cpp: wavefront VC allocation on hand-worked request matrices.
#include <gtest/gtest.h>

#include "net/vc_alloc_for_test.hpp"

namespace mppnet::net::vc_alloc {
namespace {

using testing::Granted;
using testing::Matrix;

// 2 ports x 2 VCs, n = 4 (output VCs 0, 1 on port 0; 2, 3 on port 1). Under lowest_free:
//   input 0: port 0 (VC 0) or port 1 (VC 0)  -> cells (0, 0) and (0, 2)
//   input 1: port 0, VCs 0 and 1              -> cell (1, 0)
//   input 2: port 1, VCs 0 and 1              -> cell (2, 2)
// Cell (i, j) is on wrapped diagonal (i + j) mod 4: (0, 0) on 0, (0, 2) on 2, (1, 0) on 1, (2, 2) on 0.
Matrix three_rows() {
  Matrix m(2, 2);
  m.row(0, {{0, 0b01}, {1, 0b01}});
  m.row(1, {{0, 0b11}});
  m.row(2, {{1, 0b11}});
  return m;
}

TEST(VcAllocWavefront, PriorityDiagonalZeroGrantsItsCellsFirst) {
  // Diagonal 0 first: (0, 0) and (2, 2) are granted. Diagonal 1: (1, 0) finds output VC 0 taken.
  // Diagonal 2: (0, 2) finds row 0 matched. Input 1 waits; the priority diagonal moves to 1.
  Matrix m = three_rows();
  EXPECT_EQ(m.run(&wavefront, VcChoice::LowestFree), (std::vector<Granted>{{0, 0}, {2, 2}}));
  EXPECT_EQ(m.input_rr, 1);
  EXPECT_EQ(m.rng.counter(), 0u) << "the arbiter, not a draw, picks input 0's port";
}

TEST(VcAllocWavefront, PriorityDiagonalOneMatchesInputZeroToItsOtherPort) {
  // Diagonal 1 first: (1, 0) granted. Diagonal 2: (0, 2) granted, so input 0 takes port 1 because port
  // 0's VC went to input 1. Diagonal 0: (0, 0) and (2, 2) find their row or column matched. The matching
  // is maximal: input 2's only cell is in a matched column.
  Matrix m = three_rows();
  m.input_rr = 1;
  EXPECT_EQ(m.run(&wavefront, VcChoice::LowestFree), (std::vector<Granted>{{1, 0}, {0, 2}}));
  EXPECT_EQ(m.input_rr, 2);
}

TEST(VcAllocWavefront, RoundRobinAsksForThePointersVcs) {
  // Port pointers at 1 and 1: input 1 asks for output VC 1 and input 2 for output VC 3; input 0 can use
  // VC 0 only. Cells: (0, 0) diagonal 0, (0, 2) diagonal 2, (1, 1) diagonal 2, (2, 3) diagonal 1.
  // From diagonal 0: (0, 0); diagonal 1: (2, 3); diagonal 2: (1, 1) ((0, 2): row 0 matched). All three
  // inputs are matched. Pointers move past the granted VCs: port 0 granted VCs 0 and 1 (distances 1
  // and 0 from 1), so past VC 0, to 1; port 1 past VC 1, to 0.
  Matrix m = three_rows();
  m.vc_rr = {1, 1};
  EXPECT_EQ(m.run(&wavefront, VcChoice::RoundRobin), (std::vector<Granted>{{0, 0}, {2, 3}, {1, 1}}));
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{1, 0}));
}

TEST(VcAllocWavefront, MostCreditsAsksOnlyForThePortWithMoreCredits) {
  // Input 0's port 1 has more credits (8 against 3): only cell (0, 2) is asked for. Diagonal 0 first:
  // (2, 2) takes output VC 2; then (1, 0) on diagonal 1; (0, 2) on diagonal 2 finds its column taken.
  Matrix m(2, 2);
  m.row(0, {{0, 0b01, 3}, {1, 0b01, 8}});
  m.row(1, {{0, 0b11}});
  m.row(2, {{1, 0b11}});
  EXPECT_EQ(m.run(&wavefront, VcChoice::LowestFree), (std::vector<Granted>{{2, 2}, {1, 0}}));
}

TEST(VcAllocWavefront, MulticastsGoFirstAndWhole) {
  // 3 ports x 1 VC. Input 0 wants port 1; input 1 multicasts to ports 1 and 2; input 2 multicasts to
  // ports 2 and 0. Multicasts first, nearest after the pointer (0): input 1 takes output VCs 1 and 2;
  // input 2 finds output VC 2 taken and gets nothing; then input 0's cell (0, 1) finds its column taken.
  Matrix m(3, 1);
  m.row(0, {{1, 0b1}});
  m.row(1, {{1, 0b1}, {2, 0b1}}, true);
  m.row(2, {{0, 0b1}, {2, 0b1}}, true);
  EXPECT_EQ(m.run(&wavefront, VcChoice::LowestFree), (std::vector<Granted>{{1, -1, {0, 0}}}));
  // Pointer at 2: input 2 goes first and takes output VCs 0 and 2; input 1 loses; input 0 takes 1.
  m.input_rr = 2;
  EXPECT_EQ(m.run(&wavefront, VcChoice::LowestFree), (std::vector<Granted>{{2, -1, {0, 0}}, {0, 1}}));
  EXPECT_EQ(m.input_rr, 0);
}

TEST(VcAllocWavefront, NothingGrantedLeavesThePriorityDiagonal) {
  Matrix m(2, 2);
  m.row(0, {{0, 0}});
  m.input_rr = 3;
  EXPECT_TRUE(m.run(&wavefront, VcChoice::LowestFree).empty());
  EXPECT_EQ(m.input_rr, 3);
}

}  // namespace
}  // namespace mppnet::net::vc_alloc
