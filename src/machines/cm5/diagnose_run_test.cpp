// machines/cm5/diagnose_run_test.cpp: the diagnosis end to end on a 1,024-node data network: the chip
// with the stuck-at fault is found, repaired around, and random traffic is all delivered without it.
#include "machines/cm5/diagnose_run.hpp"

#include <gtest/gtest.h>

#include "core/error_testing.hpp"

namespace mppnet::machines::cm5 {
namespace {

TEST(DiagnoseRun, ALevel3ChipIsFoundAndRoutedAround) {
  const FatTreeShape shape(1024, {2, 2, 4});
  const ChipId chip = shape.chip(1, 3, 2, 1);
  const DiagnoseReport r = run_diagnosis({.nodes = 1024, .fault_chip = chip, .stuck = 0, .fault_bit = 17});
  EXPECT_EQ(r.chips_found, std::vector<ChipId>{chip});
  // Level 3's 64 chips a side are boards 192..207 (side 0) and 208..223 (side 1), four chips a board in
  // node order: chip (node 2, index 1) is the 10th of side 1, board 208 + 2, place 1.
  EXPECT_EQ(r.pods_found, std::vector<int>{210});
  // Five level tests; then isolation within the level's subtree of 32 (5 B digits) for offset 18 =
  // 10010: 2 tests a 0 bit, 1 a 1 bit = 8; then 4 chain tests.
  EXPECT_EQ(r.group_tests, 5 + 8);
  EXPECT_EQ(r.isolation_tests, 8);
  EXPECT_EQ(r.chain_tests, 4);
  EXPECT_TRUE(r.routed_around);
  EXPECT_EQ(r.messages_delivered, r.messages_sent);
  EXPECT_EQ(r.through_failed_chip, 0);
}

TEST(DiagnoseRun, ALevel1ChipIsFoundAndItsNodesMappedOut) {
  const FatTreeShape shape(1024, {2, 2, 4});
  const ChipId chip = shape.chip(0, 1, 37, 0);  // nodes 148..151 on side 0
  const DiagnoseReport r = run_diagnosis({.nodes = 1024, .fault_chip = chip, .stuck = 1, .seed = 5});
  EXPECT_EQ(r.chips_found, std::vector<ChipId>{chip});
  EXPECT_FALSE(r.routed_around);
  EXPECT_EQ(r.nodes_mapped_out, 4);
  EXPECT_EQ(r.messages_delivered, r.messages_sent);
  EXPECT_EQ(r.through_failed_chip, 0);
}

TEST(DiagnoseRun, DrawnFaultsAtEveryLevelAreFound) {
  for (int level = 1; level <= 5; ++level)
    for (const std::uint64_t seed : {1u, 2u}) {
      const DiagnoseReport r = run_diagnosis({.nodes = 512,
                                              .fault_level = level,
                                              .stuck = static_cast<int>(seed % 2),
                                              .seed = seed,
                                              .messages = 1000});
      EXPECT_EQ(r.chips_found, std::vector<ChipId>{r.injected}) << level << " " << seed;
      EXPECT_EQ(r.messages_delivered, r.messages_sent);
      EXPECT_EQ(r.through_failed_chip, 0);
    }
}

TEST(DiagnoseRun, BadOptionsNameTheOption) {
  EXPECT_EQ(core::config_error_of([] { run_diagnosis({.nodes = 1000}); }),
            "--nodes: a CM-5 has a multiple of 32 nodes from 32 to 16384 (got 1000)");
  EXPECT_EQ(core::config_error_of([] { run_diagnosis({.nodes = 1024, .fault_chip = 5000}); }),
            "--fault-chip: chip 5000 is not in a 1024-node machine (chips 0 to 1151)");
  EXPECT_EQ(core::config_error_of([] { run_diagnosis({.nodes = 1024, .stuck = 2}); }),
            "--stuck: a stuck-at value is 0 or 1 (got 2)");
  EXPECT_EQ(core::config_error_of([] { run_diagnosis({.nodes = 64, .fault_level = 4}); }),
            "--fault-level: level 4 is not in a 64-node machine (levels 1 to 3, or 0 for any)");
}

}  // namespace
}  // namespace mppnet::machines::cm5
