// workload/apps/apps_test.cpp: every application passes its own check on every network family at two
// sizes, and a run is a function of its seed.
#include <string>

#include <gtest/gtest.h>

#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {
namespace {

struct Net {
  std::string name;
  topo::TopologyParams topology;
};

topo::TopologyParams shape(topo::TopologyKind kind, int k, int n) {
  topo::TopologyParams t;
  t.kind = kind;
  t.k = k;
  t.n = n;
  t.children = 4;
  return t;
}

std::vector<Net> networks() {
  using K = topo::TopologyKind;
  return {{"mesh4x4", shape(K::Mesh, 4, 2)},          {"mesh8x8", shape(K::Mesh, 8, 2)},
          {"torus4x4", shape(K::Torus, 4, 2)},        {"torus6x6", shape(K::Torus, 6, 2)},
          {"hypercube16", shape(K::Hypercube, 2, 4)}, {"hypercube128", shape(K::Hypercube, 2, 7)},
          {"fattree4ary2", shape(K::FatTree, 4, 2)},  {"fattree4ary3", shape(K::FatTree, 4, 3)}};
}

// 4 VCs of 4 flits: 2 per virtual network, which the torus's dateline classes need.
net::RouterParams router() {
  net::RouterParams r;
  r.vcs = 4;
  r.buffer_flits = 4;
  return r;
}

class AppsOnNetworks : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(AppsOnNetworks, SelfCheckPasses) {
  const auto& [app_name, net_index] = GetParam();
  const Net net = networks()[net_index];
  const AppInfo* app = find_application(app_name);
  ASSERT_NE(app, nullptr);
  AppParams params;
  params.alltoall_bytes = 40;  // 3 packets of at most 16 bytes per pair
  params.counter_increments = 5;
  params.counter_home = 3;
  am::AmParams am;
  am.memory_bytes = 1 << 16;
  const AppResult r = run_application(*app, net.topology, router(), am, params, 1, 5000);
  EXPECT_TRUE(r.passed) << net.name << ": " << r.check;
  EXPECT_GT(r.totals.finish_ps, 0);
  const std::int64_t p = r.nodes;
  if (app_name == "alltoall") {
    // 3 store packets for each ordered pair, no replies.
    EXPECT_EQ(r.totals.requests, p * (p - 1) * 3) << net.name;
    EXPECT_EQ(r.totals.replies, 0) << net.name;
  } else {
    EXPECT_EQ(r.totals.requests, p * 5) << net.name;
    EXPECT_EQ(r.totals.replies, p * 5) << net.name;
  }
}

INSTANTIATE_TEST_SUITE_P(All, AppsOnNetworks,
                         ::testing::Combine(::testing::Values("alltoall", "counter"), ::testing::Range(0, 8)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + networks()[std::get<1>(info.param)].name;
                         });

TEST(Apps, SameSeedSameResultOnTheFatTree) {
  const AppInfo* app = find_application("alltoall");
  ASSERT_NE(app, nullptr);
  const auto t = shape(topo::TopologyKind::FatTree, 4, 3);
  const AppResult a = run_application(*app, t, router(), {}, {}, 11, 5000);
  const AppResult b = run_application(*app, t, router(), {}, {}, 11, 5000);
  ASSERT_TRUE(a.passed) << a.check;
  EXPECT_EQ(a.totals.finish_ps, b.totals.finish_ps);
  EXPECT_EQ(a.totals.network_cycles, b.totals.network_cycles);
  EXPECT_EQ(a.totals.flits, b.totals.flits);
}

TEST(Apps, TooLittleMemoryIsReportedWithTheKeys) {
  const AppInfo* app = find_application("alltoall");
  ASSERT_NE(app, nullptr);
  am::AmParams am;
  am.memory_bytes = 1024;
  try {
    run_application(*app, shape(topo::TopologyKind::Mesh, 4, 2), router(), am, {}, 1, 5000);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("am.memory_bytes is 1024"), std::string::npos) << e.what();
  }
}

TEST(Apps, RegistryNamesAreUniqueAndFindable) {
  for (const auto& a : applications()) EXPECT_EQ(find_application(a.name), &a);
  EXPECT_EQ(find_application("nonesuch"), nullptr);
}

}  // namespace
}  // namespace mppnet::workload::apps
