// workload/apps/expected_work_test.cpp: the closed-form message counts against the counts of real runs.
#include "workload/apps/expected_work.hpp"

#include <gtest/gtest.h>

#include "workload/apps/apps_test_util.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {
namespace {

// Each application at its defaults and at one larger setting, on 16 and 64 nodes: the estimate counts
// the dominant terms of each program (docs/am.md, "Expected work"), so it is held to 15% of the real
// requests + replies; a term missed or counted twice moves it by far more.
TEST(ExpectedWork, MatchesRealRunsWithin15Percent) {
  AppParams larger;
  larger.alltoall_bytes = 300;
  larger.permutation_bytes = 1000;
  larger.stencil_edge = 16;
  larger.samplesort_keys = 2048;
  larger.radixsort_keys = 2048;
  larger.fft_points = 1 << 16;
  larger.getput_bytes = 4096;
  for (const auto& net : {testing::Net{"mesh4x4", testing::shape("mesh", 4, 2), 16},
                          testing::Net{"fattree4ary3", testing::shape("fat_tree", 4, 3), 64}}) {
    for (const AppParams& params : {AppParams{}, larger}) {
      for (const AppInfo& app : applications()) {
        am::AmParams am;
        am.memory_bytes = 4 << 20;
        const AppResult r = run_application(app, net.topology, testing::router(), am, params, 1, 100000);
        const double real = static_cast<double>(r.totals.requests + r.totals.replies);
        ASSERT_NE(app.expected_messages, nullptr) << app.name;
        const double estimate = app.expected_messages(params, net.nodes, am, CollectivesIn::Software);
        EXPECT_NEAR(estimate / real, 1.0, 0.15)
            << app.name << " on " << net.name << ": estimate " << estimate << ", real " << real;
      }
    }
  }
}

}  // namespace
}  // namespace mppnet::workload::apps
