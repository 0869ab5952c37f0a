// exp/experiment_config_test.cpp: loading experiments: one test per rejection path, exact messages.
#include "exp/experiment_config.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "core/error_testing.hpp"

#include "exp/experiment_keys.hpp"
#include "topo/build.hpp"
#include "topo/fat_tree.hpp"
#include "topo/topology.hpp"

namespace mppnet::exp::experiment_config_test {
namespace {

ExperimentConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_experiment_text(text, "t.toml", sets);
}

// The message of the ConfigError that loading throws, or "" when it loads.
std::string load_error(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { load(text, sets); });
}

// --- Defaults and listing ---

TEST(ExperimentConfig, EmptyFileGivesTheStructDefaults) {
  const ExperimentConfig c = load("");
  EXPECT_EQ(to_json(c), to_json(ExperimentConfig{}));
  EXPECT_TRUE(c.origin.empty());
  EXPECT_EQ(c.source_file, "t.toml");
}

TEST(ExperimentConfig, ToJsonHasEveryKeyGroupedBySection) {
  const nlohmann::json j = to_json(ExperimentConfig{});
  std::size_t keys = 0;
  for (const auto& [section, table] : j.items()) keys += table.size();
  EXPECT_EQ(keys, experiment_key_list().size());
  EXPECT_EQ(j["topology"]["kind"], "fat_tree");
  EXPECT_EQ(j["router"]["vcs"], 4);
  EXPECT_EQ(j["traffic"]["rate"], 0.1);
  EXPECT_EQ(j["traffic"]["hotspot_nodes"], nlohmann::json::array({0}));
  EXPECT_EQ(j["machine"]["preset"], "generic");
}

TEST(ExperimentConfig, EveryParamsFieldIsDeclared) {
  // machine 2, topology 16, router 20 (+ network.model, its 21st field), traffic 11, run 16, sweep 5
  // fields (the params structs).
  const nlohmann::json j = to_json(ExperimentConfig{});
  EXPECT_EQ(j["machine"].size(), 2u);
  EXPECT_EQ(j["topology"].size(), 16u);
  EXPECT_EQ(j["router"].size(), 20u);
  EXPECT_EQ(j["traffic"].size(), 11u);
  EXPECT_EQ(j["run"].size(), 16u);
  EXPECT_EQ(j["sweep"].size(), 5u);
  EXPECT_EQ(j["network"].size(), 1u);
  EXPECT_EQ(j.size(), 7u);
}

TEST(ExperimentConfig, MarkdownListsEveryKeyExactlyOnce) {
  const auto keys = experiment_key_list();
  const std::string md = io::render_markdown(keys);
  std::size_t rows = 0;
  for (std::size_t at = md.find("\n| `"); at != std::string::npos; at = md.find("\n| `", at + 1)) ++rows;
  EXPECT_EQ(rows, keys.size());
  for (const auto& k : keys) {
    const std::string cell = "| `" + k.name + "` |";
    const auto first = md.find(cell);
    ASSERT_NE(first, std::string::npos) << k.name;
    EXPECT_EQ(md.find(cell, first + 1), std::string::npos) << k.name;
    EXPECT_FALSE(k.doc.empty()) << k.name;
  }
}

TEST(ExperimentConfig, KeyListShowsDefaultsAndRanges) {
  const auto keys = experiment_key_list();
  const auto find = [&](const std::string& name) {
    for (const auto& k : keys)
      if (k.name == name) return k;
    return io::KeyInfo{};
  };
  EXPECT_EQ(find("topology.kind").range, "cmesh, dragonfly, fat_tree, hypercube, mesh, torus");
  EXPECT_EQ(find("topology.kind").default_value, "\"fat_tree\"");
  EXPECT_EQ(find("router.eject_flits_per_cycle").range, "[1.52587890625e-05, 1]");  // 1/65536: 16.16 tokens
  EXPECT_EQ(find("router.eject_flits_per_cycle").default_value, "1.0");
  EXPECT_EQ(find("topology.parents").range, "each 1..8");  // topo::kMaxParents
  EXPECT_EQ(find("router.vc_allocator").range, "auto, input_first, output_first, wavefront");
  EXPECT_EQ(find("router.vc_allocator").default_value, "\"auto\"");
  EXPECT_EQ(find("router.vc_choice").range, "lowest_free, round_robin, random");
  EXPECT_EQ(find("router.vc_choice").default_value, "\"lowest_free\"");
  EXPECT_EQ(find("machine.preset").range, "generic, cm5");
  EXPECT_EQ(find("traffic.pattern").range,
            "uniform, random_permutation, bit_complement, bit_reverse, transpose, shuffle, tornado, "
            "neighbor, hot_spot");
}

