// core/ordered_parallel_test.cpp: pieces finished in any order are consumed in their own order, and a
// failing piece's exception reaches the caller at its turn.
#include "core/ordered_parallel.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mppnet::core {
namespace {

// Early pieces take longest, so with several workers the later ones finish first.
int slow_square(std::size_t i, std::size_t count) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2 * (count - i)));
  return static_cast<int>(i * i);
}

TEST(ForEachOrdered, ConsumesInOrderWhateverTheNumberOfWorkers) {
  constexpr std::size_t kCount = 12;
  for (const int jobs : {1, 2, 5, 64}) {
    std::vector<std::size_t> order;
    std::vector<int> values;
    const auto consumer_thread = std::this_thread::get_id();
    for_each_ordered<int>(
        kCount, jobs, [&](std::size_t i) { return slow_square(i, kCount); },
        [&](std::size_t i, int v) {
          EXPECT_EQ(std::this_thread::get_id(), consumer_thread);
          order.push_back(i);
          values.push_back(v);
        });
    ASSERT_EQ(order.size(), kCount) << jobs << " jobs";
    for (std::size_t i = 0; i < kCount; ++i) {
      EXPECT_EQ(order[i], i) << jobs << " jobs";
      EXPECT_EQ(values[i], static_cast<int>(i * i)) << jobs << " jobs";
    }
  }
}

TEST(ForEachOrdered, RethrowsAPiecesExceptionAfterConsumingThePiecesBeforeIt) {
  for (const int jobs : {1, 3}) {
    std::vector<std::size_t> consumed;
    const auto compute = [](std::size_t i) {
      if (i == 4) throw std::runtime_error("piece 4");
      return static_cast<int>(i);
    };
    EXPECT_THROW(for_each_ordered<int>(10, jobs, compute, [&](std::size_t i, int) { consumed.push_back(i); }),
                 std::runtime_error);
    EXPECT_EQ(consumed, (std::vector<std::size_t>{0, 1, 2, 3})) << jobs << " jobs";
  }
}

TEST(ForEachOrdered, NothingToDoCallsNothing) {
  int calls = 0;
  for_each_ordered<int>(
      0, 4, [&](std::size_t) { return ++calls; }, [&](std::size_t, int) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace mppnet::core
