// net/vc_alloc_test.cpp: the steps the VC allocators share: the VC choice, the port choice, and how the
// round-robin VC pointers move.
#include <gtest/gtest.h>

#include "net/vc_alloc_for_test.hpp"

namespace mppnet::net::vc_alloc {
namespace {

using testing::Matrix;

RouterView view_of(Matrix& m, VcChoice choice) {
  return {m.vcs, m.n, choice, &m.input_rr, m.vc_rr.data(), &m.rng, nullptr};
}

TEST(VcAllocPickVc, LowestFreeRoundRobinAndRandom) {
  Matrix m(2, 4);
  const Candidate c{0b1010, 0, 1, -1};  // port 1, VCs 1 and 3 usable
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::LowestFree), c), 1);
  m.vc_rr[1] = 2;  // the first usable at or after VC 2 is VC 3
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::RoundRobin), c), 3);
  m.vc_rr[1] = 3;
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::RoundRobin), c), 3);
  m.vc_rr[1] = 0;  // VC 0 is not usable: VC 1
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::RoundRobin), c), 1);
  // Random: the draw below(2) picks the first or the second usable VC.
  core::RandomStream draws = m.rng;
  const int k = static_cast<int>(draws.below(2));
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::Random), c), k == 0 ? 1 : 3);
  EXPECT_EQ(m.rng.counter(), 1u);
  // One usable VC: no draw.
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::Random), Candidate{0b0100, 0, 1, -1}), 2);
  EXPECT_EQ(m.rng.counter(), 1u);
  EXPECT_EQ(pick_vc(view_of(m, VcChoice::Random), Candidate{0, 0, 1, -1}), -1);
}

TEST(VcAllocChoose, HighestScoreThenOneDrawAmongTies) {
  Matrix m(3, 1);
  const Candidate cs[3] = {{1, 4, 0, 0}, {1, 9, 1, 0}, {1, 9, 2, 0}};
  const int options[3] = {0, 1, 2};
  // Candidates 1 and 2 tie at 9: one draw below(2) picks the first or the second of them.
  core::RandomStream draws = m.rng;
  const int k = static_cast<int>(draws.below(2));
  EXPECT_EQ(choose(view_of(m, VcChoice::LowestFree), cs, options, 3), 1 + k);
  EXPECT_EQ(m.rng.counter(), 1u);
  const int best_two[2] = {0, 1};  // 9 beats 4: no draw
  EXPECT_EQ(choose(view_of(m, VcChoice::LowestFree), cs, best_two, 2), 1);
  EXPECT_EQ(m.rng.counter(), 1u);
}

TEST(VcAllocPointers, EachPortMovesPastItsFurthestGrantedVc) {
  // 2 ports x 4 VCs. Port 0's pointer at 1, granted VCs 1 and 3 (distances 0 and 2): past VC 3, to 0.
  // Port 1's pointer at 3, granted VC 2 (distance 3): to 3 again.
  Matrix m(2, 4);
  m.vc_rr = {1, 3};
  m.row(0, {{0, 0b1111}});
  m.row(1, {{0, 0b1111}});
  m.row(2, {{1, 0b1111}});
  const Grant grants[3] = {{0, 1, 0}, {1, 3, 1}, {2, 6, 2}};
  const Scratch s{m.claim.data(), m.dist.data(), m.listed.data(), m.cells.data()};
  move_vc_pointers(view_of(m, VcChoice::RoundRobin), m.requests, m.candidates, s, grants, 3);
  EXPECT_EQ(m.vc_rr, (std::vector<std::uint8_t>{0, 3}));
}

}  // namespace
}  // namespace mppnet::net::vc_alloc