TEST(ExperimentConfig, TopologyKindNamesAreTheRegisteredTopologies) {
  const auto& keys = experiment_keys().keys();
  const auto& choices = keys.specs()[*keys.find("topology.kind")].check.choices;
  std::vector<std::string> registered;
  for (const topo::TopologyInfo* t : topo::topologies()) registered.push_back(t->name);
  EXPECT_EQ(choices, registered);
  // Each topology's keys are in the table, once.
  for (const char* key : {"topology.k", "topology.dateline", "topology.children", "topology.dragonfly_h"})
    EXPECT_TRUE(keys.find(key).has_value()) << key;
}

TEST(ExperimentConfig, AKeyTheTopologyDoesNotReadIsAnErrorAtItsLine) {
  EXPECT_EQ(load_error("[topology]\nkind = \"mesh\"\nk = 4\nchildren = 4\n"),
            "t.toml:4: topology.children: a mesh has no key children; its keys: k, n, wrap, dateline, "
            "path_multicast");
}

// --- Unknown keys and sections ---

TEST(ExperimentConfig, UnknownKeySuggestsDeclaredKey) {
  EXPECT_EQ(load_error("[router]\nvsc = 4\n"),
            "t.toml:2: router.vsc: unknown key (did you mean router.vcs?)");
}

TEST(ExperimentConfig, UnknownSectionSuggestsDeclaredSection) {
  EXPECT_EQ(load_error("[routr]\nvcs = 4\n"), "t.toml:1: unknown section [routr] (did you mean [router]?)");
}

// --- Wrong types ---

TEST(ExperimentConfig, StringForInt) {
  EXPECT_EQ(load_error("[router]\nvcs = \"4\"\n"),
            "t.toml:2: router.vcs: expected an integer, got a string \"4\"");
}

TEST(ExperimentConfig, FloatForInt) {
  EXPECT_EQ(load_error("[router]\nvcs = 2.0\n"),
            "t.toml:2: router.vcs: expected an integer, got a floating-point number 2.0");
}

TEST(ExperimentConfig, BoolForInt) {
  EXPECT_EQ(load_error("[router]\nvcs = false\n"),
            "t.toml:2: router.vcs: expected an integer, got a boolean false");
}

TEST(ExperimentConfig, StringForDouble) {
  EXPECT_EQ(load_error("[traffic]\nrate = \"0.3\"\n"),
            "t.toml:2: traffic.rate: expected a number, got a string \"0.3\"");
}

TEST(ExperimentConfig, IntForEnum) {
  EXPECT_EQ(load_error("[router]\nswitching = 1\n"),
            "t.toml:2: router.switching: expected a string (one of: wormhole, virtual_cut_through, "
            "store_and_forward), got an integer 1");
}

TEST(ExperimentConfig, IntForString) {
  EXPECT_EQ(load_error("[sweep]\nkey = 5\n"), "t.toml:2: sweep.key: expected a string, got an integer 5");
}

TEST(ExperimentConfig, NonListForList) {
  EXPECT_EQ(load_error("[topology]\nparents = 2\n"),
            "t.toml:2: topology.parents: expected a list of integers, got an integer 2");
}

TEST(ExperimentConfig, WrongElementTypeNamesTheIndex) {
  EXPECT_EQ(load_error("[traffic]\npacket_weights = [1, \"a\"]\n"),
            "t.toml:2: traffic.packet_weights[1]: expected a number, got a string \"a\"");
}

// --- Out of range ---

TEST(ExperimentConfig, IntOutOfRange) {
  EXPECT_EQ(load_error("[router]\nvcs = 0\n"), "t.toml:2: router.vcs: must be between 1 and 64 (got 0)");
}

TEST(ExperimentConfig, DoubleOutOfRange) {
  EXPECT_EQ(load_error("[traffic]\nrate = 1.5\n"),
            "t.toml:2: traffic.rate: must be greater than 0 and at most 1 (got 1.5)");
}

TEST(ExperimentConfig, ListElementOutOfRange) {
  EXPECT_EQ(load_error("[topology]\nparents = [2, 2, 65]\n"),
            "t.toml:2: topology.parents[2]: must be between 1 and 8 (got 65)");
}

