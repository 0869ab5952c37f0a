// machines/metro/mrp/mrp_run_test.cpp: FLAT24 on the MBTA's network under the scheduler, and its keys.
#include "machines/metro/mrp/mrp_run.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error_testing.hpp"
#include "machines/metro/metro_config.hpp"
#include "machines/metro/mrp/mrp_run_command.hpp"

namespace mppnet::machines::metro::mrp::mrp_run_test {
namespace {

// The MBTA: 64 nodes, r = 4, d = 2, 3 stages, ni = no = 2, dps = 2 at 100 MHz; FLAT24 with 20 messages
// per node so that a test runs in well under a second.
MetroConfig mbta(const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {"metro.mrp.dps=2", "metro.mrp.messages=20"};
  sets.insert(sets.end(), more.begin(), more.end());
  return load_metro_text("[metro]\nradix = 4\ndilation = 2\nstages = 3\n", "t.toml", sets);
}

MrpRunResult run(const MetroConfig& c) {
  check_mrp_run(c);
  return run_mrp(c.metro.multibutterfly, c.mrp, static_cast<std::uint64_t>(c.run.seed));
}

TEST(MrpRun, EveryMessageIsDeliveredOnceAndTheFastestTakesTheZeroLoadLatency) {
  const MrpRunResult r = run(mbta());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.stats.created, 64 * 20);
  EXPECT_EQ(r.stats.delivered, 64 * 20);
  EXPECT_EQ(r.stats.accepted, 64 * 20);
  EXPECT_EQ(r.stats.failed, 0);
  EXPECT_EQ(r.stats.duplicates, 0);
  EXPECT_EQ(r.stats.checksum_mismatches, 0);
  // Zero load: the ROUTE and 24 words, TURN, then two one-way trips of T_fwd = 7 cycles (3 routers x 2
  // + 1 wire into the node: 70 ns, §10.2 L2997) and the 2-word ACK: 25 + 14 + 2 = 41.
  EXPECT_EQ(r.latency_min, 41);
  EXPECT_GE(r.mean_latency_cycles, 41.0);
  // Every attempt beyond the first is a retry: attempts = messages * (1 + retries per message).
  EXPECT_DOUBLE_EQ(r.retries_per_message,
                   static_cast<double>(r.stats.attempts - r.stats.delivered) / r.stats.delivered);
  EXPECT_GT(r.io_utilisation, 0.0);
  EXPECT_LT(r.io_utilisation, 1.0);
}

TEST(MrpRun, EveryConnectionIsClosedWhenThePhaseEndsOverManySeeds) {
  // Every attempt, delivered, blocked or back-dropped, ends with a DROP that frees its ports: a port
  // still held at the end would be a connection the endpoints lost track of.
  for (int seed = 1; seed <= 8; ++seed) {
    for (const char* reclaim : {"true", "false"}) {
      const MrpRunResult r =
          run(mbta({"run.seed=" + std::to_string(seed), std::string("metro.mrp.fast_reclaim=") + reclaim,
                    "metro.mrp.messages=10", "metro.mrp.load=0.2"}));
      ASSERT_TRUE(r.completed) << seed << reclaim;
      EXPECT_EQ(r.stats.delivered, 640) << seed << reclaim;
      EXPECT_EQ(r.stats.protocol, 0) << seed << reclaim;
      EXPECT_EQ(r.ports_held, 0) << seed << reclaim;
    }
  }
}

TEST(MrpRun, IoUtilisationIsTheAckedOutputCyclesOverAllOutputCycles) {
  // Each delivered FLAT24 message holds its destination's output from the ROUTE (cycle 7 after it left)
  // to the DROP (2 cycles after the TURN arrived, 25 + 7 + 2): 28 cycles, whatever the contention.
  const MrpRunResult r = run(mbta());
  EXPECT_EQ(r.stats.busy_output_cycles, 28 * r.stats.delivered);
  EXPECT_DOUBLE_EQ(r.io_utilisation, 28.0 * r.stats.delivered / (static_cast<double>(r.cycles) * 64 * 2));
}

TEST(MrpRun, SameSeedGivesIdenticalResultsAndAnotherSeedDoesNot) {
  const MetroConfig c = mbta();
  const std::string a = result_json(c, run(c)).dump(), b = result_json(c, run(c)).dump();
  EXPECT_EQ(a, b);
  const MetroConfig d = mbta({"run.seed=2"});
  EXPECT_NE(result_json(d, run(d))["cycles"], nlohmann::json::parse(a)["cycles"]);
}

TEST(MrpRun, WithoutFastReclaimBlockedAttemptsReturnStatus) {
  const MrpRunResult r = run(mbta({"metro.mrp.fast_reclaim=false"}));
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.stats.delivered, 64 * 20);
  EXPECT_EQ(r.stats.blocked_fast, 0);
  EXPECT_EQ(r.stats.attempts - r.stats.delivered, r.stats.blocked);
}

TEST(MrpRun, MaxCyclesStopsARunThatCannotFinish) {
  const MrpRunResult r = run(mbta({"metro.mrp.max_cycles=100"}));
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.cycles, 100);
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { check_mrp_run(load_metro_text(text, "t.toml", sets)); });
}

TEST(MrpRunKeys, ReadFromAMetroMrpTableAndFromDottedKeys) {
  const MetroConfig a = load_metro_text("[metro.mrp]\nmessage_words = 12\nload = 0.02\n", "t.toml", {});
  EXPECT_EQ(a.mrp.message_words, 12);
  EXPECT_DOUBLE_EQ(a.mrp.load, 0.02);
  EXPECT_EQ(a.origin.at("metro.mrp.load").line, 3);
  const MetroConfig b = load_metro_text("[metro]\nstages = 3\nmrp.dps = 2\n", "t.toml", {});
  EXPECT_EQ(b.mrp.dps, 2);
}

TEST(MrpRunKeys, RefusesUnknownKeyWithFileLineAndSuggestion) {
  EXPECT_EQ(error_of("[metro.mrp]\nmesage_words = 12\n"),
            "t.toml:2: metro.mrp.mesage_words: unknown key (did you mean metro.mrp.message_words?)");
}

TEST(MrpRunKeys, RefusesWrongType) {
  EXPECT_NE(error_of("[metro.mrp]\nfast_reclaim = 3\n").find("t.toml:2: metro.mrp.fast_reclaim:"),
            std::string::npos);
}

TEST(MrpRunKeys, RefusesValueOutOfRange) {
  EXPECT_NE(error_of("[metro.mrp]\nload = 1.5\n").find("t.toml:2: metro.mrp.load:"), std::string::npos);
}

TEST(MrpRunKeys, RefusesMessagesTooShortForTheHeaderAtTheKey) {
  EXPECT_EQ(error_of("[metro.mrp]\nmessage_words = 3\n"),
            "t.toml:2: metro.mrp.message_words: 3 words cannot hold the source id (1 word(s) for 64 nodes), "
            "the sequence number and the 2 check words: at least 4 needed");
}

TEST(MrpRunKeys, RefusesATreeTopology) {
  EXPECT_NE(error_of("[metro]\ntopology = \"fat_tree\"\n")
                .find("metro.topology: MRP traffic runs on "
                      "multibutterflies only"),
            std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp::mrp_run_test
