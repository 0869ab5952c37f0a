// workload/apps/apps_test.cpp: every application passes its own check on every network family at two
// sizes, with the message counts its algorithm implies, and a run is a function of its seed.
#include <string>

#include <gtest/gtest.h>

#include "workload/apps/apps_test_util.hpp"
#include "workload/apps/processor_grid.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {
namespace {

using testing::networks;
using testing::router;
using testing::shape;

// Small enough that the whole matrix runs in seconds.
AppParams small_params(int p) {
  AppParams a;
  a.alltoall_bytes = 40;  // 3 packets of at most 16 bytes per pair
  a.counter_increments = 5;
  a.counter_home = 3;
  a.permutation_rounds = 4;
  a.permutation_bytes = 40;  // 3 packets
  a.stencil_edge = 3;        // faces of 24 bytes (2 packets) in 2-D, 72 bytes (5 packets) in 3-D
  a.stencil_iterations = 3;
  a.samplesort_keys = 64;
  a.radixsort_keys = 32;
  a.fft_points = p * p * (p <= 16 ? 4 : 1);
  a.getput_bytes = 64;  // 4 packets
  a.getput_repeats = 2;
  return a;
}

// Faces between grid neighbours, each counted once per direction: along an axis of n nodes there are
// n - 1 neighbour pairs in each of the P / n lines.
std::int64_t directed_faces(const ProcessorGrid& g, int p) {
  std::int64_t faces = 0;
  for (int a = 0; a < g.dims; ++a) faces += 2ll * (g.size[a] - 1) * (p / g.size[a]);
  return faces;
}

class AppsOnNetworks : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(AppsOnNetworks, SelfCheckPassesWithTheAlgorithmsMessageCounts) {
  const auto& [app_name, net_index] = GetParam();
  const testing::Net net = networks()[net_index];
  const AppInfo* app = find_application(app_name);
  ASSERT_NE(app, nullptr);
  const AppParams params = small_params(net.nodes);
  am::AmParams am;
  am.memory_bytes = 1 << 16;
  const AppResult r = run_application(*app, net.topology, router(), am, params, 1, 5000);
  ASSERT_EQ(r.nodes, net.nodes);
  EXPECT_TRUE(r.passed) << net.name << ": " << r.check;
  EXPECT_GT(r.totals.finish_ps, 0);
  const std::int64_t p = r.nodes;
  if (app_name == "alltoall") {
    // 3 store packets for each ordered pair, no replies.
    EXPECT_EQ(r.totals.requests, p * (p - 1) * 3) << net.name;
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  } else if (app_name == "counter") {
    EXPECT_EQ(r.totals.requests, p * 5) << net.name;
    EXPECT_EQ(r.totals.replies, p * 5) << net.name;
  } else if (app_name == "permutation") {
    // Every node sends one block of 3 packets per round to a partner other than itself.
    EXPECT_EQ(r.totals.requests, p * 4 * 3) << net.name;
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  } else if (app_name == "stencil2d" || app_name == "stencil3d") {
    const int dims = app_name == "stencil2d" ? 2 : 3;
    const std::int64_t packets = dims == 2 ? 2 : 5;
    EXPECT_EQ(r.totals.requests, 3 * directed_faces(processor_grid(net.nodes, dims), net.nodes) * packets)
        << net.name;
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  } else if (app_name == "fft") {
    // The transpose: one block of N / P^2 points (16 bytes, one packet each) to every other node.
    EXPECT_EQ(r.totals.requests, p * (p - 1) * (params.fft_points / (p * p))) << net.name;
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  } else if (app_name == "getput") {
    // Replies: the probe's put ack and get data, then one per packet of every put and get (4 each).
    EXPECT_EQ(r.totals.replies, 2 + 2 * p * 2 * 4) << net.name;
  } else {
    // The sorts move keys by one-way messages only.
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  }
}

INSTANTIATE_TEST_SUITE_P(All, AppsOnNetworks,
                         ::testing::Combine(::testing::Values("alltoall", "counter", "permutation",
                                                              "stencil2d", "stencil3d", "samplesort",
                                                              "radixsort", "fft", "getput"),
                                            ::testing::Range(0, 8)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + networks()[std::get<1>(info.param)].name;
                         });

// The xor schedule passes its check with the same messages as the shift schedule on every network,
// the 36-node torus (not a power of two) included.
TEST(AlltoallSchedules, TheXorScheduleSendsEveryBlockOnEveryNetwork) {
  const AppInfo* app = find_application("alltoall");
  ASSERT_NE(app, nullptr);
  for (const testing::Net& net : networks()) {
    AppParams params = small_params(net.nodes);
    params.alltoall_schedule = AlltoallSchedule::Xor;
    am::AmParams am;
    am.memory_bytes = 1 << 16;
    const AppResult r = run_application(*app, net.topology, router(), am, params, 1, 5000);
    EXPECT_TRUE(r.passed) << net.name << ": " << r.check;
    const std::int64_t p = r.nodes;
    EXPECT_EQ(r.totals.requests, p * (p - 1) * 3) << net.name;
  }
}

class AppsDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(AppsDeterminism, SameSeedSameResultOnTheFatTree) {
  const AppInfo* app = find_application(GetParam());
  ASSERT_NE(app, nullptr);
  const auto t = shape("fat_tree", 4, 3);
  const AppParams params = small_params(64);
  const AppResult a = run_application(*app, t, router(), {}, params, 11, 5000);
  const AppResult b = run_application(*app, t, router(), {}, params, 11, 5000);
  ASSERT_TRUE(a.passed) << a.check;
  EXPECT_EQ(a.totals.finish_ps, b.totals.finish_ps);
  EXPECT_EQ(a.totals.network_cycles, b.totals.network_cycles);
  EXPECT_EQ(a.totals.flits, b.totals.flits);
  EXPECT_EQ(a.totals.requests, b.totals.requests);
  EXPECT_EQ(a.metrics, b.metrics);
}

INSTANTIATE_TEST_SUITE_P(Apps, AppsDeterminism,
                         ::testing::Values("alltoall", "permutation", "samplesort", "radixsort"));

// The seed reaches the drawn data: a different seed moves different keys, so the sort's traffic differs.
TEST(Apps, ADifferentSeedSortsDifferentKeys) {
  const AppInfo* app = find_application("samplesort");
  ASSERT_NE(app, nullptr);
  const auto t = shape("mesh", 4, 2);
  const AppResult a = run_application(*app, t, router(), {}, small_params(16), 1, 5000);
  const AppResult b = run_application(*app, t, router(), {}, small_params(16), 2, 5000);
  ASSERT_TRUE(a.passed && b.passed) << a.check << " / " << b.check;
  EXPECT_NE(a.totals.finish_ps, b.totals.finish_ps);
}

TEST(Apps, TooLittleMemoryIsReportedWithTheKeys) {
  const AppInfo* app = find_application("alltoall");
  ASSERT_NE(app, nullptr);
  am::AmParams am;
  am.memory_bytes = 1024;
  try {
    run_application(*app, shape("mesh", 4, 2), router(), am, {}, 1, 5000);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("am.memory_bytes is 1024"), std::string::npos) << e.what();
  }
}

