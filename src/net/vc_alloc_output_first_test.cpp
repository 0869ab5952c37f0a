// net/vc_alloc_output_first_test.cpp: separable output-first VC allocation on hand-worked request matrices.
#include <gtest/gtest.h>

#include "net/vc_alloc_for_test.hpp"

namespace mppnet::net::vc_alloc::vc_alloc_output_first_test {
namespace {

using testing::Granted;
using testing::Matrix;

// 2 ports x 2 VCs (output VCs 0, 1 on port 0; 2, 3 on port 1), pointer at 2 (distances of inputs
// 0, 1, 2, 3: 2, 3, 0, 1).
//   input 0: port 1, VCs 0 and 1      input 1: port 1, VC 1
//   input 2: port 0, VCs 0 and 1      input 3: port 1, VC 0
// Output stage, every usable VC asked for: output VC 2 (asked by 0 and 3) goes to input 3; output VC 3
// (asked by 0 and 1) to input 0; output VCs 0 and 1 both to input 2, which must then accept one.
Matrix two_by_two() {
  Matrix m(2, 2);
  m.row(0, {{1, 0b11}});
  m.row(1, {{1, 0b10}});
  m.row(2, {{0, 0b11}});
  m.row(3, {{1, 0b01}});
  m.input_rr = 2;
  return m;
}

TEST(VcAllocOutputFirst, LowestFreeAcceptsOneGrantByOneDrawAsBefore) {
  // Input 2 holds two grants and draws which to keep: below(2) on the stream (seed 7, component 3),
  // whose first draw is 1, so it keeps output VC 1, not the lowest, and output VC 0 lapses. Inputs 0 and
  // 3 hold one grant each. Grants come in output-VC order; the pointer moves past input 2 (the nearest
  // granted) to 3.
  Matrix m = two_by_two();
  m.rng = core::RandomStream(7, 3, core::Stream::RouteChoice);
  core::RandomStream draws = m.rng;
  ASSERT_EQ(draws.below(2), 1u) << "the derivation above assumes the stream's first draw";
  EXPECT_EQ(m.run(&output_first, VcChoice::LowestFree), (std::vector<Granted>{{2, 1}, {3, 2}, {0, 3}}));
  EXPECT_EQ(m.rng.counter(), 1u);
  EXPECT_EQ(m.input_rr, 3);
}

TEST(VcAllocOutputFirst, RoundRobinAcceptsTheGrantAtThePortPointerWithoutADraw) {
  // Port 0's VC pointer at 0: input 2 keeps output VC 0 (VC 0 is at the pointer), no draw. Port 1's
  // pointer at 1: VC 1 (input 0) is at distance 0 and VC 0 (input 3) at distance 1, so the pointer moves
  // past VC 0, to 1; port 0's past VC 0, to 1.
  Matrix m = two_by_two();
  m.vc_rr = {0, 1};
  EXPECT_EQ(m.run(&output_first, VcChoice::RoundRobin), (std::vector<Granted>{{2, 0}, {3, 2}, {0, 3}}));
  EXPECT_EQ(m.rng.counter(), 0u);
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{1, 1}));
  // Port 0's pointer now at 1: input 2 is granted both VCs of port 0 again and keeps VC 1.
  m.vc_rr = {1, 1};
  EXPECT_EQ(m.run(&output_first, VcChoice::RoundRobin), (std::vector<Granted>{{2, 1}, {3, 2}, {0, 3}}));
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{0, 1}));
}

TEST(VcAllocOutputFirst, MostCreditsKeepsTheGrantOnThePortWithMoreCredits) {
  // Input 0 alone, port 0 VC 0 (2 credits) or port 1 VC 1 (7 credits): granted both, keeps output VC 3.
  Matrix m(2, 2);
  m.row(0, {{0, 0b01, 2}, {1, 0b10, 7}});
  EXPECT_EQ(m.run(&output_first, VcChoice::LowestFree), (std::vector<Granted>{{0, 3}}));
  EXPECT_EQ(m.rng.counter(), 0u);
}

TEST(VcAllocOutputFirst, AMulticastThatLosesABranchGetsNothing) {
  // 3 ports x 1 VC, pointer at 1. Input 0 multicasts to ports 1 and 2; input 1 wants port 2 and wins it
  // (distance 0 against 2). The multicast's output VC 1 lapses too: only input 1 is granted.
  Matrix m(3, 1);
  m.row(0, {{1, 0b1}, {2, 0b1}}, true);
  m.row(1, {{2, 0b1}});
  m.input_rr = 1;
  EXPECT_EQ(m.run(&output_first, VcChoice::LowestFree), (std::vector<Granted>{{1, 2}}));
  m.input_rr = 0;
  EXPECT_EQ(m.run(&output_first, VcChoice::LowestFree), (std::vector<Granted>{{0, -1, {0, 0}}}));
}

TEST(VcAllocOutputFirst, PerOutputPointersDoNotSplitTwoMulticasts) {
  // As the input-first case: inputs 0 and 1 multicast to ports 2 and 3, whose own pointers favour
  // input 0 and input 1. Ranked by the router's pointer (at 0), input 0 takes both branches.
  Matrix m(4, 1);
  m.row(0, {{2, 0b1}, {3, 0b1}}, true);
  m.row(1, {{2, 0b1}, {3, 0b1}}, true);
  m.output_rr = {0, 0, 0, 1};
  m.input_rr = 0;
  EXPECT_EQ(m.run(&output_first, VcChoice::LowestFree), (std::vector<Granted>{{0, -1, {0, 0}}}));
}

}  // namespace
}  // namespace mppnet::net::vc_alloc::vc_alloc_output_first_test
