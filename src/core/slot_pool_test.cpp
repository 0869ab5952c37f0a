// core/slot_pool_test.cpp: the free list reuses slots last-in first-out and growth keeps every slot.
#include "core/slot_pool.hpp"

#include <gtest/gtest.h>

#include <set>

namespace mppnet::core {
namespace {

struct Record {
  int value = 0;
  std::uint32_t next = 0;
};

TEST(SlotPool, ReusesTheLastReleasedSlotAndCountsLiveOnes) {
  SlotPool<Record> pool;
  const std::uint32_t a = pool.allocate();
  const std::uint32_t b = pool.allocate();
  EXPECT_NE(a, b);
  EXPECT_EQ(pool.live(), 2u);
  EXPECT_EQ(pool[b].next, SlotPool<Record>::kNone);
  pool[a].value = 7;
  pool.release(a);
  EXPECT_EQ(pool.live(), 1u);
  EXPECT_EQ(pool.allocate(), a);  // last in, first out
  EXPECT_EQ(pool[a].value, 7);    // the caller resets what it needs
  EXPECT_EQ(pool[a].next, SlotPool<Record>::kNone);
}

TEST(SlotPool, GrowsByDoublingWithoutLosingOrRepeatingSlots) {
  SlotPool<Record> pool;
  std::set<std::uint32_t> ids;
  for (int k = 0; k < 3000; ++k) ids.insert(pool.allocate());
  EXPECT_EQ(ids.size(), 3000u);
  EXPECT_EQ(*ids.rbegin(), 2999u);    // every index below the count, none twice
  EXPECT_EQ(pool.capacity(), 4096u);  // 1024, 2048, 4096
  EXPECT_EQ(pool.live(), 3000u);
  pool.reserve(5000);
  EXPECT_EQ(pool.capacity(), 8192u);
}

}  // namespace
}  // namespace mppnet::core
