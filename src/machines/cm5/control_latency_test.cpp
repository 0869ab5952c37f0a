// machines/cm5/control_latency_test.cpp: the measured unloaded latencies against 2 * height * level delay.
#include "machines/cm5/control_latency.hpp"

#include <gtest/gtest.h>

#include <iostream>

namespace mppnet::machines::cm5 {
namespace {

int ceil_log2(int n) {
  int h = 0;
  while ((1 << h) < n) ++h;
  return h;
}

TEST(ControlLatency, ThirtyTwoLeavesByHand) {
  // Height 5: 10 levels of 13 cycles = 130 cycles = 3.25 µs at 40 MHz.
  const ControlLatency r = control_latency({}, 32);
  EXPECT_EQ(r.height, 5);
  EXPECT_EQ(r.barrier_cycles, 130);
  EXPECT_EQ(r.broadcast_cycles, 130);
  EXPECT_EQ(r.reduce_cycles, 130);
  EXPECT_DOUBLE_EQ(r.barrier_us(), 3.25);
  EXPECT_DOUBLE_EQ(r.broadcast_us(), 3.25);
  EXPECT_DOUBLE_EQ(r.reduce_us(), 3.25);
  // The bit-serial option (note A16): 3 cycles a level, 30 cycles = 0.75 µs.
  const ControlLatency s = control_latency({.level_delay_cycles = 3}, 32);
  EXPECT_EQ(s.barrier_cycles, 30);
  EXPECT_DOUBLE_EQ(s.reduce_us(), 0.75);
}

TEST(ControlLatency, TableIsTwiceHeightLevels) {
  const int delays[] = {13, 3};
  const auto rows = control_latency_table({}, kLatencyLeafCounts, delays);
  ASSERT_EQ(rows.size(), std::size(kLatencyLeafCounts) * std::size(delays));
  std::size_t i = 0;
  for (const int delay : delays) {
    for (const int leaves : kLatencyLeafCounts) {
      const ControlLatency& r = rows[i++];
      SCOPED_TRACE(testing::Message() << leaves << " leaves, " << delay << " cycles a level");
      const int height = ceil_log2(leaves);
      const Cycle want = 2 * static_cast<Cycle>(height) * delay;
      EXPECT_EQ(r.leaves, leaves);
      EXPECT_EQ(r.height, height);
      EXPECT_EQ(r.level_delay_cycles, delay);
      EXPECT_EQ(r.barrier_cycles, want);
      EXPECT_EQ(r.broadcast_cycles, want);
      EXPECT_EQ(r.reduce_cycles, want);
      EXPECT_DOUBLE_EQ(r.barrier_us(), static_cast<double>(want) / 40.0);
      EXPECT_DOUBLE_EQ(r.broadcast_us(), static_cast<double>(want) / 40.0);
      EXPECT_DOUBLE_EQ(r.reduce_us(), static_cast<double>(want) / 40.0);
    }
  }
  // 16,384 leaves: height 14, 28 levels: 364 cycles = 9.1 µs; bit-serial 84 cycles = 2.1 µs.
  EXPECT_EQ(rows[3].reduce_cycles, 364);
  EXPECT_EQ(rows[7].reduce_cycles, 84);
  const std::string table = control_latency_markdown(rows);
  EXPECT_NE(table.find("| 32 | 5 | 13 | 130 cycles = 3.25 µs |"), std::string::npos) << table;
  std::cout << table;
}

}  // namespace
}  // namespace mppnet::machines::cm5
