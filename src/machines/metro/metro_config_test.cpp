// machines/metro/metro_config_test.cpp: loading a METRO study; one test per rejection.
#include "machines/metro/metro_config.hpp"

#include <gtest/gtest.h>

#include "core/error_testing.hpp"

namespace mppnet::machines::metro::metro_config_test {
namespace {

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { load_metro_text(text, "t.toml", sets); });
}

TEST(MetroConfig, EmptyFileGivesTheDefaults) {
  const auto c = load_metro_text("", "t.toml", {});
  EXPECT_EQ(to_json(c), to_json(MetroConfig{}));
  EXPECT_EQ(c.metro.topology, Topology::Multibutterfly);
  EXPECT_EQ(c.metro.multibutterfly.radix, 4);
  EXPECT_EQ(c.metro.multibutterfly.stages, 3);
}

TEST(MetroConfig, FileThenSetsFillTheStudyParams) {
  const auto c = load_metro_text("[metro]\nstages = 4\nwiring = \"random\"\n[run]\nseed = 9\n", "t.toml",
                                 {"run.trials=10000", "faults.unit=router"});
  const auto y = yield_params(c);
  EXPECT_EQ(std::get<MultibutterflyParams>(y.network).stages, 4);
  EXPECT_EQ(std::get<MultibutterflyParams>(y.network).wiring, Wiring::Random);
  EXPECT_EQ(y.trials, 10000);
  EXPECT_EQ(y.seed, 9u);
  EXPECT_EQ(y.unit, FaultUnit::Router);
  EXPECT_EQ(harvest_params(c).trials, 600);
  EXPECT_EQ(c.origin.at("metro.stages").line, 2);
}

// The repository root, from this file's path (the build defines no source-directory macro).
std::string repo_root() {
  const std::string file = __FILE__;
  return file.substr(0, file.rfind("src/machines/metro/"));
}

TEST(MetroConfig, ShippedConfigsLoad) {
  for (const char* f : {"metro-64.toml", "metro-256.toml", "metro-1024.toml", "metro-fattree-64.toml"}) {
    const auto c = load_metro(repo_root() + "configs/" + f, {});
    EXPECT_EQ(c.machine.model, "metro") << f;
  }
}

TEST(MetroConfig, EveryKeyHasADocAndTheTableListsThemAll) {
  const auto keys = metro_key_list();
  EXPECT_EQ(keys.size(), 38u);  // machine 2, metro 13, metro.mrp 13, metro.mlink 2, faults 4, run 4
  for (const auto& k : keys) EXPECT_FALSE(k.doc.empty()) << k.name;
}

TEST(MetroConfig, RejectsUnknownKeyWithSuggestion) {
  EXPECT_EQ(error_of("[metro]\nradixx = 4\n"),
            "t.toml:2: metro.radixx: unknown key (did you mean metro.radix?)");
}

TEST(MetroConfig, RejectsWrongType) {
  EXPECT_NE(error_of("[metro]\nradix = \"four\"\n").find("t.toml:2: metro.radix:"), std::string::npos);
}

TEST(MetroConfig, RejectsValueOutOfRange) {
  EXPECT_NE(error_of("[metro]\ndilation = 0\n").find("t.toml:2: metro.dilation:"), std::string::npos);
}

TEST(MetroConfig, RejectsUnknownWiringName) {
  EXPECT_NE(error_of("[metro]\nwiring = \"rmf\"\n").find("t.toml:2: metro.wiring:"), std::string::npos);
}

TEST(MetroConfig, RejectsNetworkThatCannotBeBuiltAtTheKeyAtFault) {
  EXPECT_EQ(error_of("[metro]\nnode_outputs = 3\nfinal_pairing = \"single\"\n").substr(0, 30),
            "t.toml:2: metro.node_outputs: ");
}

TEST(MetroConfig, ExtraStagesAndFinalDilationReachTheNetwork) {
  const auto c = load_metro_text(
      "[metro]\nnode_inputs = 4\nnode_outputs = 4\nfinal_dilation = 2\nfinal_pairing = \"single\"\n"
      "extra_stages = 1\n",
      "t.toml", {});
  const auto network = std::get<MultibutterflyParams>(yield_params(c).network);
  EXPECT_EQ(network.final_dilation, 2);
  EXPECT_EQ(network.extra_stages, 1);
}

TEST(MetroConfig, RejectsDilatedFinalStageWithPairedPackagesAtThePairingKey) {
  // final_dilation = 2 with the default symmetric pairing: the message names the pairing key.
  const auto e = error_of("[metro]\nnode_inputs = 4\nnode_outputs = 4\nfinal_dilation = 2\n");
  EXPECT_EQ(e.substr(0, 29), "t.toml: metro.final_pairing: ");
  EXPECT_NE(e.find("final_dilation = 2"), std::string::npos) << e;
}

TEST(MetroConfig, RejectsNetworksTooLargeToTrack) {
  EXPECT_EQ(error_of("[metro]\nstages = 7\n").substr(0, 24), "t.toml:2: metro.stages: ");
}

