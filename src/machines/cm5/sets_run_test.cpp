// machines/cm5/sets_run_test.cpp: `mppnet cm5-sets` runs the sets a size allows, cuts the all-to-all to
// a window of rounds, never beats the load bound (a lower bound), and refuses bad options in one line.
#include "machines/cm5/sets_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/error_testing.hpp"
#include "machines/cm5/message_sets.hpp"
#include "machines/cm5/sets_command.hpp"

namespace mppnet::machines::cm5 {
namespace {

const SetRow& row(const std::vector<SetRow>& rows, const std::string& name) {
  for (const SetRow& r : rows) {
    if (r.set == name) return r;
  }
  throw std::runtime_error("no row " + name);
}

TEST(MessageSetsRun, EverySetOn64NodesWithItsMessageCountsAndNoneUnderTheBound) {
  SetsOptions o;
  o.nodes = 64;
  o.copies = 2;
  const std::vector<SetRow> rows = run_message_sets(o).rows;
  ASSERT_EQ(rows.size(), message_set_names().size());  // 64 = 4^3: every set exists
  for (const SetRow& r : rows) {
    EXPECT_EQ(r.messages, r.set.starts_with("all_to_all") ? 64 * 63 : 64 * 2) << r.set;
    EXPECT_GE(r.completion, r.bound) << r.set;  // the load estimate is a lower bound
    EXPECT_GT(r.bound, 0) << r.set;
    EXPECT_GT(r.busiest_link, 0) << r.set;
  }
}

TEST(MessageSetsRun, AWindowOfRoundsAndTheSetsASizeAllows) {
  SetsOptions o;
  o.nodes = 96;  // neither a power of 2 nor of 4: only random and the all-to-all sets exist
  o.first_round = 90;
  o.rounds = 40;
  const std::vector<SetRow> rows = run_message_sets(o).rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].set, "random");
  // Shift: rounds 90..95 of 95, every node in each. Xor: rounds 90..127, each pair (i, i XOR r) whose
  // partner lies below 96, counted here directly.
  EXPECT_EQ(row(rows, "all_to_all").messages, 6 * 96);
  std::int64_t xor_pairs = 0;
  for (int r = 90; r < 128; ++r) {
    for (int i = 0; i < 96; ++i) xor_pairs += (i ^ r) < 96;
  }
  EXPECT_EQ(row(rows, "all_to_all_xor").messages, xor_pairs);
  // A count to the end of the int range takes the rounds that exist, without overflow.
  o.rounds = std::numeric_limits<int>::max();
  EXPECT_EQ(row(run_message_sets(o).rows, "all_to_all").messages, 6 * 96);
}

// What decides whether an all-to-all fits the host: its real message count. On 4,128 nodes the xor
// order's 8,191 rounds skip every partner beyond the machine, leaving N(N-1) = 17,036,256 messages,
// under the limit (an early bound of N x rounds, 33.8 M, refused it).
TEST(MessageSetsRun, AllToAllSetsAreCountedWithoutBuildingThem) {
  SetsOptions o;
  o.nodes = 4128;
  EXPECT_EQ(all_to_all_messages("all_to_all_xor", o), std::int64_t{4128} * 4127);
  EXPECT_EQ(all_to_all_messages("all_to_all", o), std::int64_t{4128} * 4127);
  EXPECT_LE(all_to_all_messages("all_to_all_xor", o), kMostSetMessages);
  o.nodes = 8192;  // 8,192 x 8,191 = 67,100,672: over the limit
  EXPECT_GT(all_to_all_messages("all_to_all", o), kMostSetMessages);
  o.nodes = 96;
  o.first_round = 90;
  o.rounds = 40;
  EXPECT_EQ(all_to_all_messages("all_to_all_xor", o),
            static_cast<std::int64_t>(all_to_all_rounds(96, AllToAllOrder::Xor, 90, 40).size()));
  EXPECT_EQ(all_to_all_messages("all_to_all", o), 6 * 96);
}

TEST(MessageSetsRun, DeterministicUpLinksFunnelTheSetAcrossTheRoot) {
  // The paper: random up-link choices route such sets much better than a fixed choice (§3, L215-222).
  SetsOptions o;
  o.nodes = 256;
  o.sets = {"across_root"};
  const Cycle random = run_message_sets(o).rows.front().completion;
  o.deterministic = true;
  const Cycle fixed = run_message_sets(o).rows.front().completion;
  EXPECT_GT(fixed, 8 * random);
}

TEST(MessageSetsRun, BadOptionsAreOneLineInputErrors) {
  SetsOptions o;
  o.nodes = 1000;
  EXPECT_EQ(core::config_error_of([&] { run_message_sets(o); }),
            "--nodes: a CM-5 has a multiple of 32 nodes from 32 to 16384 (got 1000)");
  o.nodes = 512;
  o.sets = {"tranpose"};
  EXPECT_EQ(core::config_error_of([&] { run_message_sets(o); }),
            "--sets: unknown message set 'tranpose' (sets: random, transpose, bit_reversal, perfect_shuffle, "
            "across_root, all_to_all, all_to_all_xor)");
  o.sets = {"transpose"};  // 512 is not a power of 4
  EXPECT_EQ(core::config_error_of([&] { run_message_sets(o); }),
            "--sets: transpose needs a number of nodes that is a power of 4 (got 512)");
  o.nodes = 96;
  o.sets = {"all_to_all"};
  o.first_round = 100;  // the xor order has rounds up to 127, the shift order up to 95
  EXPECT_EQ(core::config_error_of([&] { run_message_sets(o); }),
            "--first-round: all_to_all has rounds 1 to 95 on 96 nodes (got 100)");
  o.nodes = 512;
  o.sets = {};
  o.first_round = 512;
  EXPECT_EQ(core::config_error_of([&] { run_message_sets(o); }),
            "--first-round: rounds are numbered 1 to 511 on 512 nodes (got 512)");
  o.first_round = 1;
  o.nodes = 16384;  // the whole all-to-all asked for by name: 16,384 x 16,383 messages
  o.sets = {"all_to_all"};
  EXPECT_EQ(
      core::config_error_of([&] { run_message_sets(o); }),
      "--rounds: all_to_all on 16384 nodes is 268419072 messages, more than the 33554432 one run holds: "
      "take fewer with --rounds, or leave it out with --sets");
  o.sets = {};
  o.nodes = 512;
  o.buffer_nibbles = 20;
  EXPECT_NE(core::config_error_of([&] { run_message_sets(o); }).find("--buffer-nibbles: a chip buffer holds"),
            std::string::npos);
}

TEST(MessageSetsCommand, PrintsTheTableAndWritesItsFiles) {
  CLI::App app;
  const registry::Registry none;
  CLI::App* sub = app.add_subcommand("cm5-sets");
  const std::function<int()> run = sets_command_entry().declare(*sub, none);
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "cm5-sets-test";
  std::filesystem::remove_all(dir);
  app.parse("cm5-sets --nodes 32 --sets random,all_to_all_xor --copies 1 --out " + dir.string(), false);
  testing::internal::CaptureStdout();
  EXPECT_EQ(run(), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("all_to_all_xor"), std::string::npos) << out;
  std::ifstream file(dir / "sets.json");
  const nlohmann::json doc = nlohmann::json::parse(file);
  ASSERT_EQ(doc.at("sets").size(), 2u);
  EXPECT_EQ(doc.at("sets")[1].at("messages"), 32 * 31);
  EXPECT_TRUE(std::filesystem::exists(dir / "sets.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mppnet::machines::cm5
