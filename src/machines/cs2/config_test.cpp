// machines/cs2/config_test.cpp: the CS-2 keys, their checks and the configs in configs/.
#include "machines/cs2/config.hpp"

#include <gtest/gtest.h>

#include "core/error_testing.hpp"

namespace mppnet::machines::cs2::config_test {
namespace {

// The message of the ConfigError that loading throws, or "" when it loads.
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { load_cs2_text(text, "t.toml", sets); });
}

TEST(Cs2Config, DefaultsAreTheDocumentsMachine) {
  const Cs2Config c = load_cs2_text("[machine]\nmodel = \"cs2\"\n", "t.toml", {});
  EXPECT_EQ(c.machine.pes, 64);
  EXPECT_EQ(c.machine.layers, 2);
  EXPECT_EQ(c.elite.clock_ps, 14286);
  EXPECT_EQ(c.elite.data_cycles, 7);
  EXPECT_EQ(c.elite.ack_cycles, 5);
  EXPECT_EQ(c.routing.policy, Policy::Dest);
  EXPECT_EQ(layer_shape(c).stages(), 3);
}

TEST(Cs2Config, KeysAreReadAndSetOnTheCommandLine) {
  const Cs2Config c = load_cs2_text("[machine]\nmodel = \"cs2\"\npes = 512\ndoubling = \"back_to_back\"\n",
                                    "t.toml", {"routing.policy=random", "routing.turn=top"});
  EXPECT_EQ(c.machine.doubling, Doubling::BackToBack);
  EXPECT_EQ(c.routing.policy, Policy::Random);
  EXPECT_EQ(c.routing.turn, Turn::Top);
  EXPECT_TRUE(layer_shape(c).back_to_back());
}

TEST(Cs2Config, BadInputNamesFileLineKeyAndReason) {
  EXPECT_EQ(error_of("[machine]\nmodel = \"cs2\"\npes = 1\n").rfind("t.toml:3: machine.pes: ", 0), 0u);
  EXPECT_NE(
      error_of("[machine]\nmodel = \"cs2\"\ndoubling = \"triple\"\n").find("t.toml:3: machine.doubling"),
      std::string::npos);
  EXPECT_NE(error_of("[routing]\npolicy = \"rearranged\"\n").find("routing.policy"), std::string::npos);
  EXPECT_NE(error_of("[elite]\nbufer_bytes = 8\n").find("unknown key"), std::string::npos);
  EXPECT_EQ(
      error_of("[elite]\nwire_cycles = 20\nbuffer_bytes = 40\n"),
      "t.toml:3: elite.buffer_bytes: 40 bytes cannot cover a link's round trip of 2 x elite.wire_cycles "
      "(20) + 8 = 48 bytes");
  EXPECT_EQ(error_of("", {"machine.layers=3"}),
            "--set machine.layers=3: machine.layers: must be between 1 and 2 (got 3)");
}

TEST(Cs2Config, ElanKeysAreReadAndChecked) {
  const Cs2Config c =
      load_cs2_text("[elan]\nsizing = \"fixed\"\nfixed_payload_bytes = 64\n", "t.toml", {"elan.window=3"});
  EXPECT_EQ(c.elan.sizing, Sizing::Fixed);
  EXPECT_EQ(c.elan.fixed_payload_bytes, 64);
  EXPECT_EQ(c.elan.window, 3);
  // The default overhead: the fitted 10-byte header, a 2-byte CRC and an end-of-packet token.
  EXPECT_EQ(Cs2Config{}.elan.overhead_bytes(), 13);
  EXPECT_EQ(error_of("[elan]\nmin_payload_bytes = 128\nmax_payload_bytes = 64\n"),
            "t.toml:3: elan.max_payload_bytes: 64 is below elan.min_payload_bytes (128)");
  EXPECT_EQ(error_of("[elan]\nwindow = 0\n").rfind("t.toml:2: elan.window: ", 0), 0u);
  EXPECT_NE(error_of("[elan]\nsizing = \"adaptive\"\n").find("t.toml:2: elan.sizing"), std::string::npos);
}

TEST(Cs2Config, BroadcastKeysAreReadAndChecked) {
  const Cs2Config c = load_cs2_text(
      "[traffic]\nbroadcast_fraction = 0.25\n[routing]\nbroadcast_tree = "
      "\"any_plane\"\n",
      "t.toml", {});
  EXPECT_DOUBLE_EQ(c.traffic.broadcast_fraction, 0.25);
  EXPECT_EQ(c.routing.broadcast_tree, BroadcastTree::AnyPlane);
  EXPECT_TRUE(wants_broadcasts(c));
  EXPECT_FALSE(wants_broadcasts(Cs2Config{})) << "unicast only unless asked: the fast router stays";
  EXPECT_EQ(Cs2Config{}.routing.broadcast_tree, BroadcastTree::Canonical);
}

TEST(Cs2Config, BadBroadcastFractionIsRejected) {
  EXPECT_EQ(
      error_of("[traffic]\nbroadcast_fraction = 1.5\n").rfind("t.toml:2: traffic.broadcast_fraction: ", 0),
      0u);
  EXPECT_EQ(
      error_of("", {"traffic.broadcast_fraction=-0.1"}).rfind("--set traffic.broadcast_fraction=-0.1: ", 0),
      0u);
}

