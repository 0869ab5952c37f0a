// core/calendar_queue_test.cpp: the calendar queue against std::priority_queue, and FIFO ties.
#include "core/calendar_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "core/rng.hpp"

namespace mppnet::core {
namespace {

TEST(CalendarQueue, EqualTimesPopInInsertionOrder) {
  CalendarQueue<std::uint32_t> q;
  q.push(5, 0);
  q.push(3, 1);
  q.push(5, 2);
  q.push(3, 3);
  q.push(5, 4);
  EXPECT_EQ(q.size(), 5u);
  EXPECT_EQ(q.top_time(), 3);
  EXPECT_EQ(q.top_payload(), 1u);
  std::vector<std::uint32_t> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 3, 0, 2, 4}));
}

TEST(CalendarQueue, FifoTiesSurviveGrowingAndShrinking) {
  // 5000 events at one instant force several doublings; draining forces the halvings. Events pushed at
  // the same time after some pops still come after the earlier ones.
  CalendarQueue<std::uint32_t> q;
  for (std::uint32_t i = 0; i < 5000; ++i) q.push(7, i);
  EXPECT_GT(q.bucket_count(), 2u);
  for (std::uint32_t i = 0; i < 2500; ++i) ASSERT_EQ(q.pop().payload, i);
  for (std::uint32_t i = 5000; i < 6000; ++i) q.push(7, i);
  for (std::uint32_t i = 2500; i < 6000; ++i) {
    const auto e = q.pop();
    ASSERT_EQ(e.time, 7);
    ASSERT_EQ(e.payload, i);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bucket_count(), 2u);
}

TEST(CalendarQueue, NegativeTimesAndPushesBeforeTheCursor) {
  CalendarQueue<std::uint32_t> q;
  q.push(100, 0);
  q.push(200, 1);
  EXPECT_EQ(q.pop().time, 100);
  q.push(-50, 2);  // earlier than anything popped so far
  q.push(-51, 3);
  EXPECT_EQ(q.pop().payload, 3u);
  EXPECT_EQ(q.pop().payload, 2u);
  EXPECT_EQ(q.pop().payload, 1u);
  EXPECT_TRUE(q.empty());
}

TEST(CalendarQueue, ClearEmptiesAndStaysUsable) {
  CalendarQueue<std::uint32_t> q;
  for (std::uint32_t i = 0; i < 100; ++i) q.push(i * 3, i);
  q.clear();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
  q.push(9, 1);
  q.push(4, 2);
  EXPECT_EQ(q.pop().payload, 2u);
  EXPECT_EQ(q.pop().payload, 1u);
}

TEST(CalendarQueue, NonTrivialPayload) {
  CalendarQueue<std::string> q;
  q.push(2, "b");
  q.push(1, "a");
  EXPECT_EQ(q.pop().payload, "a");
  EXPECT_EQ(q.top_payload(), "b");
}

// Reference: a binary heap ordered by (time, sequence).
using Ref = std::tuple<std::int64_t, std::uint64_t, std::uint32_t>;
using RefQueue = std::priority_queue<Ref, std::vector<Ref>, std::greater<>>;

enum class Spread { Dense, Sparse, FarFuture, Bimodal, Unanchored };

// A time for a new event, relative to the last popped time `now` as in a discrete-event simulation.
std::int64_t draw_time(Spread spread, std::int64_t now, RandomStream& rng) {
  const auto below = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng.next_u64() % n); };
  switch (spread) {
    case Spread::Dense:  // many equal times
      return now + below(4);
    case Spread::Sparse:
      return now + below(100'000);
    case Spread::FarFuture:  // mostly near, sometimes 10^12 ahead
      return rng.next_u64() % 10 == 0 ? now + 1'000'000'000'000 + below(1'000'000'000) : now + below(50);
    case Spread::Bimodal:  // Brown's hard case: a burst now and a cloud much later
      return rng.next_u64() % 2 == 0 ? now + below(3) : now + 10'000'000 + below(10'000'000);
    case Spread::Unanchored:  // not monotone at all; includes negative times and pushes before `now`
      return below(2'000'001) - 1'000'000;
  }
  return now;
}

void check_against_heap(Spread spread, std::uint64_t seed) {
  CalendarQueue<std::uint32_t> q;
  RefQueue ref;
  RandomStream rng(seed, static_cast<std::uint64_t>(spread), Stream::Setup);
  std::uint64_t seq = 0;
  std::int64_t now = 0;
  const auto push_one = [&] {
    const std::int64_t t = draw_time(spread, now, rng);
    const auto payload = static_cast<std::uint32_t>(seq);
    q.push(t, payload);
    ref.emplace(t, seq++, payload);
  };
  const auto pop_one = [&] {
    ASSERT_FALSE(ref.empty());
    ASSERT_EQ(q.top_time(), std::get<0>(ref.top()));
    const auto e = q.pop();
    ASSERT_EQ(e.time, std::get<0>(ref.top()));
    ASSERT_EQ(e.payload, std::get<2>(ref.top()));
    now = e.time;
    ref.pop();
  };
  // 100k random operations in three phases: growth (60% pushes), hold (50%), drain (40%).
  for (int i = 0; i < 100'000; ++i) {
    const std::uint64_t push_percent = i < 40'000 ? 60 : i < 70'000 ? 50 : 40;
    if (ref.empty() || rng.next_u64() % 100 < push_percent) {
      push_one();
    } else {
      pop_one();
    }
    ASSERT_EQ(q.size(), ref.size());
  }
  while (!ref.empty()) pop_one();
  EXPECT_TRUE(q.empty());
}

TEST(CalendarQueue, MatchesHeapDense) {
  check_against_heap(Spread::Dense, 1);
}
TEST(CalendarQueue, MatchesHeapSparse) {
  check_against_heap(Spread::Sparse, 2);
}
TEST(CalendarQueue, MatchesHeapFarFuture) {
  check_against_heap(Spread::FarFuture, 3);
}
TEST(CalendarQueue, MatchesHeapBimodal) {
  check_against_heap(Spread::Bimodal, 4);
}
TEST(CalendarQueue, MatchesHeapUnanchored) {
  check_against_heap(Spread::Unanchored, 5);
}

TEST(CalendarQueue, HoldModelKeepsTheRingSized) {
  // Brown's "hold" benchmark: a steady population of 10k events, each pop followed by one push.
  CalendarQueue<std::uint32_t> q;
  RandomStream rng(9, 0, Stream::Setup);
  for (std::uint32_t i = 0; i < 10'000; ++i) q.push(static_cast<std::int64_t>(rng.next_u64() % 1'000'000), i);
  const std::size_t buckets = q.bucket_count();
  EXPECT_GE(buckets, 10'000u / 2);
  EXPECT_LE(buckets, 10'000u);
  for (int i = 0; i < 50'000; ++i) {
    const auto e = q.pop();
    q.push(e.time + static_cast<std::int64_t>(rng.next_u64() % 1'000'000), e.payload);
  }
  EXPECT_EQ(q.size(), 10'000u);
  EXPECT_EQ(q.bucket_count(), buckets);  // a steady population never resizes the ring
}

}  // namespace
}  // namespace mppnet::core
