// machines/cm5/open_loop_test.cpp: open-loop patterns on the data network: at light load a message's
// latency from creation is the derived unloaded time, the offer is what the load asks, a load beyond the
// fat tree's capacity is flagged, and a pattern the machine's size cannot carry is refused by its key.
#include "machines/cm5/open_loop.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "io/config_loader.hpp"
#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {
namespace {

OpenLoopResult run(int nodes, TrafficPattern p, double load, std::uint64_t seed = 1) {
  DataNetworkParams params;
  params.nodes = nodes;
  DataNetwork net(params);
  const StreamRun r{.words = 5, .warmup_cycles = 2000, .measure_cycles = 10000, .both_sides = true};
  return run_open_loop(net, open_loop_pattern(p, nodes), load, r, seed);
}

// The bit complement of 1,024 nodes sends every message over the top (LCA height 5): 50 nibbles, 9
// chips, 4 backplane links and 6 cables (data_network_test.cpp derives it), so an unqueued message takes
// 1 + 4 + 12 + 9 x 16 + 49 = 210 cycles from creation. At 1% load a node sends a message every 2,500
// cycles on average: waits are rare, and the mean stays within 2% of that. The offer is 1% of 40 MB/s:
// 4,096 messages expected in the window, so within 5% (over 3 standard deviations of the count).
TEST(OpenLoop, AtLightLoadAMessageTakesTheUnloadedTimeFromCreation) {
  const OpenLoopResult r = run(1024, TrafficPattern::BitComplement, 0.01);
  const DataNetworkParams p;
  const double unloaded = 1 + 4 * 1 + 6 * 2 + 9 * p.route_cycles + (message_nibbles(5, 5) - 1);
  EXPECT_GE(r.latency_avg_cycles, unloaded);
  EXPECT_LE(r.latency_avg_cycles, 1.02 * unloaded);
  EXPECT_NEAR(r.offered_raw_mb_per_s, 0.4, 0.02);
  EXPECT_NEAR(r.accepted_raw_mb_per_s, r.offered_raw_mb_per_s, 0.02 * r.offered_raw_mb_per_s);
  EXPECT_EQ(r.delivered, r.created);
  EXPECT_FALSE(r.saturated);
}

// Above level 2 the tree carries 10 MB/s raw per node (paper L204-L209). Uniform traffic on 256 nodes
// sends 240 of 256 messages out of the sender's group of 16, so the tree takes at most 10 / (240 / 256)
// = 10.7 MB/s per node: an offer of 0.3 x 40 = 12 MB/s must be flagged. The bit complement at 0.2 (8
// MB/s, every message over the top) is within it and is carried whole.
TEST(OpenLoop, AnOfferBeyondTheTreesCapacityIsFlagged) {
  const OpenLoopResult over = run(256, TrafficPattern::Uniform, 0.3);
  EXPECT_TRUE(over.saturated);
  EXPECT_LT(over.accepted_raw_mb_per_s, 10.7);
  const OpenLoopResult within = run(256, TrafficPattern::BitComplement, 0.2);
  EXPECT_FALSE(within.saturated);
  EXPECT_NEAR(within.accepted_raw_mb_per_s, 8.0, 0.4);
}

TEST(OpenLoop, ThePatternsSizeIsCheckedByItsKey) {
  try {
    load_cm5_text("[machine]\nnodes = 32\n[traffic]\npattern = \"transpose\"\n", "t.toml", {});
    FAIL() << "transpose on 32 nodes";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("t.toml:4: traffic.pattern: transpose swaps two halves"),
              std::string::npos)
        << e.what();
  }
  try {
    load_cm5_text("[machine]\nnodes = 96\n[traffic]\npattern = \"bit_reversal\"\n", "t.toml", {});
    FAIL() << "bit reversal on 96 nodes";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bit patterns need a power of 2 nodes; machine.nodes is 96"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mppnet::machines::cm5
