// app/cylinder_preset_test.cpp: configs/cns1-64.toml, the CNS-1 network, loads as an 8 x 8 cylinder and its
// zero-load latency is the closed form of docs/router.md, exactly per pair and on average under uniform
// traffic at a light load.
//
// Closed form (docs/router.md, "Zero-load latency"): T0 = L + R (P + L) + S - 1 with L = 1 channel
// cycle, P = 1 pipeline cycle, S = 4 flits and R = routers on the dimension-order route = 1 + |dx| +
// min(|dy|, 8 - |dy|) (dimension 1 is the ring). Over the 64 x 63 ordered pairs of distinct nodes of
// uniform traffic: the open dimension's distances sum to 2 x sum_{d=1..7} d (8 - d) = 168 over the 64
// (x, x') pairs, the ring's to 8 x (0+1+2+3+4+3+2+1) = 128 over the (y, y') pairs, each counted 64 times
// over the other coordinate: (168 + 128) x 64 = 18,944 hops over 4,032 pairs, R = 1 + 18944/4032 =
// 5.69841, T0 = 1 + 2 R + 3 = 15.39683 cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "exp/experiment_config.hpp"
#include "exp/open_loop.hpp"
#include "net/built_network.hpp"
#include "topo/k_ary_n_cube.hpp"

namespace mppnet::app {
namespace {

const std::string kPreset = MPPNET_SOURCE_DIR "/configs/cns1-64.toml";
constexpr double kMeanRouters = 1.0 + 18944.0 / 4032.0;
constexpr double kMeanZeroLoad = 1.0 + 2.0 * kMeanRouters + 3.0;

TEST(Cns1Preset, IsAnEightByEightCylinderWithTwoClassesInOrder) {
  const exp::ExperimentConfig c = exp::load_experiment(kPreset, {});
  const topo::KAryNCubeParams p = topo::k_ary_n_cube_params(c.topology);
  EXPECT_EQ(p.k, 8);
  EXPECT_EQ(p.n, 2);
  EXPECT_FALSE(p.torus);
  EXPECT_EQ(p.wrap, (std::vector<int>{1}));
  EXPECT_TRUE(p.path_multicast);
  EXPECT_TRUE(c.router.in_order);
  EXPECT_EQ(c.router.vcs, 4);  // 2 priorities x 2 dateline classes under mppnet app
  EXPECT_EQ(c.traffic.packet_flits, 4);
  EXPECT_EQ(c.router.channel_latency, 1);
  EXPECT_EQ(c.router.pipeline_cycles, 1);
}

TEST(Cns1Preset, EveryPairsZeroLoadLatencyIsTheClosedForm) {
  const exp::ExperimentConfig c = exp::load_experiment(kPreset, {});
  net::BuiltNetwork built(c.topology, c.router, 1);
  net::Network& net = built.flit();
  const int nodes = 64, flits = c.traffic.packet_flits;
  long long sum = 0, pairs = 0;
  for (NodeId s = 0; s < nodes; ++s) {
    for (NodeId d = 0; d < nodes; ++d) {
      if (s == d) continue;
      net.inject(s, d, flits);
      int got = 0;
      for (int t = 0; t < 100 && got == 0; ++t) {
        net.step();
        for (const net::PacketId id : net.delivered()) {
          const net::Packet& p = net.packet(id);
          const int routers =
              1 + std::abs(s % 8 - d % 8) + std::min(std::abs(s / 8 - d / 8), 8 - std::abs(s / 8 - d / 8));
          EXPECT_EQ(p.hops, routers) << s << " -> " << d;
          EXPECT_EQ(p.delivered - p.created, 1 + 2 * routers + flits - 1) << s << " -> " << d;
          sum += p.delivered - p.created;
          ++pairs;
          ++got;
          net.release(id);
        }
      }
      ASSERT_EQ(got, 1) << s << " -> " << d;
      for (int t = 0; t < 4; ++t) net.step();  // the last credits land: the next packet sees an idle network
    }
  }
  EXPECT_DOUBLE_EQ(static_cast<double>(sum) / static_cast<double>(pairs), kMeanZeroLoad);
}

TEST(Cns1Preset, RunsUniformTrafficAtTheZeroLoadLatency) {
  // mppnet run's open loop at a light load (0.01 flits per node per cycle, about 1% of each channel):
  // packets rarely meet, so the mean latency is the closed form at the mean route length measured, and
  // that length is the uniform mean up to sampling noise (thousands of packets; a route's length has a
  // standard deviation of about 2 routers).
  exp::ExperimentConfig c = exp::load_experiment(kPreset, {"traffic.rate=0.01"});
  const exp::OpenLoopResult r = exp::run_open_loop(c);
  ASSERT_FALSE(r.saturated) << r.saturation_reason;
  EXPECT_GT(r.packets_measured, 1000);
  EXPECT_NEAR(r.hops_avg, kMeanRouters, 0.15);
  EXPECT_NEAR(r.latency_avg, 1.0 + 2.0 * r.hops_avg + 3.0, 0.1);
  EXPECT_NEAR(r.latency_avg, kMeanZeroLoad, 0.4);
}

}  // namespace
}  // namespace mppnet::app
