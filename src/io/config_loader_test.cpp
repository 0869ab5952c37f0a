// io/config_loader_test.cpp: the shared loading steps: preset, file, --set order, origins, exact messages.
#include "io/config_loader.hpp"

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error_testing.hpp"

#include <utility>

namespace mppnet::io::config_loader_test {
namespace {

enum class Size { Plain, Big, Tiny };

struct Machine {
  Size preset = Size::Plain;
  int nodes = 16;
  int links = 2;
  std::vector<int> parents = {1, 1};
};

struct Conf {
  Machine machine;
  Origins origin;
  std::string source_file;
};

static_assert(LoadableConfig<Conf>);
static_assert(!LoadableConfig<Machine>);

const KeyTable<Conf>& table() {
  static const KeyTable<Conf> t{
      section("machine", &Conf::machine,
              {
                  key("preset", &Machine::preset, one_of({"plain", "big", "tiny"}), "Named defaults."),
                  key("nodes", &Machine::nodes, in_range(1, 4096), "Nodes."),
                  key("links", &Machine::links, in_range(1, 8), "Links per node."),
                  key("parents", &Machine::parents, in_range(1, 8), "Parent links per level."),
              }),
  };
  return t;
}

// "big" sets nodes twice: the pairs apply in order, so the second value stays.
PresetSets preset_sets(const std::string& name) {
  if (name == "big") return {{"machine.nodes", "64"}, {"machine.links", "4"}, {"machine.nodes", "256"}};
  if (name == "tiny") return {{"machine.nodes", "2"}};
  return {};
}

const Presets kPresets{"machine.preset", preset_sets};

Conf load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config(table(), text, "t.toml", sets, kPresets);
}

template <class F>
std::string error_of(F&& f) {
  return core::config_error_of(std::forward<F>(f));
}

std::string load_error(const std::string& text, const std::vector<std::string>& sets = {}) {
  return error_of([&] { load(text, sets); });
}

// --- Order: preset, then file, then --set ---

TEST(ConfigLoader, EmptyTextGivesTheDefaultsAndNoOrigins) {
  const Conf c = load("");
  EXPECT_EQ(c.machine.nodes, 16);
  EXPECT_EQ(c.machine.preset, Size::Plain);
  EXPECT_TRUE(c.origin.empty());
  EXPECT_EQ(c.source_file, "t.toml");
}

TEST(ConfigLoader, PresetPairsApplyInOrder) {
  // "big" sets machine.nodes to 64, then to 256.
  const Conf c = load("[machine]\npreset = \"big\"\n");
  EXPECT_EQ(c.machine.preset, Size::Big);
  EXPECT_EQ(c.machine.nodes, 256);
  EXPECT_EQ(c.machine.links, 4);
}

TEST(ConfigLoader, PresetGoesFirstWhereverTheFileNamesIt) {
  // The preset key is on line 3, after nodes on line 2; the file's nodes still overrides the preset's.
  const Conf c = load("[machine]\nnodes = 8\npreset = \"big\"\n");
  EXPECT_EQ(c.machine.nodes, 8);
  EXPECT_EQ(c.machine.links, 4);  // from the preset
  EXPECT_EQ(c.origin.at("machine.nodes").line, 2);
}

TEST(ConfigLoader, PresetKeysTakeTheLocationOfThePresetKey) {
  const Conf c = load("[machine]\n\npreset = \"big\"\n");
  EXPECT_EQ(c.origin.at("machine.preset").file, "t.toml");
  EXPECT_EQ(c.origin.at("machine.preset").line, 3);
  EXPECT_EQ(c.origin.at("machine.links").file, "t.toml");
  EXPECT_EQ(c.origin.at("machine.links").line, 3);
  EXPECT_EQ(c.origin.count("machine.parents"), 0u);  // the preset does not set it
}

TEST(ConfigLoader, LastSetPresetChoosesOverTheFile) {
  const Conf c = load("[machine]\npreset = \"big\"\n", {"machine.preset=big", "machine.preset = tiny"});
  EXPECT_EQ(c.machine.preset, Size::Tiny);
  EXPECT_EQ(c.machine.nodes, 2);
  EXPECT_EQ(c.machine.links, 2);  // "big" was never applied
  EXPECT_EQ(c.origin.at("machine.nodes").file, "--set machine.preset = tiny");
  EXPECT_EQ(c.origin.at("machine.nodes").line, 0);
}

TEST(ConfigLoader, FileOverridesSetPreset) {
  const Conf c = load("[machine]\nnodes = 8\n", {"machine.preset=tiny"});
  EXPECT_EQ(c.machine.nodes, 8);
  EXPECT_EQ(c.origin.at("machine.nodes").line, 2);
}

TEST(ConfigLoader, SetsApplyAfterTheFileInOrder) {
  const Conf c = load("[machine]\nnodes = 8\nlinks = 3\n", {"machine.nodes=32", "machine.nodes=64"});
  EXPECT_EQ(c.machine.nodes, 64);
  EXPECT_EQ(c.machine.links, 3);
  EXPECT_EQ(c.origin.at("machine.nodes").file, "--set machine.nodes=64");
  EXPECT_EQ(c.origin.at("machine.nodes").line, 0);
  EXPECT_EQ(c.origin.at("machine.links").file, "t.toml");
  EXPECT_EQ(c.origin.at("machine.links").line, 3);
}

TEST(ConfigLoader, WithoutPresetsThePresetKeyIsAnOrdinaryKey) {
  const Conf c = load_config(table(), "[machine]\npreset = \"big\"\n", "t.toml", {});
  EXPECT_EQ(c.machine.preset, Size::Big);
  EXPECT_EQ(c.machine.nodes, 16);
  EXPECT_EQ(c.origin.size(), 1u);
}

// --- Errors ---

TEST(ConfigLoader, BadPresetIsReportedBeforeEarlierKeys) {
  // The preset is read first, so its problem comes before the bad key on line 2.
  EXPECT_EQ(load_error("[machine]\nnodes = 0\npreset = \"huge\"\n"),
            "t.toml:3: machine.preset: unknown value \"huge\"; expected one of: plain, big, tiny");
}

TEST(ConfigLoader, BadSetPresetNamesTheArgument) {
  EXPECT_EQ(load_error("", {"machine.preset"}), "--set machine.preset: expected key=value");
}

TEST(ConfigLoader, FirstBadSetIsReported) {
  EXPECT_EQ(load_error("", {"machine.nodes=0", "machine.links=0"}),
            "--set machine.nodes=0: machine.nodes: must be between 1 and 4096 (got 0)");
}

TEST(ConfigLoader, SyntaxErrorNamesFileAndLine) {
  EXPECT_EQ(load_error("[machine]\nnodes = 4\nlinks = = 4\n"),
            "t.toml:3: Error while parsing value: could not determine value type");
}

TEST(ConfigLoader, UnreadableFileSaysWhy) {
  EXPECT_EQ(error_of([] { read_config_file("/nonexistent/mppnet/x.toml"); }),
            "/nonexistent/mppnet/x.toml: cannot read the config file: No such file or directory");
}

TEST(ConfigLoader, DirectoryIsUnreadable) {
  EXPECT_EQ(error_of([] { read_config_file("/"); }), "/: cannot read the config file: it is a folder");
}

TEST(ConfigLoader, ReadsTheFileByteForByte) {
  const std::string path = ::testing::TempDir() + "config_loader_test.toml";
  const std::string text("[machine]\r\nnodes = 8\n\0tail", 26);  // with a NUL byte
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(read_config_file(path), text);
  std::remove(path.c_str());
}

// --- One file, several readers ---

TEST(ConfigLoader, SectionsOfAnotherReaderArePassedOverWithTheirLinesKept) {
  // [extra] belongs to another reader of the same document; this table reads [machine] only, and the
  // lines of both stay the file's lines.
  const ConfigFile file("t.toml", parse_config("[extra]\nwhatever = 1\n[machine]\nnodes = 8\n", "t.toml"));
  const Conf c = load_config(table(), file.doc, file.path, {}, kPresets, {"extra"});
  EXPECT_EQ(c.machine.nodes, 8);
  EXPECT_EQ(c.origin.at("machine.nodes").line, 4);
}

TEST(ConfigLoader, AnUnknownSectionIsSuggestedAmongEveryReadersSections) {
  const ConfigFile file("t.toml", parse_config("[machine]\nnodes = 8\n[extar]\nx = 1\n", "t.toml"));
  EXPECT_EQ(error_of([&] { load_config(table(), file.doc, file.path, {}, kPresets, {"extra"}); }),
            "t.toml:3: unknown section [extar] (did you mean [extra]?)");
}

TEST(ConfigLoader, OpenConfigFileReportsSyntaxWithFileAndLine) {
  const std::string path = ::testing::TempDir() + "config_loader_syntax.toml";
  std::ofstream(path) << "[machine]\nnodes = = 4\n";
  EXPECT_EQ(error_of([&] { open_config_file(path); }),
            path + ":2: Error while parsing value: could not determine value type");
  std::remove(path.c_str());
}

// --- Origins ---

TEST(ConfigLoader, WhereSetIgnoresAListIndexAndFallsBackToTheFile) {
  const Conf c = load("[machine]\nparents = [2, 3]\n");
  EXPECT_EQ(where_set(c, "machine.parents[1]").line, 2);
  EXPECT_EQ(where_set(c, "machine.parents").line, 2);
  const core::SourceLocation unset = where_set(c, "machine.nodes");
  EXPECT_EQ(unset.file, "t.toml");
  EXPECT_EQ(unset.line, 0);
}

TEST(ConfigLoader, FailAtLocatesTheKey) {
  const Conf c = load("[machine]\nnodes = 8\n");
  EXPECT_EQ(error_of([&] { fail_at(c, "machine.nodes", "too few"); }), "t.toml:2: machine.nodes: too few");
  EXPECT_EQ(error_of([&] { fail_at(c, "machine.links", "too few"); }), "t.toml: machine.links: too few");
}

TEST(ConfigLoader, CheckKeysReportsAValueFilledInCodeWhereItWasSet) {
  Conf c = load("", {"machine.links=3"});
  c.machine.links = 9;
  EXPECT_EQ(error_of([&] { check_keys(table(), c); }),
            "--set machine.links=3: machine.links: must be between 1 and 8 (got 9)");
}

}  // namespace
}  // namespace mppnet::io::config_loader_test
