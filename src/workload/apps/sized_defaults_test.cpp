// workload/apps/sized_defaults_test.cpp: defaults fitted to large machines (values derived by hand from
// each application's memory layout), and the time-by-phase report adding up.
#include "workload/apps/sized_defaults.hpp"

#include <numeric>

#include <gtest/gtest.h>

#include "workload/apps/apps_test_util.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {
namespace {

constexpr std::int64_t kMemory = 65536;  // am.memory_bytes' default

TEST(SampleSortMemory, DefaultsOn1024NodesNeedThe84096BytesOfTheError) {
  // 8 x (5 x 256 + 8 + 1024 x 8 + 1024) + 64 = 84,096: the figure `mppnet app samplesort` on
  // configs/cm5_1024.toml reported before its defaults were fitted.
  EXPECT_EQ(samplesort_memory_bytes(1024, 256, 8), 84096u);
}

TEST(FitDefaults, SampleSortOn1024NodesTakesTheMostSamplesThatFit) {
  // 5 samples: 8 x (1280 + 5 + 5120 + 1024) + 64 = 59,496 <= 65,536; 6 samples: 67,696 > 65,536.
  AppParams p;
  const auto changes = fit_defaults("samplesort", p, 1024, kMemory, {});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].key, "app.samplesort_samples");
  EXPECT_EQ(p.samplesort_samples, 5);
  EXPECT_NE(changes[0].reason.find("84096"), std::string::npos) << changes[0].reason;
}

TEST(FitDefaults, FftOn1024NodesTakesPSquaredPoints) {
  // 4096 is not a multiple of 1024^2; 1024^2 splits as 1024 x 1024 (radix 2) and needs
  // 3 x 16 x 1024 + 64 = 49,216 bytes per node.
  AppParams p;
  fit_defaults("fft", p, 1024, kMemory, {});
  EXPECT_EQ(p.fft_points, 1 << 20);
  EXPECT_EQ(fft_memory_bytes(1024, 1 << 20), 49216u);
}

TEST(FitDefaults, AlltoallOn1024NodesAndRadixSortOnAnySize) {
  // alltoall: (65,536 - 16) / (2 x 1024) = 31 bytes, down to whole 8-byte words: 24.
  // radixsort holds only its own counts: 4 bits need 16 x 256 + 8 x 16 + 64 = 4,288 bytes on any P.
  AppParams p;
  fit_defaults("alltoall", p, 1024, kMemory, {});
  EXPECT_TRUE(fit_defaults("radixsort", p, 16384, kMemory, {}).empty());
  EXPECT_EQ(p.alltoall_bytes, 24);
  EXPECT_EQ(p.radixsort_bits, 4);
  EXPECT_EQ(radixsort_memory_bytes(256, 4), 4288u);
}

TEST(FitDefaults, RadixSortWithManyKeysTakesFewerBitsAPass) {
  // 4,090 keys take 16 x 4,090 + 64 = 65,504 bytes; the two tables 8 x 2^b more. 64 KiB holds b = 2
  // (65,536) and not b = 3 (65,568).
  AppParams p;
  p.radixsort_keys = 4090;
  const auto changes = fit_defaults("radixsort", p, 32, kMemory, {"app.radixsort_keys"});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(p.radixsort_bits, 2);
}

TEST(FitDefaults, KeysTheUserSetAreKeptForTheApplicationToRefuse) {
  AppParams p;
  EXPECT_TRUE(fit_defaults("samplesort", p, 1024, kMemory, {"app.samplesort_samples"}).empty());
  EXPECT_TRUE(fit_defaults("fft", p, 1024, kMemory, {"app.fft_points"}).empty());
  EXPECT_EQ(p.samplesort_samples, AppParams{}.samplesort_samples);
  EXPECT_EQ(p.fft_points, AppParams{}.fft_points);
}

TEST(FitDefaults, NothingChangesUpTo64Nodes) {
  // The defaults were chosen for these sizes; results recorded with them must not move.
  for (const AppInfo& app : applications())
    for (const int nodes : {16, 32, 64}) {
      AppParams p;
      EXPECT_TRUE(fit_defaults(app.name, p, nodes, kMemory, {}).empty()) << app.name << " on " << nodes;
    }
}

