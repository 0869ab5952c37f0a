// machines/cm1/operations_test.cpp: reads with combining and reply fan-out; the software fetch-and-add.
#include "machines/cm1/operations.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "machines/cm1/config.hpp"
#include "machines/cm1/patterns.hpp"
#include "machines/cm1/run.hpp"

namespace mppnet::machines::cm1::operations_test {
namespace {

MachineParams cube(int dims, int procs_per_chip) {
  MachineParams m;
  m.dims = dims;
  m.procs_per_chip = procs_per_chip;
  return m;
}

RouterParams with_combining(bool on) {
  RouterParams p;
  p.combining = on;
  p.check_invariants = true;
  return p;
}

TEST(Cm1Router, OriginOverrideInjectsAtTheGivenProcessor) {
  // 2-cube, 1 processor per chip: message 3 starts at processor 0 and goes to VP 3, two hops away.
  Router r(cube(2, 1), with_combining(false), 1);
  const std::vector<std::uint32_t> dst = {kNoMessage, kNoMessage, kNoMessage, 3};
  const std::vector<std::uint32_t> origin = {0, 0, 0, 0};
  const RoutingStats st = r.route(dst, origin);
  EXPECT_EQ(st.delivered, 1);
  EXPECT_EQ(st.invariant_violations, 0);
  EXPECT_EQ(r.hops()[3], 2);
}

TEST(Cm1Read, EveryProcessorOfA3CubeReadsVp0) {
  // 8 chips of 1 processor, each reading VP 0. With combining every request folds on its way into one
  // message, so one request arrives at VP 0, and the reply reaches all 8 requesters through the tree.
  const std::vector<std::uint32_t> dst(8, 0);
  const ReadResult on = run_read(cube(3, 1), with_combining(true), 1, dst);
  EXPECT_EQ(on.request.messages, 8);
  EXPECT_EQ(on.request.delivered, 8);
  EXPECT_EQ(on.request.combined, 7);
  EXPECT_EQ(on.arrivals, 1);
  EXPECT_EQ(on.answered, 8);
  EXPECT_EQ(on.reply_messages, 8);
  EXPECT_EQ(on.request.invariant_violations, 0);
  EXPECT_TRUE(on.terminated);
  for (std::uint32_t s = 0; s < 8; ++s) EXPECT_EQ(on.value[s], memory_value(0)) << "requester " << s;

  // Without combining all 8 requests reach VP 0 and it answers each: the same replies.
  const ReadResult off = run_read(cube(3, 1), with_combining(false), 1, dst);
  EXPECT_EQ(off.arrivals, 8);
  EXPECT_EQ(off.reply_rounds, 1);
  EXPECT_EQ(off.answered, 8);
  EXPECT_EQ(off.value, on.value);
  // By hand: in column i every chip with bit i set crosses to its partner and folds into the message
  // there, so after one petit cycle a single message (VP 0's) ejects at chip 0: 1 petit cycle, 7 folds.
  // The tree: 1, 2, 4 folded at chip 0 (depth 1); 3 at chip 2, 5 and 6 at chip 4 (depth 2); 7 at chip 6
  // (depth 3). Reply rounds, one processor injecting one message per petit cycle: VP 0 to itself (1),
  // 3 replies from chip 0 (3), one from chip 2 and two from chip 4 (2), one from chip 6 (1) = 7.
  EXPECT_EQ(on.request.petit_cycles, 1);
  EXPECT_EQ(on.reply_rounds, 4);
  EXPECT_EQ(on.round_petit_cycles, (std::vector<std::int64_t>{1, 3, 2, 1}));
  // Uncombined, the 8 requests queue at chip 0 (measured: 3 petit cycles) and VP 0 injects 8 replies
  // one per petit cycle (8): 11 petit cycles against 8.
  EXPECT_EQ(off.request.petit_cycles, 3);
  EXPECT_EQ(off.reply_petit_cycles, 8);
  EXPECT_LT(on.petit_cycles(), off.petit_cycles());
}

TEST(Cm1Read, AllToOneOn512VpsCombiningCostsFewerPetitCyclesAndGivesTheSameReplies) {
  TrafficParams t;
  t.pattern = Pattern::AllToOne;
  t.target = 5;
  t.vp_ratio = 2;
  const MachineParams m = cube(6, 4);
  const auto dst = make_destinations(m, t, 1);
  const ReadResult on = run_read(m, with_combining(true), 2, dst);
  const ReadResult off = run_read(m, with_combining(false), 2, dst);
  EXPECT_EQ(on.answered, 512);
  EXPECT_EQ(off.answered, 512);
  EXPECT_EQ(on.value, off.value);
  EXPECT_LT(on.arrivals, off.arrivals);
  EXPECT_EQ(off.arrivals, 512);
  EXPECT_LT(on.petit_cycles(), off.petit_cycles());
  EXPECT_EQ(on.request.invariant_violations, 0);
}

TEST(Cm1FetchAndAdd, AllOfA3CubeAddToVp0) {
  // Sorted by target the 8 requests form one segment in VP order (a stable sort of equal keys), so
  // requester s gets M0 + increments of 0..s-1, and VP 0 ends with M0 + all 8 increments.
  const std::vector<std::uint32_t> dst(8, 0);
  const FetchAddResult f = run_fetch_and_add(cube(3, 1), with_combining(true), 1, dst);
  EXPECT_EQ(f.requests, 8);
  EXPECT_EQ(f.targets, 1);
  EXPECT_EQ(f.sort_passes, 3);  // keys 0..7: bit_width(7)
  EXPECT_EQ(f.routing_instructions, 3 + 3);
  EXPECT_EQ(f.scans, 2 * 3 + 2);
  EXPECT_TRUE(f.terminated);
  std::uint64_t prefix = 0;
  for (std::uint32_t s = 0; s < 8; ++s) {
    EXPECT_EQ(f.old_value[s], memory_value(0) + prefix) << "requester " << s;
    prefix += increment_of(s);
  }
  EXPECT_EQ(prefix, 1u + 2 + 3 + 4 + 5 + 1 + 2 + 3);
  EXPECT_EQ(f.final_value[0], memory_value(0) + prefix);
  for (std::uint32_t t = 1; t < 8; ++t) EXPECT_EQ(f.final_value[t], memory_value(t));
  // Every key is 0: no element moves in any pass, and the send to VP 0 comes from position 7.
  EXPECT_EQ(f.sort_petit_cycles, 0);
  EXPECT_GT(f.send_petit_cycles, 0);
}

TEST(Cm1FetchAndAdd, RandomFunctionValuesAreDistinctPrefixSums) {
  TrafficParams t;
  t.pattern = Pattern::RandomFunction;
  t.vp_ratio = 2;
  t.send_fraction = 0.7;
  const MachineParams m = cube(4, 4);
  const auto dst = make_destinations(m, t, 3);
  const FetchAddResult f = run_fetch_and_add(m, RouterParams{}, 2, dst);
  EXPECT_TRUE(f.terminated);
  EXPECT_EQ(f.sort_passes, 8);  // keys 0..128 (128 = no request): bit_width(128)
  std::map<std::uint32_t, std::uint64_t> sum;
  std::map<std::uint32_t, std::set<std::uint64_t>> got;
  std::int64_t requests = 0;
  for (std::uint32_t s = 0; s < dst.size(); ++s) {
    if (dst[s] == kNoMessage) {
      EXPECT_EQ(f.old_value[s], kNoValue);
      continue;
    }
    ++requests;
    sum[dst[s]] += increment_of(s);
    const std::uint64_t v = f.old_value[s];
    EXPECT_GE(v, memory_value(dst[s]));
    EXPECT_LT(v, f.final_value[dst[s]]);
    EXPECT_TRUE(got[dst[s]].insert(v).second) << "value returned twice at target " << dst[s];
  }
  EXPECT_EQ(f.requests, requests);
  EXPECT_EQ(f.targets, static_cast<std::int64_t>(sum.size()));
  for (std::uint32_t x = 0; x < dst.size(); ++x) {
    const auto it = sum.find(x);
    EXPECT_EQ(f.final_value[x], memory_value(x) + (it == sum.end() ? 0 : it->second)) << "VP " << x;
  }
  // At each target the fetched values are old + the prefix sums of one order of its increments: the
  // smallest is the old value and the largest plus its own increment is the final value.
  for (const auto& [target, values] : got) EXPECT_EQ(*values.begin(), memory_value(target));
  for (std::uint32_t s = 0; s < dst.size(); ++s) {
    if (dst[s] != kNoMessage && f.old_value[s] == *got[dst[s]].rbegin()) {
      EXPECT_EQ(f.old_value[s] + increment_of(s), f.final_value[dst[s]]);
    }
  }
}

TEST(Cm1FetchAndAdd, ScanArithmetic) {
  // 4 c d + 2 (v - 1) d: 12 processor-address bits, v = 16, d = 32.
  EXPECT_EQ(scan_bit_times(16, 16, 32), 4 * 16 * 32 + 2 * 15 * 32);
}

TEST(Cm1Operations, ConfigKeyAndResultTable) {
  Cm1Config c = load_cm1_text(
      "[machine]\ndims = 3\nprocs_per_chip = 1\n[cm1]\ncombining = true\n[traffic]\npattern = "
      "\"all_to_one\"\n",
      "t.toml", {"traffic.operation=read"});
  EXPECT_EQ(c.traffic.operation, Operation::Read);
  const RoutingResult r = run_routing(c);
  EXPECT_EQ(r.read.answered, 8);
  EXPECT_EQ(r.total_petit_cycles, r.stats.petit_cycles + r.read.reply_petit_cycles);
  EXPECT_NE(format_result(c, r).find("reply phase"), std::string::npos);
  c.traffic.operation = Operation::FetchAndAdd;
  const RoutingResult f = run_routing(c);
  EXPECT_EQ(f.fetch_add.targets, 1);
  EXPECT_EQ(f.total_petit_cycles, f.fetch_add.petit_cycles());
  EXPECT_NE(format_result(c, f).find("sort, send and scan"), std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::cm1::operations_test
