// machines/cm5/software_rates_test.cpp: node programs on the CM-5 model, against what the cost model and
// the links allow.
#include "machines/cm5/software_rates.hpp"

#include <gtest/gtest.h>

#include "machines/cm5/message_format.hpp"
#include "machines/cm5/node_machine.hpp"

namespace mppnet::machines::cm5 {
namespace {

TEST(SoftwareRates, NeighboursOnASmallMachineGoAsFastAsTheSoftwareOrTheLinkAllow) {
  // Each 5-word message costs its sender 3c + 4c and its receiver c + c + 4c processor cycles (c = 3,
  // node_machine.cpp): 39 cycles of 31.25 ns for 16 bytes sent and 16 received, 13.1 MB/s. On one side
  // a node's link carries 20 MB/s raw, of which 32 of each 48-50 nibbles are payload: 12.8 MB/s. The
  // 64-node grid comes close to the software's rate on both sides. On one side it stays under the
  // link's rate but well short of it: half of a node's messages leave its 2 x 2 block, and at the link's
  // rate they would fill the level-1 chip's two parent links exactly (2 x 20 MB/s for 4 nodes x 10), so
  // the lock-step programs lose to contention (54% of the link's rate at the calibrated head latency,
  // 86% with a 3-cycle one): the lower edge guards that regression, no paper claim.
  const am::AmParams am = cm5_am_params();
  const double software = 16.0 / (39 * 0.03125);
  const double link = 20.0 * 32 / message_nibbles(5, 1);
  const SoftwareRate both = software_rate(64, Partners::Grid2d, 200, am, 1);
  EXPECT_LE(both.payload_mb_per_s, software);
  EXPECT_GE(both.payload_mb_per_s, 0.95 * software);
  const SoftwareRate left = software_rate(64, Partners::Grid2d, 200, am, 1, Sides::Left);
  EXPECT_LE(left.payload_mb_per_s, link);
  EXPECT_GE(left.payload_mb_per_s, 0.5 * link);
}

TEST(SoftwareRates, LatencyGrowsWithTheMachine) {
  const am::AmParams am = cm5_am_params();
  const double small = software_latency_us(32, am);
  const double large = software_latency_us(4096, am);
  EXPECT_GT(large, small);
  // The 1-word message: 3c to send, c + c to receive (c = 3 cycles of 31.25 ns), plus the network:
  // at least 5 chips' head latency and 19 nibbles at 25 ns on 32 nodes.
  EXPECT_GT(small, (5 * 3 * 0.03125) + (5 * DataNetworkParams{}.route_cycles + 19) * 0.025);
}

}  // namespace
}  // namespace mppnet::machines::cm5
