// app/model_sweep_test.cpp: the pure parts of a sweep over any model (app/sweep_table.hpp): sweep values,
// numeric fields, the 95% interval over seeds against hand-computed values, and the CSV layout.
#include <gtest/gtest.h>

#include <cmath>

#include "app/model_sweep.hpp"
#include "app/sweep_table.hpp"
#include "core/error.hpp"

namespace mppnet::app {
namespace {

using nlohmann::json;

TEST(SweepValues, RangeCountsItsPointsAndWritesShortNumbers) {
  const SweepValues s = parse_sweep_values("traffic.rate=0.1:0.3:0.1");
  EXPECT_EQ(s.key, "traffic.rate");
  EXPECT_EQ(s.values, (std::vector<std::string>{"0.1", "0.2", "0.3"}));
  EXPECT_TRUE(s.numeric);
  EXPECT_EQ(parse_sweep_values("traffic.vp_ratio=1:16:5").values,
            (std::vector<std::string>{"1", "6", "11", "16"}));
}

TEST(SweepValues, ListKeepsWordsAsWritten) {
  const SweepValues s = parse_sweep_values("metro.wiring=deterministic, random,maximal_fanout");
  EXPECT_EQ(s.values, (std::vector<std::string>{"deterministic", "random", "maximal_fanout"}));
  EXPECT_FALSE(s.numeric);
  const SweepValues n = parse_sweep_values("traffic.vp_ratio=1,2");
  EXPECT_EQ(n.values, (std::vector<std::string>{"1", "2"}));
  EXPECT_TRUE(n.numeric);
  EXPECT_EQ(parse_sweep_values("run.words=3").values, std::vector<std::string>{"3"});
}

TEST(SweepValues, RefusesWhatCannotBeAPoint) {
  for (const char* bad : {"traffic.rate", "=1,2", "k=1,,2", "k=1,1", "k=", "k=1:0:1", "k=0:1:0", "k=0:1",
                          "k=0:1e9:1e-9", "k=a/b,a_b"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_sweep_values(bad), core::ConfigError);
  }
  try {
    parse_sweep_values("k=1,1");
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(e.where().file, "--sweep k=1,1");
    EXPECT_EQ(e.key(), "k");
  }
}

TEST(SweepValues, DirectoryNamesKeepOnlyPlainCharacters) {
  EXPECT_EQ(point_directory_name("metro.wiring", "random"), "metro.wiring=random");
  EXPECT_EQ(point_directory_name("traffic.file", "a/b c"), "traffic.file=a_b_c");
}

TEST(NetworkSweepPath, OnlyANetworkRangeWithoutReplicationKeepsIt) {
  EXPECT_TRUE(is_network_sweep(true, "", 0, "", ""));
  EXPECT_TRUE(is_network_sweep(true, "traffic.rate=0.1:0.5:0.1", 0, "", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.rate=0.1,0.5", 0, "", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.rate=0.3", 0, "", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.pattern=uniform,transpose", 0, "", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.rate=0.1:0.5:0.1", 2, "", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.rate=0.1:0.5:0.1", 0, "counter", ""));
  EXPECT_FALSE(is_network_sweep(true, "traffic.rate=0.1:0.5:0.1", 0, "", "yield"));
  EXPECT_FALSE(is_network_sweep(false, "traffic.vp_ratio=1:2:1", 0, "", ""));
}

TEST(NumericFields, FlattensNumbersAndRecordsButNotInputsTextOrCurves) {
  const json result = json::parse(R"({
    "config": {"run": {"seed": 3}}, "seed": 3, "mppnet_version": "0.1.0", "passed": true,
    "time_us": 1.5, "messages": {"requests": 4, "path": "hardware"},
    "p_complete": [1.0, 0.5], "phases": [{"name": "sort", "mean_ps": 7}, {"name": "merge", "mean_ps": 9}],
    "locality": [{"group_nodes": 4}, {"group_nodes": 32}]})");
  const NumericFields f = numeric_fields(result);
  const NumericFields want = {
      {"locality.0.group_nodes", 4}, {"locality.1.group_nodes", 32}, {"messages.requests", 4}, {"passed", 1},
      {"phases.sort.mean_ps", 7},    {"phases.merge.mean_ps", 9},    {"time_us", 1.5}};
  EXPECT_EQ(f, want);
}

// Hand values: t_{0.975,1} = 12.7062 and t_{0.975,4} = 2.7764 (NIST/SEMATECH table 1.3.6.7.2).
TEST(MeanCi95, MatchesStudentTByHand) {
  // {14, 15}: mean 14.5, s = sqrt(0.5) = 0.70711, s / sqrt(2) = 0.5, half width 12.7062 * 0.5.
  const MeanCi two = mean_ci95({14, 15});
  EXPECT_DOUBLE_EQ(*two.mean, 14.5);
  EXPECT_NEAR(*two.ci95, 6.3531, 1e-9);
  // {1..5}: mean 3, s = sqrt(10 / 4) = 1.58114, s / sqrt(5) = 0.70711, half width 2.7764 * 0.70711.
  const MeanCi five = mean_ci95({1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(*five.mean, 3.0);
  EXPECT_NEAR(*five.ci95, 2.7764 * std::sqrt(0.5), 1e-9);
  EXPECT_NEAR(*five.ci95, 1.96321, 1e-5);
}

TEST(MeanCi95, NoIntervalFromOneRunAndZeroWhenRunsAgree) {
  const MeanCi one = mean_ci95({7});
  EXPECT_DOUBLE_EQ(*one.mean, 7);
  EXPECT_FALSE(one.ci95.has_value());
  EXPECT_FALSE(mean_ci95({}).mean.has_value());
  // 0.1 three times: the mean's rounding (0.1 + 0.1 + 0.1) / 3 != 0.1 must not make an interval.
  EXPECT_EQ(*mean_ci95({0.1, 0.1, 0.1}).ci95, 0.0);
}

SweepRun run_of(std::int64_t seed, json result) {
  return {.seed = seed, .status = 0, .dir = "", .result = std::move(result)};
}

TEST(Tabulate, OneRowPerPointWithMeanAndIntervalPerField) {
  const SweepValues sweep{"traffic.vp_ratio", {"1", "2"}, true};
  const std::vector<SweepPointRuns> points = {
      {"1", {run_of(1, {{"petit_cycles", 14}, {"terminated", true}}), run_of(2, {{"petit_cycles", 15}})}},
      {"2",
       {run_of(1, {{"petit_cycles", 27}, {"terminated", true}}),
        run_of(2, {{"petit_cycles", 27}, {"terminated", false}})}}};
  const SweepTables t = tabulate(sweep, points, true);
  EXPECT_EQ(t.fields, (std::vector<std::string>{"petit_cycles", "terminated"}));
  // A field one run lacks: its mean covers the run that has it, and one run gives no interval.
  EXPECT_EQ(t.csv,
            "traffic.vp_ratio,petit_cycles,petit_cycles_ci95,terminated,terminated_ci95\n"
            "1,14.5,6.3531,1,\n"
            "2,27,0,0.5,6.3531\n");
  EXPECT_EQ(t.runs_csv,
            "traffic.vp_ratio,seed,petit_cycles,terminated\n"
            "1,1,14,1\n"
            "1,2,15,\n"
            "2,1,27,1\n"
            "2,2,27,0\n");
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_EQ(t.points[0]["value"], 1.0);
  EXPECT_DOUBLE_EQ(t.points[0]["petit_cycles"].get<double>(), 14.5);
  EXPECT_FALSE(t.points[0].contains("terminated_ci95"));
  EXPECT_EQ(t.points[1]["runs"][1]["seed"], 2);
  EXPECT_EQ(t.points[1]["runs"][1]["result"]["petit_cycles"], 27);
}

TEST(Tabulate, WithoutSeedsNoIntervalColumnsAndWordsStayText) {
  const SweepValues sweep{"metro.wiring", {"deterministic", "random"}, false};
  SweepRun a{.seed = std::nullopt,
             .status = 0,
             .dir = "points/metro.wiring=deterministic",
             .result = {{"expected_faults_tolerated", 8.1}, {"config", {{"run", {{"seed", 1}}}}}}};
  SweepRun b = a;
  b.result["expected_faults_tolerated"] = 5;
  const SweepTables t = tabulate(sweep, {{"deterministic", {a}}, {"random", {b}}}, false);
  EXPECT_EQ(t.csv, "metro.wiring,expected_faults_tolerated\ndeterministic,8.1\nrandom,5\n");
  EXPECT_EQ(t.runs_csv, "metro.wiring,seed,expected_faults_tolerated\ndeterministic,,8.1\nrandom,,5\n");
  EXPECT_EQ(t.points[1]["value"], "random");
  EXPECT_TRUE(t.points[0]["runs"][0]["seed"].is_null());
  EXPECT_FALSE(t.points[0]["runs"][0]["result"].contains("config"));  // recorded once, at the top
}

}  // namespace
}  // namespace mppnet::app