TEST(ExperimentConfig, SeedIsAnyNonNegativeInt64) {
  EXPECT_EQ(load("[run]\nseed = 9000000000\n").run.seed, 9000000000);
  EXPECT_EQ(load_error("[run]\nseed = -1\n"), "t.toml:2: run.seed: must be at least 0 (got -1)");
}

TEST(ExperimentConfig, UnknownEnumValueListsChoices) {
  EXPECT_EQ(load_error("[topology]\nkind = \"dorr\"\n"),
            "t.toml:2: topology.kind: unknown value \"dorr\"; expected one of: cmesh, dragonfly, fat_tree, "
            "hypercube, mesh, "
            "torus");
}

// An arbiter per output VC belongs to the separable VC allocators; the wavefront has one diagonal.
TEST(ExperimentConfig, VcArbiterPerOutputVcNeedsASeparableVcAllocator) {
  EXPECT_EQ(load("[router]\nvc_arbiter = \"per_output_vc\"\n").router.vc_arbiter,
            net::VcArbiter::PerOutputVc);
  EXPECT_EQ(load("").router.vc_arbiter, net::VcArbiter::PerRouter);
  EXPECT_EQ(load_error("[router]\nvc_allocator = \"wavefront\"\nvc_arbiter = \"per_output_vc\"\n"),
            "t.toml:3: router.vc_arbiter: per_output_vc needs a separable VC allocator (input_first or "
            "output_first); wavefront has one priority diagonal");
}

TEST(ExperimentConfig, VcAllocatorAndVcChoiceReadIntoRouterParams) {
  const ExperimentConfig c = load("[router]\nvc_allocator = \"wavefront\"\nvc_choice = \"round_robin\"\n");
  EXPECT_EQ(c.router.vc_allocator, net::VcAllocatorKind::Wavefront);
  EXPECT_EQ(c.router.vc_choice, net::VcChoice::RoundRobin);
  // Auto follows the switch allocator's kind.
  const ExperimentConfig a = load("[router]\nallocator = \"output_first\"\n");
  EXPECT_EQ(a.router.vc_allocator_kind(), net::VcAllocatorKind::OutputFirst);
  EXPECT_EQ(
      load_error("[router]\nvc_choice = \"lowest\"\n"),
      "t.toml:2: router.vc_choice: unknown value \"lowest\"; expected one of: lowest_free, round_robin, "
      "random");
}

TEST(ExperimentConfig, UnknownPresetListsPresets) {
  EXPECT_EQ(load_error("[machine]\npreset = \"cm6\"\n"),
            "t.toml:2: machine.preset: unknown value \"cm6\"; expected one of: generic, cm5");
}

// --- Files ---

TEST(ExperimentConfig, TomlSyntaxErrorNamesTheLine) {
  EXPECT_EQ(load_error("[router]\nvcs = 4\nbuffer_flits = = 4\n"),
            "t.toml:3: Error while parsing value: could not determine value type");
}

TEST(ExperimentConfig, KeyGivenTwiceIsATomlError) {
  EXPECT_EQ(load_error("[router]\nvcs = 4\nvcs = 5\n"),
            "t.toml:3: Error while parsing key-value pair: cannot redefine existing integer 'vcs'");
}

TEST(ExperimentConfig, UnreadableFileSaysWhy) {
  try {
    load_experiment("/nonexistent/mppnet/x.toml", {});
    FAIL() << "expected a ConfigError";
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/mppnet/x.toml: cannot read the config file: No such file or directory");
  }
}

// --- --set ---

TEST(ExperimentConfig, SetUnknownKey) {
  EXPECT_EQ(load_error("", {"router.vsc=4"}),
            "--set router.vsc=4: router.vsc: unknown key (did you mean router.vcs?)");
}

TEST(ExperimentConfig, SetBadValue) {
  EXPECT_EQ(load_error("", {"traffic.rate=0"}),
            "--set traffic.rate=0: traffic.rate: must be greater than 0 and at most 1 (got 0)");
  EXPECT_EQ(load_error("", {"router.vcs=2.5"}),
            "--set router.vcs=2.5: router.vcs: expected an integer, got a floating-point number 2.5");
}

