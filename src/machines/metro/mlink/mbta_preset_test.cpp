// machines/metro/mlink/mbta_preset_test.cpp: configs/mbta-64.toml is the MBTA of DeHon's Ch. 10.
//
// Structure from §10.1 (L2975, Fig 10.1; note 004c §3.1): 64 nodes, log4(64) = 3 stages of radix-4
// routers, ni = no = 2, the final stage in the dilation-1 configuration so that a node's two outputs come
// from two different routers. Performance from §10.2 (L2981-2997; note 004c §3.2 and §8 target 8):
// byte-wide links at 100 MHz (100 MB/s per interface, 6.4 GB/s peak over 64 nodes) and an unloaded
// one-way latency of 70 ns, 3 routers and 4 chip crossings of 10 ns each.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "machines/metro/metro_config.hpp"
#include "machines/metro/mrp/mrp_run.hpp"
#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/validation.hpp"

namespace mppnet::machines::metro {
namespace {

std::string preset_path() {
  const std::string file = __FILE__;
  return file.substr(0, file.rfind("src/machines/metro/")) + "configs/mbta-64.toml";
}

TEST(MbtaPreset, IsTheSixtyFourNodeThreeStageNetworkOfFigure10_1) {
  const MetroConfig c = load_metro(preset_path(), {});
  EXPECT_EQ(c.machine.model, "mbta");
  const Multibutterfly net =
      build_instance(c.metro.multibutterfly, static_cast<std::uint64_t>(c.run.seed), 0);
  EXPECT_EQ(net.nodes, 64);
  EXPECT_EQ(net.stages(), 3);  // log4(64)
  EXPECT_EQ(net.params.radix, 4);
  EXPECT_EQ(net.params.node_inputs, 2);
  EXPECT_EQ(net.params.node_outputs, 2);
  // RN1 parts: stages 1-2 one i = 8, r = 4, d = 2 router per part; the final stage two i = 4, r = 4,
  // d = 1 routers per part (Ch. 8, L2909): 16 parts per stage, 48 in all (note 004c §8 setup).
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(net.stage_first[s + 1] - net.stage_first[s], 16) << "stage " << s + 1;
    EXPECT_EQ(net.inputs_per_router[s], 8);
    EXPECT_EQ(net.copies[s], 2);
  }
  EXPECT_EQ(net.stage_first[3] - net.stage_first[2], 32);
  EXPECT_EQ(net.inputs_per_router[2], 4);
  EXPECT_EQ(net.copies[2], 1);
  EXPECT_EQ(net.packages(), 48);
  // Each node's two outputs come from two different final routers (L2975), and its two inputs enter
  // two different stage-1 routers.
  std::vector<std::set<RouterId>> feeding(64);
  for (RouterId u = net.stage_first[2]; u < net.stage_first[3]; ++u)
    for (int port = 0; port < net.outputs_per_router[2]; ++port)
      feeding[net.out[net.out_first[u] + port]].insert(u);
  for (NodeId x = 0; x < 64; ++x) {
    EXPECT_EQ(feeding[x].size(), 2u) << x;
    EXPECT_NE(net.node_in[x * 2], net.node_in[x * 2 + 1]) << x;
  }
}

TEST(MbtaPreset, HasByteWideLinksAtOneHundredMegahertz) {
  const MetroConfig c = load_metro(preset_path(), {});
  EXPECT_EQ(c.mrp.width, 8);
  EXPECT_EQ(c.mrp.period_ps, 10000);
  // One byte per 10 ns is 100 MB/s per interface; 64 interfaces sending at once, 6.4 GB/s (L2997).
  const double bytes_per_s = c.mrp.width / 8.0 / (static_cast<double>(c.mrp.period_ps) * 1e-12);
  EXPECT_DOUBLE_EQ(bytes_per_s, 100e6);
  EXPECT_DOUBLE_EQ(64 * bytes_per_s, 6.4e9);
}

TEST(MbtaPreset, UnloadedOneWayLatencyIsSeventyNanoseconds) {
  const MetroConfig c = load_metro(preset_path(), {});
  ASSERT_TRUE(mrp::check_mrp_run(c.metro.multibutterfly, c.mrp).empty());
  const mrp::ConnectionRun run = mrp::run_pipelined_turn(static_cast<std::uint64_t>(c.run.seed),
                                                         c.metro.multibutterfly, mrp::router_params(c.mrp));
  ASSERT_FALSE(run.at_destination.empty());
  // The destination reads the ROUTE the source put on its link in cycle 0 in cycle 3 + 4 = 7 (3 routers,
  // 4 chip crossings), 70 ns at the preset's clock.
  const std::int64_t cycles = run.at_destination.front().cycle;
  EXPECT_EQ(cycles * c.mrp.period_ps, 70000);
  // The preset is the network of the registered case that states the thesis's 70 ns: it expects what
  // the preset gives.
  const auto cases = metro_validation_cases();
  const auto v6 = std::find_if(cases.begin(), cases.end(),
                               [](const auto& k) { return k.id == "metro.mrp.v6.mbta_one_way_latency"; });
  ASSERT_NE(v6, cases.end());
  EXPECT_EQ(v6->expected, static_cast<double>(cycles));
  EXPECT_EQ(v6->measure(), static_cast<double>(cycles));
}

TEST(MbtaPreset, MachineNodesChoosesTheStages) {
  // The MBTA is a series of machines (Ch. 10, L2971): machine.nodes = r^S picks S.
  EXPECT_EQ(load_metro(preset_path(), {"machine.nodes=16", "metro.stages=2"}).metro.multibutterfly.stages, 2);
  const std::string text = "[machine]\nmodel = \"mbta\"\nnodes = 256\n[metro]\nradix = 4\n";
  EXPECT_EQ(load_metro_text(text, "t.toml", {}).metro.multibutterfly.stages, 4);
  auto error_of = [&](const std::vector<std::string>& sets) {
    try {
      static_cast<void>(load_metro_text(text, "t.toml", sets));
    } catch (const core::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(
      error_of({"machine.nodes=48"}),
      "--set machine.nodes=48: machine.nodes: 48 nodes is not a power of metro.radix = 4: a multibutterfly "
      "has radix^stages nodes");
  EXPECT_EQ(error_of({"metro.stages=3"}),
            "t.toml:3: machine.nodes: 256 nodes need 4 stages of radix 4, but metro.stages = 3");
}

}  // namespace
}  // namespace mppnet::machines::metro
