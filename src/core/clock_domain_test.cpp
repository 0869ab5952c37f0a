// core/clock_domain_test.cpp: conversions are exact for the seed machines' clocks.
#include "core/clock_domain.hpp"

#include <gtest/gtest.h>

namespace mppnet::core {
namespace {

TEST(ClockDomain, Cm5ClocksConvertExactly) {
  const ClockDomain network(25'000);    // 40 MHz data network
  const ClockDomain processor(31'250);  // 32 MHz SPARC
  EXPECT_DOUBLE_EQ(network.mhz(), 40.0);
  EXPECT_DOUBLE_EQ(processor.mhz(), 32.0);
  // 4 processor cycles = 125,000 ps = 5 network cycles exactly (32 x 5 = 40 x 4).
  EXPECT_EQ(processor.to_ps(4), network.to_ps(5));
  EXPECT_EQ(network.cycle_at_or_after(processor.to_ps(4)), 5);
  EXPECT_EQ(network.cycle_at_or_after(processor.to_ps(1)), 2);  // 31,250 ps falls inside cycle 1
  EXPECT_EQ(network.cycle_at_or_after(0), 0);
}

}  // namespace
}  // namespace mppnet::core