TEST(ExperimentConfig, SetList) {
  const auto c = load("", {"topology.parents=[2,2,4]", "traffic.rate=0.3"});
  EXPECT_EQ(topo::fat_tree_params(c.topology).parents, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(c.traffic.rate, 0.3);
}

TEST(ExperimentConfig, SetBareWordAndQuotedEnum) {
  EXPECT_EQ(load("", {"topology.kind=torus"}).topology.kind, "torus");
  EXPECT_EQ(load("", {"topology.kind=\"mesh\""}).topology.kind, "mesh");
  EXPECT_EQ(load("", {"router.switching=store_and_forward"}).router.switching,
            net::Switching::StoreAndForward);
}

TEST(ExperimentConfig, SetOverridesFileInOrder) {
  const auto c = load("[router]\nvcs = 2\n", {"router.vcs=8", "router.vcs=6"});
  EXPECT_EQ(c.router.vcs, 6);
  EXPECT_EQ(c.origin.at("router.vcs").file, "--set router.vcs=6");
  EXPECT_EQ(c.origin.at("router.vcs").line, 0);
}

// --- Presets and origins ---

TEST(ExperimentConfig, PresetIsAppliedBeforeTheFileKeysWhateverTheirOrder) {
  // [machine] comes last in the file, yet the file's parents override the preset's [2, 2, 4].
  const auto c = load("[topology]\nparents = [2, 2, 2]\n[machine]\npreset = \"cm5\"\n");
  const topo::FatTreeParams tree = topo::fat_tree_params(c.topology);
  EXPECT_EQ(tree.parents, (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(tree.leaf_links, 2);  // from the preset
  EXPECT_EQ(tree.children, 4);
  EXPECT_EQ(c.topology.kind, "fat_tree");
  EXPECT_EQ(c.origin.at("topology.parents").line, 2);
  EXPECT_EQ(c.origin.at("topology.leaf_links").line, 4);  // the line of preset = "cm5"
  EXPECT_EQ(c.origin.at("machine.preset").line, 4);
}

TEST(ExperimentConfig, PresetFromSetIsStillAppliedBeforeTheFile) {
  const auto c = load("[topology]\nleaf_links = 1\n", {"machine.preset=cm5"});
  EXPECT_EQ(c.machine.preset, "cm5");
  EXPECT_EQ(topo::fat_tree_params(c.topology).leaf_links, 1);  // the file overrides the preset
  EXPECT_EQ(topo::fat_tree_params(c.topology).parents, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(c.origin.at("topology.parents").file, "--set machine.preset=cm5");
}

TEST(ExperimentConfig, Cm5PresetIsTheDataNetworkSchedule) {
  // note 000 §2.3.2: 4 children, P(k) = 2, 2, 4 for levels 1, 2, >= 3, and U(0) = 2 links per leaf.
  const auto c = load("[machine]\npreset = \"cm5\"\n");
  EXPECT_EQ(c.topology.kind, "fat_tree");
  const topo::FatTreeParams tree = topo::fat_tree_params(c.topology);
  EXPECT_EQ(tree.children, 4);
  EXPECT_EQ(tree.parents, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(tree.leaf_links, 2);
}

TEST(ExperimentConfig, EveryPresetLoadsAndNamesDeclaredKeys) {
  for (const auto& p : machine_presets()) {
    EXPECT_FALSE(p.doc.empty()) << p.name;
    EXPECT_EQ(load_error("[machine]\npreset = \"" + p.name + "\"\n"), "") << p.name;
    for (const auto& [key, value] : p.sets) EXPECT_TRUE(experiment_keys().keys().find(key)) << key;
  }
}

TEST(ExperimentConfig, OriginsRecordTheLineOfEachKey) {
  const auto c = load("# comment\n[router]\n\nvcs = 2\n[traffic]\nrate = 0.2\n");
  EXPECT_EQ(c.origin.size(), 2u);
  EXPECT_EQ(c.origin.at("router.vcs").file, "t.toml");
  EXPECT_EQ(c.origin.at("router.vcs").line, 4);
  EXPECT_EQ(c.origin.at("traffic.rate").line, 6);
}

// --- Checks across keys ---

TEST(ExperimentConfig, ImpossibleTopologyNamesTheKeyAndItsLine) {
  EXPECT_EQ(load_error("[topology]\nkind = \"torus\"\nk = 1\nn = 2\n"),
            "t.toml:3: topology.k: a torus needs k >= 3 (got 1); use a mesh for k = 2");
}

TEST(ExperimentConfig, PatternNeedingPowerOfTwoNodesOnAThousandNodes) {
  // A 10-ary 3-dimensional mesh has 10^3 = 1000 nodes, not a power of two.
  EXPECT_EQ(load_error("[topology]\nkind = \"mesh\"\nk = 10\nn = 3\n[traffic]\npattern = \"bit_reverse\"\n"),
            "t.toml:6: traffic.pattern: bit_reverse needs a power-of-two node count (got 1000 nodes)");
}

TEST(ExperimentConfig, CutThroughNeedsBufferForTheLargestPacket) {
  EXPECT_EQ(
      load_error(
          "[router]\nswitching = \"virtual_cut_through\"\nbuffer_flits = 4\n[traffic]\npacket_flits = 8\n"),
      "t.toml:3: router.buffer_flits: virtual_cut_through switching needs a VC buffer that holds the largest "
      "packet: 4 flits is less than 8 (traffic.packet_flits)");
}

TEST(ExperimentConfig, StoreAndForwardChecksPacketSizesToo) {
  EXPECT_EQ(
      load_error("[traffic]\npacket_sizes = [2, 16]\n", {"router.switching=store_and_forward"}),
      "t.toml: router.buffer_flits: store_and_forward switching needs a VC buffer that holds the largest "
      "packet: 8 flits is less than 16 (the largest of traffic.packet_sizes)");
}

TEST(ExperimentConfig, WormholeNeedsNoRoomForAWholePacket) {
  EXPECT_EQ(load_error("[router]\nbuffer_flits = 2\n[traffic]\npacket_flits = 16\n"), "");
}

TEST(ExperimentConfig, WarmupLimitBelowWarmupBlamesTheKeySet) {
  EXPECT_EQ(load_error("[run]\nwarmup_cycles = 30000\n"),
            "t.toml:2: run.warmup_cycles: run.max_warmup_cycles (20000) is below run.warmup_cycles (30000)");
  EXPECT_EQ(load_error("[run]\nmax_warmup_cycles = 500\n"),
            "t.toml:2: run.max_warmup_cycles: run.max_warmup_cycles (500) is below run.warmup_cycles (1000)");
}

TEST(ExperimentConfig, MaxBatchesBelowMinBatches) {
  EXPECT_EQ(load_error("[run]\nmin_batches = 20\nmax_batches = 12\n"),
            "t.toml:3: run.max_batches: run.max_batches (12) is below run.min_batches (20)");
}

TEST(ExperimentConfig, SweepKeyMustBeANumericKey) {
  EXPECT_EQ(
      load_error("[sweep]\nkey = \"topology.kind\"\n"),
      "t.toml:2: sweep.key: \"topology.kind\" is not a numeric key; a sweep varies an int or float key");
  EXPECT_EQ(load_error("", {"sweep.key=traffic.rat"}),
            "--set sweep.key=traffic.rat: sweep.key: \"traffic.rat\" is not a numeric key (did you mean "
            "traffic.rate?)");
}

TEST(ExperimentConfig, CheckRechecksEveryKeyOfAConfigBuiltInCode) {
  ExperimentConfig c;
  c.traffic.rate = 1.0000001;  // e.g. a sweep that stepped past the end
  try {
    check_experiment(c);
    FAIL() << "expected a ConfigError";
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "traffic.rate: must be greater than 0 and at most 1 (got 1.0000001)");
  }
}

TEST(ExperimentConfig, SweepEndsMustBeValuesOfTheSweptKey) {
  EXPECT_EQ(load_error("[sweep]\nfrom = 0\n"),
            "t.toml:2: sweep.from: not a valid traffic.rate: must be greater than 0 and at most 1 (got 0)");
  EXPECT_EQ(load_error("[sweep]\nkey = \"router.vcs\"\nfrom = 1\nto = 8\nstep = 0.5\n"),
            "t.toml:5: sweep.step: router.vcs takes whole numbers (got 0.5)");
  EXPECT_EQ(load_error("[sweep]\nfrom = 0.5\nto = 0.25\n"),
            "t.toml:3: sweep.to: sweep.to (0.25) is below sweep.from (0.5)");
}

TEST(ExperimentConfig, SweepOverRouterVcsLoads) {
  const auto c = load("[sweep]\nkey = \"router.vcs\"\nfrom = 1\nto = 8\nstep = 1\n");
  EXPECT_EQ(c.sweep.key, "router.vcs");
}

}  // namespace
}  // namespace mppnet::exp::experiment_config_test
