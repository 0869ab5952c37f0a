// exp/router_pipeline_test.cpp: the per-stage router delays: the shorthand and the stages, head delays,
// speculation and the credit delay.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "exp/experiment_config.hpp"
#include "exp/foundation_validation.hpp"
#include "exp/open_loop.hpp"

namespace mppnet::exp::router_pipeline_test {
namespace {

ExperimentConfig load(const std::string& router) {
  return load_experiment_text("[topology]\nkind = \"mesh\"\nk = 4\nn = 2\n[router]\n" + router, "p.toml", {});
}

TEST(RouterPipeline, PipelineCyclesIsShorthandForSwitchAllocationPlusTraversal) {
  const ExperimentConfig shorthand = load("pipeline_cycles = 3\n");
  EXPECT_EQ(shorthand.router.st_delay, 3);
  EXPECT_EQ(shorthand.router.sw_alloc_delay, 0);
  const ExperimentConfig stages = load("sw_alloc_delay = 1\nst_delay = 2\n");
  EXPECT_EQ(stages.router.pipeline_cycles, 3);
  EXPECT_THROW(load("pipeline_cycles = 3\nst_delay = 2\n"), core::ConfigError);
}

TEST(RouterPipeline, HeadCyclesFollowTheDrawnPipeline) {
  net::RouterParams r;
  r.routing_delay = 1;
  r.vc_alloc_delay = 3;
  r.sw_alloc_delay = 1;
  r.st_delay = 1;
  r.pipeline_cycles = 2;
  EXPECT_EQ(r.head_cycles(), 4);  // routing 1 + VC allocation 3
  EXPECT_EQ(r.hop_cycles(), 7);   // + switch allocation 1 + traversal 1 + channel 1
  r.speculative = true;
  EXPECT_EQ(r.head_cycles(), 3);  // VC allocation overlaps switch allocation: 1 + (3 - 1)
  r.vc_alloc_delay = 1;
  EXPECT_EQ(r.head_cycles(), 1);    // fully hidden
  EXPECT_EQ(r.credit_cycles(), 1);  // 0 means the channel latency
  r.credit_delay = 5;
  EXPECT_EQ(r.credit_cycles(), 5);
}

TEST(RouterPipeline, ZeroLoadLatencyOfEveryPipelineCaseIsExact) {
  for (const PipelineCase& c : pipeline_cases()) {
    if (c.id.find("tree") != std::string::npos) continue;  // the larger ones run in mppnet validate
    EXPECT_EQ(zero_load_max_error(c.config, 4, c.stride * 3), 0) << c.id;
  }
}

TEST(RouterPipeline, ASlowCreditThrottlesAStreamThroughSmallBuffersOnly) {
  // One 32-flit packet across the 4x4 mesh (node 0 to 15). With 2-flit buffers a VC sends at most 2
  // flits per credit round trip, so a credit delay of 6 instead of 1 stretches the packet; with 32-flit
  // buffers the credits never run out and the latency is the zero-load one, L + R H + S - 1 =
  // 1 + 7 * 2 + 31 = 46.
  auto latency = [](int buffer, int credit) {
    ExperimentConfig c = load(fmt::format("buffer_flits = {}\ncredit_delay = {}\n", buffer, credit));
    return ProbeNetwork(c).send(0, 15, 32).latency;
  };
  EXPECT_EQ(latency(32, 1), 46);
  EXPECT_EQ(latency(32, 6), 46);
  EXPECT_GT(latency(2, 6), latency(2, 1) + 31);
}

}  // namespace
}  // namespace mppnet::exp::router_pipeline_test
