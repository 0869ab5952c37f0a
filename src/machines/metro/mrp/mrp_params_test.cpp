// machines/metro/mrp/mrp_params_test.cpp: every rejection of check(), one test each.
#include "machines/metro/mrp/mrp_params.hpp"

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

// The last problem of `key` (the MRP checks follow the network's own), or "" when there is none.
std::string problem(const MultibutterflyParams& net, const MrpParams& p, const std::string& key) {
  std::string reason;
  for (const auto& pr : check(net, p))
    if (pr.key == key) reason = pr.reason;
  return reason;
}

TEST(MrpParamsCheck, TheFigure44NetworkIsAccepted) {
  // 16 nodes, r = d = 2, 4 stages (Fig 4.4 = Fig 3.11): 4 fields of 2 bits fill one byte-wide ROUTE word.
  EXPECT_TRUE(check(params(2, 2, 4, Wiring::Deterministic), MrpParams{}).empty());
}

TEST(MrpParamsCheck, WidthNotDividingTheWordIsRejected) {
  MrpParams p;
  p.word_bits = 12;
  EXPECT_EQ(
      problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.word_bits"),
      "router width w = 8 does not divide the word of 12 bits: a cascade is m routers of w bits (Eq 4.3, "
      "w_cascade = m*w)");
}

TEST(MrpParamsCheck, CascadedWidthIsRejectedAsNotModelled) {
  MrpParams p;
  p.word_bits = 16;
  EXPECT_NE(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.word_bits").find("not modelled"),
            std::string::npos);
}

TEST(MrpParamsCheck, DilationAboveRadixIsRejected) {
  auto net = params(2, 4, 3, Wiring::Deterministic);
  EXPECT_EQ(problem(net, MrpParams{}, "metro.dilation"),
            "dilation d = 4 exceeds radix r = 2: an MRP router needs d <= r");
}

TEST(MrpParamsCheck, MoreStagesThanAddressBitsIsRejected) {
  // r = 2: 2-bit fields, so a byte holds 4 stages; 5 would need SWALLOW.
  EXPECT_NE(problem(params(2, 2, 5, Wiring::Deterministic), MrpParams{}, "metro.stages")
                .find("need 10 direction bits"),
            std::string::npos);
}

TEST(MrpParamsCheck, WidthOutsideOneTo32IsRejected) {
  MrpParams p;
  p.width = p.word_bits = 33;
  EXPECT_EQ(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.width"),
            "router width w = 33 is outside 1..32");
}

TEST(MrpParamsCheck, WidthWithoutRoomForTheStatusBitIsRejected) {
  MrpParams p;
  p.width = p.word_bits = 2;
  EXPECT_NE(problem(params(2, 2, 1, Wiring::Deterministic), p, "metro.mrp.width").find("w >= 3 needed"),
            std::string::npos);
}

TEST(MrpParamsCheck, DpsOutsideOneToSixteenIsRejected) {
  MrpParams p;
  p.dps = 0;
  EXPECT_EQ(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.dps"),
            "dps = 0: a word takes 1 to 16 cycles through a router");
  p.dps = 17;
  EXPECT_NE(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.dps"), "");
  p.dps = 2;  // pipelined routers are modelled
  EXPECT_EQ(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.dps"), "");
}

TEST(MrpParamsCheck, PipelinedSetupIsRejectedAsNotModelledAndNegativeHwAsImpossible) {
  MrpParams p;
  p.hw = 1;
  EXPECT_NE(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.hw").find("not modelled"),
            std::string::npos);
  p.hw = -1;
  EXPECT_NE(problem(params(2, 2, 3, Wiring::Deterministic), p, "metro.mrp.hw").find("negative"),
            std::string::npos);
}

TEST(MrpParamsCheck, ExtraStagesAreRejectedAsNotModelled) {
  auto net = params(2, 2, 3, Wiring::Deterministic);
  net.extra_stages = 1;
  EXPECT_NE(problem(net, MrpParams{}, "metro.extra_stages").find("not modelled"), std::string::npos);
}

TEST(MrpParamsCheck, TheNetworksOwnProblemsComeFirst) {
  auto net = params(2, 2, 3, Wiring::Deterministic);
  net.node_inputs = 3;  // ni != no: the multibutterfly's own check refuses it
  const auto problems = check(net, MrpParams{});
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front().reason, metro::check(net).front().reason);
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
