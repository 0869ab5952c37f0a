// exp/results_test.cpp: a journaled point reads back to the result that was run, field for field, so a
// resumed sweep writes the bytes of an uninterrupted one.
#include "exp/results.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace mppnet::exp {
namespace {

// Every field away from its default, doubles that print with many digits.
OpenLoopResult every_field_set() {
  OpenLoopResult r;
  r.mode = "throughput";
  r.offered = 0.1 + 0.2;
  r.saturated = true;
  r.saturation_reason = "latency 1234 over run.saturation_latency";
  r.accepted = 1.0 / 3.0;
  r.accepted_ci95 = 1e-17;
  r.accepted_min_source = 0.25;
  r.accepted_max_source = 0.5;
  r.accepted_per_source = {0.25, 1.0 / 7.0, 0.5};
  r.latency_avg = 123.456789012345678;
  r.latency_p50 = 101;
  r.latency_p99 = 202;
  r.latency_max = 303;
  r.latency_ci95 = std::sqrt(2.0);
  r.last_batch_latency_avg = 541.180909929296;
  r.network_latency_avg = 99.5;
  r.hops_avg = 4.75;
  r.channel_utilization = 0.123;
  r.packets_measured = 40000000000;
  r.batches = 7;
  r.warmup_cycles = 1000;
  r.measure_cycles = 2000;
  r.drain_cycles = 300;
  r.flit_hops = 5000000000;
  r.simulated_cycles = 3300;
  r.node_cycles = 211200;
  r.cycle_ps = 1250;
  return r;
}

TEST(ResultRecord, ReadsBackEveryFieldThroughText) {
  const OpenLoopResult r = every_field_set();
  const nlohmann::json saved = to_record(r);
  EXPECT_EQ(saved.size(), 27u);  // every field of OpenLoopResult
  const OpenLoopResult back = result_from_record(nlohmann::json::parse(saved.dump()));
  EXPECT_EQ(to_record(back), saved);
  // What results.json and results.csv print of it is the same text.
  EXPECT_EQ(to_json(back).dump(2), to_json(r).dump(2));
  EXPECT_EQ(back.accepted, 1.0 / 3.0);
  EXPECT_EQ(back.node_cycles, 211200);
  EXPECT_EQ(back.mode, "throughput");
  EXPECT_EQ(back.accepted_per_source, r.accepted_per_source);
}

TEST(ResultRecord, AMissingFieldIsAnError) {
  nlohmann::json saved = to_record(every_field_set());
  saved.erase("flit_hops");
  EXPECT_THROW(result_from_record(saved), nlohmann::json::out_of_range);
}

}  // namespace
}  // namespace mppnet::exp
