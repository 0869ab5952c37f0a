// machines/cm1/run_test.cpp: the figures run_routing derives and the table format_result prints.
#include "machines/cm1/run.hpp"

#include <gtest/gtest.h>

#include "machines/cm1/timing.hpp"

namespace mppnet::machines::cm1 {
namespace {

Cm1Config complement_3cube() {
  Cm1Config c;
  c.machine.dims = 3;
  c.machine.procs_per_chip = 2;
  c.traffic.pattern = Pattern::Complement;
  return c;
}

TEST(Cm1Run, FiguresOfTheHandWorked3CubeComplement) {
  // 16 messages, 2 petit cycles, every channel-slot productive (router_test.cpp works it by hand).
  // l = MSGP 1 + CUBE 3 + PROC 1 + VP 0 + DATA 32 + PARITY 1 = 38 >= 2c, so T = p l + 2c = 76 + 6 = 82.
  const auto r = run_routing(complement_3cube());
  EXPECT_EQ(r.message_bits, 38);
  EXPECT_EQ(r.bit_times, 82);
  EXPECT_DOUBLE_EQ(r.wire_utilisation, 1.0);
  EXPECT_DOUBLE_EQ(r.productive_fraction, 1.0);
  // Busy bits: 48 transmissions x 38 bits over 24 channels x 82 bit-times.
  EXPECT_DOUBLE_EQ(r.wire_busy_bits, 48.0 * 38 / (24.0 * 82));
  EXPECT_DOUBLE_EQ(r.messages_per_bit_time, 16.0 / 82);
  EXPECT_DOUBLE_EQ(r.messages_per_second, 16.0 / 82 * 4.0e6);
  EXPECT_DOUBLE_EQ(r.lower_bound, 16.0 / 2 / 8);
  EXPECT_DOUBLE_EQ(r.mean_latency_petit_cycles, 2.0);
}

TEST(Cm1Run, AVpRatioThatIsNotAPowerOfTwoDeliversEveryMessage) {
  // Three VP banks: 3 x 16 = 48 messages on a 3-cube of 2-processor chips. In a complement every message
  // crosses all 3 dimensions, so the 24 channels carry 48 x 3 = 144 crossings: at least 6 per channel,
  // one per petit cycle, hence at least 6 petit cycles. The message carries ceil(log2 3) = 2 VP bits.
  Cm1Config c = complement_3cube();
  c.traffic.vp_ratio = 3;
  c.cm1.check_invariants = true;
  const auto r = run_routing(c);
  EXPECT_EQ(r.stats.messages, 48);
  EXPECT_EQ(r.stats.delivered, 48);
  EXPECT_TRUE(r.stats.terminated);
  EXPECT_EQ(r.stats.invariant_violations, 0);
  EXPECT_GE(r.stats.petit_cycles, 6);
  EXPECT_EQ(r.message_bits, 40);  // 38 + 2 VP bits
}

TEST(Cm1Run, InOrderPipelineOnlyChangesTheTiming) {
  Cm1Config c = complement_3cube();
  c.cm1.pipeline = Pipeline::InOrder;
  const auto r = run_routing(c);
  EXPECT_EQ(r.stats.petit_cycles, 2);
  // Period max(38, (9 + 9) / 2 = 9) = 38, heart 38 + 9: 38 + 47 = 85.
  EXPECT_EQ(r.bit_times, 85);
}

TEST(Cm1Run, ShortMessagesTakeTheOtherBranch) {
  // d = 0 on a 12-cube: l = 1 + 12 + 4 + 0 + 0 + 1 = 18 < 2c = 24, so T = l + 2cp.
  Cm1Config c;
  c.traffic.pattern = Pattern::Complement;
  c.cm1.data_bits = 0;
  const auto r = run_routing(c);
  EXPECT_EQ(r.message_bits, 18);
  EXPECT_EQ(r.bit_times, 18 + 24 * r.stats.petit_cycles);
}

TEST(Cm1Run, TableNamesTheFiguresTheCommandLinePrints) {
  const Cm1Config c = complement_3cube();
  const std::string t = format_result(c, run_routing(c));
  for (const char* row : {"machine", "pattern", "petit cycles", "bit-times", "wire utilisation",
                          "messages per bit-time", "messages per second"})
    EXPECT_NE(t.find(row), std::string::npos) << row;
  EXPECT_NE(t.find("complement, VP ratio 1, seed 1"), std::string::npos);
  EXPECT_NE(t.find("82 (rotating pipeline)"), std::string::npos);
  EXPECT_EQ(t.find("TIMED OUT"), std::string::npos);
}

TEST(Cm1Run, VpSweepAveragesOverSeeds) {
  Cm1Config c;
  c.machine.dims = 6;
  const auto points = vp_sweep(c, {1, 4}, 3);
  ASSERT_EQ(points.size(), 2u);
  double sum = 0;
  for (int s = 1; s <= 3; ++s) {
    c.traffic.vp_ratio = 4;
    c.run.seed = s;
    sum += static_cast<double>(run_routing(c).stats.petit_cycles);
  }
  EXPECT_DOUBLE_EQ(points[1].mean_petit_cycles, sum / 3);
  EXPECT_LE(points[1].min_petit_cycles, points[1].max_petit_cycles);
  EXPECT_DOUBLE_EQ(points[1].lower_bound, 1024.0 * 4 / 2 / 64);  // 8v scaled to 64 chips: 32
  EXPECT_NE(format_vp_sweep(points).find("p/bound"), std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::cm1
