// core/all_to_all_order_test.cpp: both orders pair every node with every other once; the pair count's
// closed form against a count by enumeration.
#include "core/all_to_all_order.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace mppnet::core {
namespace {

TEST(AllToAllOrder, EveryNodeMeetsEveryOtherNodeOnce) {
  for (const AllToAllOrder order : {AllToAllOrder::Shift, AllToAllOrder::Xor}) {
    for (int p = 1; p <= 70; ++p) {
      std::vector<int> met(static_cast<std::size_t>(p) * p, 0);
      for (int r = 1; r <= all_to_all_round_count(p, order); ++r) {
        for (NodeId i = 0; i < p; ++i) {
          const NodeId j = all_to_all_partner(order, i, r, p);
          if (j >= 0) ++met[static_cast<std::size_t>(i) * p + j];
        }
      }
      for (NodeId i = 0; i < p; ++i) {
        for (NodeId j = 0; j < p; ++j) EXPECT_EQ(met[static_cast<std::size_t>(i) * p + j], i == j ? 0 : 1);
      }
    }
  }
}

TEST(AllToAllOrder, RoundsAndPartnersOfASizeThatIsNotAPowerOfTwo) {
  EXPECT_EQ(all_to_all_round_count(6, AllToAllOrder::Shift), 5);
  EXPECT_EQ(all_to_all_round_count(6, AllToAllOrder::Xor), 7);
  EXPECT_EQ(all_to_all_round_count(1, AllToAllOrder::Xor), 0);
  EXPECT_EQ(all_to_all_partner(AllToAllOrder::Shift, 5, 2, 6), 1);
  EXPECT_EQ(all_to_all_partner(AllToAllOrder::Xor, 5, 2, 6), -1);  // 5 ^ 2 = 7 does not exist
  EXPECT_EQ(all_to_all_partner(AllToAllOrder::Xor, 5, 4, 6), 1);
}

TEST(AllToAllOrder, PairCountEqualsTheEnumeratedPairsOfEveryWindow) {
  for (const AllToAllOrder order : {AllToAllOrder::Shift, AllToAllOrder::Xor}) {
    for (int p = 1; p <= 70; ++p) {
      const int rounds = all_to_all_round_count(p, order);
      for (int first = 1; first <= rounds + 1; ++first) {
        for (int last = first - 1; last <= rounds + 2; ++last) {
          std::int64_t listed = 0;
          for (int r = first; r <= std::min(last, rounds); ++r) {
            for (NodeId i = 0; i < p; ++i) listed += all_to_all_partner(order, i, r, p) >= 0;
          }
          EXPECT_EQ(all_to_all_pairs(p, order, first, last), listed) << p << " " << first << ".." << last;
        }
      }
      EXPECT_EQ(all_to_all_pairs(p, order, 1, rounds), std::int64_t{p} * (p - 1));
    }
  }
  // Beyond any window an int could list: the count of a whole 16,384-node exchange.
  EXPECT_EQ(all_to_all_pairs(16384, AllToAllOrder::Xor, 1, 1LL << 40), 16384LL * 16383);
  EXPECT_EQ(all_to_all_pairs(4128, AllToAllOrder::Xor, 1, 8191), 4128LL * 4127);
}

}  // namespace
}  // namespace mppnet::core