TEST(FitDefaults, FftBeyond4096NodesTakesTheBinaryExchange) {
  // P^2 = 4097^2 and 8192^2 are above app.fft_points' limit of 2^24: no transpose. On 4,097 nodes the
  // binary exchange runs on 4,096 of them: 4,096 points. On 8,192 nodes the smallest power of two
  // >= 4096 and >= P is 8192 (one point per node), and on 16,384 nodes 16,384.
  EXPECT_EQ(fft_points_at_least(4096, 4097, FftAlgorithm::Auto), 4096);
  EXPECT_EQ(fft_points_at_least(4096, 8192, FftAlgorithm::Transpose), 0);
  EXPECT_EQ(fft_points_at_least(4096, 8192, FftAlgorithm::Auto), 8192);
  EXPECT_EQ(fft_points_at_least(4096, 16384, FftAlgorithm::Auto), 16384);
  EXPECT_EQ(fft_points_at_least(4096, 64, FftAlgorithm::Auto), 4096);
  EXPECT_EQ(fft_points_at_least(4096, 128, FftAlgorithm::Auto), 16384);  // 128^2: a 128 x 128 split
  EXPECT_EQ(fft_points_at_least(4096, 128, FftAlgorithm::BinaryExchange), 4096);
  // 16 bytes x 1 point x (1 + 14 exchanges) + 64.
  EXPECT_EQ(fft_exchange_memory_bytes(16384, 16384), 304u);
  // 36 nodes: 32 take part, 2 points each, 5 exchanges: 16 x 2 x 6 + 64.
  EXPECT_EQ(fft_exchange_memory_bytes(36, 64), 256u);
  AppParams p;
  const auto changes = fit_defaults("fft", p, 16384, kMemory, {});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(p.fft_points, 16384);
  EXPECT_NE(changes[0].reason.find("binary exchange"), std::string::npos) << changes[0].reason;
}

TEST(Phases, TheSlowestNodesPhasesAddUpToItsEndAndSortingIsNotCharged) {
  const auto net = testing::networks()[1];  // mesh8x8
  AppParams params;
  const AppResult r =
      run_application(*find_application("samplesort"), net.topology, testing::router(), {}, params, 1, 5000);
  ASSERT_TRUE(r.passed) << r.check;
  ASSERT_EQ(r.phases.size(), 4u);
  Picoseconds sum = 0;
  for (const PhaseTime& t : r.phases) sum += t.slowest_node_ps;
  EXPECT_EQ(sum, r.ends.slowest_ps);
  EXPECT_LE(r.ends.fastest_ps, r.ends.mean_ps);
  EXPECT_LE(r.ends.mean_ps, r.ends.slowest_ps);
  EXPECT_LE(r.ends.slowest_ps, r.totals.finish_ps);
  EXPECT_GT(r.phases[2].mean_ps, 0);  // the bucket exchange
  // The final local sort calls no compute(): no node spends simulated time in it (docs/am.md).
  EXPECT_EQ(r.phases[3].max_ps, 0);
}

TEST(Phases, ProgressReachesTheSinkWithoutChangingTheResult) {
  const auto net = testing::networks()[1];
  AppParams params;
  int reports = 0;
  const ProgressSink sink = [&reports](const Progress& p) {
    ++reports;
    EXPECT_EQ(p.nodes, 64);
  };
  const AppInfo& app = *find_application("alltoall");
  const AppResult quiet = run_application(app, net.topology, testing::router(), {}, params, 1, 5000);
  const AppResult told = run_application(app, net.topology, testing::router(), {}, params, 1, 5000, sink);
  EXPECT_GT(reports, 0);  // 64 x 63 stores, a report every 4,096 marks and ticks
  EXPECT_EQ(quiet.totals.finish_ps, told.totals.finish_ps);
}

}  // namespace
}  // namespace mppnet::workload::apps