TEST(Apps, FftPointsNotAMultipleOfPSquaredAreRejectedWithAValidValue) {
  const AppInfo* app = find_application("fft");
  ASSERT_NE(app, nullptr);
  AppParams params;
  params.fft_points = 1000;  // 16 nodes: P^2 = 256; the next multiple is 1024, the next power of two too
  const auto error_of = [&] {
    try {
      run_application(*app, shape("mesh", 4, 2), router(), {}, params, 1, 5000);
    } catch (const AppParamError& e) {
      EXPECT_EQ(e.key(), "app.fft_points");
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(),
            "1000 points: the binary exchange needs a power of two of at least P = 16 (try 1024), the "
            "transpose a multiple of P^2 = 256");
  params.fft_algorithm = FftAlgorithm::Transpose;
  EXPECT_EQ(error_of(), "1000 is not a multiple of P^2 = 16 x 16 = 256 (try 1024)");
  params.fft_algorithm = FftAlgorithm::BinaryExchange;
  params.fft_points = 8;
  EXPECT_EQ(error_of(), "8 points: the binary exchange needs a power of two of at least P = 16 (try 16)");
  // 36 nodes: the binary exchange runs on 32 of them.
  params.fft_algorithm = FftAlgorithm::Auto;
  params.fft_points = 1000;
  try {
    run_application(*app, shape("torus", 6, 2), router(), {}, params, 1, 5000);
    ADD_FAILURE() << "no error";
  } catch (const AppParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "1000 points: the binary exchange needs a power of two of at least 32, the nodes of this "
              "machine's 36 that take part (try 1024), the transpose a multiple of P^2 = 1296");
  }
}

TEST(Apps, FftShapesWithALongDirectDftAreRejectedWithAValidValue) {
  const AppInfo* app = find_application("fft");
  ASSERT_NE(app, nullptr);
  AppParams params;
  params.fft_points = 256 * 4099;  // 16 nodes: 16 x 65584, and 65584 = 16 x 4099 (a prime)
  try {
    run_application(*app, shape("mesh", 4, 2), router(), {}, params, 1, 5000);
    FAIL() << "no error";
  } catch (const AppParamError& e) {
    EXPECT_EQ(e.key(), "app.fft_points");
    EXPECT_EQ(std::string(e.what()),
              "1049344 points on 16 nodes split as 16 x 65584: a local transform of length 65584 is not a "
              "power of two and longer than 4096, and its direct O(L^2) DFT would take hours (try 1048576 = "
              "256 x 4096)");
  }
  // 6 x 6 nodes, 1296 x 2^13 points: 2304 x 4608, and 4608 = 2^9 x 9 is too long; 1296 x 2^12 is
  // 2304 x 2304.
  params.fft_points = 1296 << 13;
  try {
    run_application(*app, shape("torus", 6, 2), router(), {}, params, 1, 5000);
    FAIL() << "no error";
  } catch (const AppParamError& e) {
    EXPECT_NE(std::string(e.what()).find("split as 2304 x 4608: a local transform of length 4608"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(try 5308416 = 1296 x 4096)"), std::string::npos) << e.what();
  }
}

TEST(Apps, RegistryNamesAreUniqueAndFindable) {
  for (const auto& a : applications()) EXPECT_EQ(find_application(a.name), &a);
  EXPECT_EQ(find_application("nonesuch"), nullptr);
  EXPECT_EQ(applications().size(), 9u);
}

}  // namespace
}  // namespace mppnet::workload::apps