TEST(MetroConfig, TreeTopologyAndItsKeysReachTheNetwork) {
  const auto c = load_metro_text(
      "[metro]\ntopology = \"hybrid_fat_tree\"\nstages = 1\ncluster_stages = 3\nup_directions = 2\n",
      "t.toml", {});
  const MetroNetwork network = yield_params(c).network;
  ASSERT_EQ(topology_of(network), Topology::HybridFatTree);
  const auto& hybrid = std::get<HybridFatTreeParams>(network);
  EXPECT_EQ(hybrid.stages, 1);
  EXPECT_EQ(hybrid.cluster_stages, 3);
  EXPECT_EQ(hybrid.up_directions, 2);
}

// The shared keys reach whichever topology the file names, and the echo shows each key as it was set.
TEST(MetroConfig, SharedKeysReachEveryTopologyAndEchoOnce) {
  // The tree of FatTree.MoreUpDirectionsMeanMoreCapacityAndFewerShortCuts.
  const auto c = load_metro_text(
      "[metro]\ntopology = \"fat_tree\"\nstages = 4\nnode_inputs = 8\nnode_outputs = 8\nfinal_dilation = 2\n"
      "up_directions = 2\n",
      "t.toml", {});
  const YieldParams y = yield_params(c);
  const auto& tree = std::get<MetroFatTreeParams>(y.network);
  EXPECT_EQ(tree.stages, 4);
  EXPECT_EQ(tree.node_inputs, 8);
  EXPECT_EQ(tree.final_dilation, 2);
  EXPECT_EQ(tree.up_directions, 2);
  const auto j = to_json(c);
  EXPECT_EQ(j["metro"]["topology"], "fat_tree");
  EXPECT_EQ(j["metro"]["node_inputs"], 8);
  EXPECT_EQ(j["metro"]["up_directions"], 2);
  EXPECT_EQ(j["metro"]["extra_stages"], 0);
}

// Extra stages and random wirings belong to the multibutterfly; a tree rejects them at their key.
TEST(MetroConfig, RejectsMultibutterflyOnlyKeysOnATree) {
  EXPECT_EQ(error_of("[metro]\ntopology = \"fat_tree\"\nwiring = \"random\"\n").substr(0, 24),
            "t.toml:3: metro.wiring: ");
  EXPECT_EQ(error_of("[metro]\ntopology = \"hybrid_fat_tree\"\nextra_stages = 1\n").substr(0, 30),
            "t.toml:3: metro.extra_stages: ");
}

TEST(MetroConfig, RejectsUnknownTopologyName) {
  EXPECT_NE(error_of("[metro]\ntopology = \"fattree\"\n").find("t.toml:2: metro.topology:"),
            std::string::npos);
}

TEST(MetroConfig, RejectsTreeThatCannotBeBuiltAtTheKeyAtFault) {
  // r = 4 allows at most 3 up directions (one must cross over).
  EXPECT_EQ(error_of("[metro]\ntopology = \"fat_tree\"\nup_directions = 4\n").substr(0, 31),
            "t.toml:3: metro.up_directions: ");
}

TEST(MetroConfig, RejectsHybridTooLargeToTrack) {
  // 3 * 4^(2-1) * 4^4 = 3072 nodes fit; 4^5 * 12 = 12288 do not.
  EXPECT_NO_THROW(load_metro_text("[metro]\ntopology = \"hybrid_fat_tree\"\nstages = 4\n", "t.toml", {}));
  EXPECT_EQ(error_of("[metro]\ntopology = \"hybrid_fat_tree\"\nstages = 5\n").substr(0, 24),
            "t.toml:3: metro.stages: ");
}

TEST(MetroConfig, HarvestOfATreeNamesTheTopologyKey) {
  const auto c = load_metro_text("[metro]\ntopology = \"fat_tree\"\n", "t.toml", {});
  const std::string e = core::config_error_of([&] { harvest_params(c); });
  EXPECT_EQ(e.substr(0, 26), "t.toml:2: metro.topology: ");
}

TEST(MetroConfig, RejectsMoreInstancesThanTrials) {
  EXPECT_EQ(error_of("[run]\ntrials = 5\ninstances = 6\n").substr(0, 25), "t.toml:3: run.instances: ");
}

TEST(MetroConfig, RejectsBadSetArgument) {
  EXPECT_NE(error_of("", {"metro.stages=0"}).find("metro.stages"), std::string::npos);
}

TEST(MetroConfig, RejectsTomlSyntaxWithLine) {
  EXPECT_EQ(error_of("[metro]\nradix = = 4\n").substr(0, 9), "t.toml:2:");
}

TEST(MetroConfig, RejectsUnreadableFile) {
  try {
    load_metro("/nonexistent/metro.toml", {});
    FAIL();
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read the config file"), std::string::npos);
  }
}

}  // namespace
}  // namespace mppnet::machines::metro::metro_config_test