TEST(Cs2Config, BadBroadcastTreeIsRejected) {
  EXPECT_EQ(
      error_of("[routing]\nbroadcast_tree = \"plane_1\"\n").rfind("t.toml:2: routing.broadcast_tree: ", 0),
      0u);
}

TEST(Cs2Config, BroadcastsNeedOneTree) {
  EXPECT_EQ(
      error_of("[machine]\npes = 512\ndoubling = \"back_to_back\"\n[traffic]\nbroadcast_fraction = 0.1\n")
          .rfind("t.toml:5: traffic.broadcast_fraction: broadcasts need one tree", 0),
      0u);
}

TEST(Cs2Config, BroadcastsExcludeRearrangedTables) {
  EXPECT_NE(error_of("[machine]\npes = 64\n[routing]\nrearranged = true\n[traffic]\npattern = \"shift\"\n"
                     "broadcast_fraction = 0.1\n")
                .find("traffic.broadcast_fraction: rearranged tables carry a permutation"),
            std::string::npos);
}

TEST(Cs2Config, BroadcastsExcludeAFailedLink) {
  EXPECT_NE(error_of("[traffic]\nbroadcast_fraction = 0.1\n[faults]\nfailed_link = [0, 2, 0, 0, 4]\n")
                .find("traffic.broadcast_fraction: broadcasts take the canonical tree"),
            std::string::npos);
}

TEST(Cs2Config, FaultKeysNameLinksThatExist) {
  const Cs2Config c = load_cs2_text(
      "[faults]\nlink = [0, 1, 0, 0, 4]\nbyte_error_rate = 0.01\nfailed_link = [1, 3, 0, 5, 2]\n", "t.toml",
      {});
  EXPECT_EQ(c.faults.link, (std::vector<int>{0, 1, 0, 0, 4}));
  EXPECT_EQ(c.faults.byte_error_rate, 0.01);
  EXPECT_EQ(c.faults.failed_link, (std::vector<int>{1, 3, 0, 5, 2}));
}

// One test per rejection: each names its key and what is wrong.
TEST(Cs2Config, FaultLinkWithTheWrongCountOfNumbers) {
  EXPECT_NE(error_of("[faults]\nlink = [0, 1, 0]\n").find("t.toml:2: faults.link: give [layer, stage"),
            std::string::npos);
}
TEST(Cs2Config, FaultLinkOnALayerThatDoesNotExist) {
  EXPECT_NE(error_of("[faults]\nlink = [2, 1, 0, 0, 4]\n").find("faults.link: no layer 2"),
            std::string::npos);
}
TEST(Cs2Config, FaultLinkAtAStageThatDoesNotExist) {
  // 64 PEs have 3 stages.
  EXPECT_NE(error_of("[faults]\nlink = [0, 4, 0, 0, 4]\n").find("faults.link: no stage 4"),
            std::string::npos);
}
TEST(Cs2Config, FaultLinkOfASwitchThatDoesNotExist) {
  // Stage 1 has one plane and 16 network identifiers (0-15) at 64 PEs.
  EXPECT_NE(error_of("[faults]\nlink = [0, 1, 16, 0, 4]\n").find("faults.link: no switch with network id 16"),
            std::string::npos);
  EXPECT_NE(error_of("[faults]\nlink = [0, 1, 0, 1, 4]\n").find("faults.link: no switch"), std::string::npos);
}
TEST(Cs2Config, FaultLinkOnAPortThatLeadsNowhere) {
  EXPECT_NE(error_of("[faults]\nlink = [0, 1, 0, 0, 8]\n").find("faults.link: port 8"), std::string::npos);
  // 62 PEs: bottom switch 15 holds PEs 60 and 61 on ports 0 and 1; ports 2 and 3 lead nowhere.
  EXPECT_NE(error_of("[machine]\npes = 62\n[faults]\nfailed_link = [0, 1, 15, 0, 3]\n")
                .find("faults.failed_link: port 3 of that switch leads to no switch or PE"),
            std::string::npos);
}
TEST(Cs2Config, ByteErrorRateOutOfRangeOrWithoutALink) {
  EXPECT_EQ(error_of("[faults]\nlink = [0, 1, 0, 0, 4]\nbyte_error_rate = 1.5\n")
                .rfind("t.toml:3: faults.byte_error_rate: ", 0),
            0u);
  EXPECT_EQ(error_of("[faults]\nlink = [0, 1, 0, 0, 4]\nbyte_error_rate = -0.1\n")
                .rfind("t.toml:3: faults.byte_error_rate: ", 0),
            0u);
  EXPECT_NE(error_of("[faults]\nbyte_error_rate = 0.1\n").find("faults.byte_error_rate: 0.1 needs a link"),
            std::string::npos);
}
TEST(Cs2Config, AFailedPeLinkNeedsTheOtherLayer) {
  EXPECT_NE(error_of("[machine]\nlayers = 1\n[faults]\nfailed_link = [0, 1, 0, 0, 2]\n")
                .find("faults.failed_link: it is PE 2's only link"),
            std::string::npos);
}

}  // namespace
}  // namespace mppnet::machines::cs2::config_test
