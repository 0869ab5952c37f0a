// core/worklist_test.cpp: ActiveSet membership and deterministic index order, sparse and dense.
#include "core/worklist.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "core/rng.hpp"

namespace mppnet::core {
namespace {

std::vector<std::uint32_t> members(ActiveSet& s) {
  const auto span = s.sorted();
  return {span.begin(), span.end()};
}

TEST(ActiveSet, AddIsIdempotentAndOrderIsByIndex) {
  ActiveSet s(10);
  for (std::uint32_t i : {7u, 2u, 7u, 9u, 0u, 2u}) s.add(i);
  EXPECT_EQ(s.size(), 4u);
  EXPECT_TRUE(s.contains(7));
  EXPECT_FALSE(s.contains(3));
  EXPECT_FALSE(s.contains(10));  // outside the universe: not a member
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{0, 2, 7, 9}));
}

TEST(ActiveSet, ClearEmptiesAndAllowsReuse) {
  ActiveSet s(200);
  s.add(150);
  s.add(3);
  s.clear();
  EXPECT_TRUE(s.empty());
  EXPECT_FALSE(s.contains(150));
  s.add(150);  // a mark left behind would make this a no-op
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{150}));
}

TEST(ActiveSet, SameMembersSameOrderRegardlessOfInsertionOrder) {
  // Sparse (8 of 100000: sorted by std::sort) and dense (60000 of 100000: rebuilt from the bitset)
  // exercise both paths; each set is filled in two different orders and must iterate identically.
  for (const std::size_t k : {std::size_t{8}, std::size_t{60'000}}) {
    RandomStream rng(11, k, Stream::Setup);
    std::set<std::uint32_t> expected;
    while (expected.size() < k) expected.insert(rng.below(100'000));
    std::vector<std::uint32_t> forward(expected.begin(), expected.end());
    std::vector<std::uint32_t> shuffled = forward;
    for (std::size_t i = shuffled.size(); i > 1; --i) {
      std::swap(shuffled[i - 1], shuffled[rng.below(static_cast<std::uint32_t>(i))]);
    }
    ActiveSet a(100'000), b(100'000);
    for (auto i : forward) a.add(i);
    for (auto i : shuffled) b.add(i), b.add(i);
    EXPECT_EQ(members(a), forward) << "k = " << k;
    EXPECT_EQ(members(b), forward) << "k = " << k;
    b.clear();
    EXPECT_TRUE(b.empty());
    for (std::uint32_t i = 0; i < 100'000; ++i) ASSERT_FALSE(b.contains(i));
  }
}

TEST(ActiveSet, AddAfterIterationKeepsOrder) {
  ActiveSet s(1000);
  s.add(500);
  s.add(10);
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{10, 500}));
  s.add(999);
  s.add(11);
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{10, 11, 500, 999}));
}

TEST(ActiveSet, WordBoundaries) {
  ActiveSet s(130);
  for (std::uint32_t i : {129u, 64u, 63u, 0u, 127u, 128u}) s.add(i);
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{0, 63, 64, 127, 128, 129}));
}

}  // namespace
}  // namespace mppnet::core
