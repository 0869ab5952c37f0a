// io/key_table_test.cpp: one test per rejection path of the generic key table, with exact messages.
#include "io/key_table.hpp"

#include <gtest/gtest.h>

#include "core/error_testing.hpp"

#include <utility>

namespace mppnet::io::key_table_test {
namespace {

enum class Shape { Mesh, Torus, Hypercube, FatTree };

struct Topo {
  Shape kind = Shape::Torus;
  int k = 4;
  std::vector<int> parents = {};
};

struct Router {
  int vcs = 4;
  double eject = 1.0;
  bool trace = false;
  std::string label = "main";
  std::int64_t seed = 1;
  std::vector<double> weights = {0.5, 2.0};
};

struct Conf {
  Topo topology;
  Router router;
};

const KeyTable<Conf>& table() {
  static const KeyTable<Conf> t{
      section("topology", &Conf::topology,
              {
                  key("kind", &Topo::kind, one_of({"mesh", "torus", "hypercube", "fat_tree"}), "Shape."),
                  key("k", &Topo::k, in_range(1, 1024), "Routers per dimension."),
                  key("parents", &Topo::parents, in_range(1, 8), "Parent links per level."),
              }),
      section("router", &Conf::router,
              {
                  key("vcs", &Router::vcs, in_range(1, 64), "Virtual channels per port."),
                  key("eject", &Router::eject, above_up_to(0, 1), "Flits | cycle."),
                  key("trace", &Router::trace, any_value(), "Trace flits."),
                  key("label", &Router::label,
                      satisfies(
                          [](const Value& v) {
                            return std::get<std::string>(v).empty() ? "must not be empty" : "";
                          },
                          "non-empty"),
                      "A label."),
                  key("seed", &Router::seed, at_least(0), "Seed."),
                  key("weights", &Router::weights, greater_than(0), "Weights."),
              }),
  };
  return t;
}

Conf load(const std::string& text, Origins* origin = nullptr) {
  Conf c;
  table().set_document(c, toml::parse(text), "t.toml", origin);
  return c;
}

template <class F>
std::string error_of(F&& f) {
  return core::config_error_of(std::forward<F>(f));
}

std::string load_error(const std::string& text) {
  return error_of([&] { load(text); });
}

std::string set_error(const std::string& arg) {
  return error_of([&] {
    Conf c;
    table().set_arg(c, arg);
  });
}

TEST(KeyTable, UnknownKeySuggestsNearestDeclaredKey) {
  EXPECT_EQ(load_error("[router]\nvsc = 4\n"),
            "t.toml:2: router.vsc: unknown key (did you mean router.vcs?)");
}

TEST(KeyTable, UnknownKeyWithNothingCloseListsTheSection) {
  EXPECT_EQ(load_error("[router]\nbananas = 4\n"),
            "t.toml:2: router.bananas: unknown key (section [router] has: vcs, eject, trace, label, seed, "
            "weights)");
}

TEST(KeyTable, ASubTableIsReadAsKeysNamedThroughIt) {
  // [router.vc] has no declared keys: its key is named router.vc.depth, at its own line.
  EXPECT_EQ(load_error("[router]\nvcs = 4\n[router.vc]\ndepth = 2\n"),
            "t.toml:4: router.vc.depth: unknown key (section [router] has: vcs, eject, trace, label, seed, "
            "weights)");
  EXPECT_EQ(load_error("[router]\nvc.depth = 2\n"),
            "t.toml:2: router.vc.depth: unknown key (section [router] has: vcs, eject, trace, label, seed, "
            "weights)");
}

TEST(KeyTable, UnknownSectionSuggestsNearestSection) {
  EXPECT_EQ(load_error("[routr]\nvcs = 4\n"), "t.toml:1: unknown section [routr] (did you mean [router]?)");
}

TEST(KeyTable, UnknownSectionWithNothingCloseListsSections) {
  EXPECT_EQ(load_error("\n[faults]\nrate = 4\n"),
            "t.toml:2: unknown section [faults] (sections: topology, router)");
}

TEST(KeyTable, KeyOutsideAnySectionSuggestsTheFullName) {
  EXPECT_EQ(load_error("vcs = 4\n"),
            "t.toml:1: vcs: unknown key outside any section (did you mean router.vcs?)");
}

TEST(KeyTable, StringForIntSaysSo) {
  EXPECT_EQ(load_error("[router]\nvcs = \"4\"\n"),
            "t.toml:2: router.vcs: expected an integer, got a string \"4\"");
}

TEST(KeyTable, FloatForIntIsAnErrorEvenWhenWhole) {
  EXPECT_EQ(load_error("[router]\nvcs = 2.0\n"),
            "t.toml:2: router.vcs: expected an integer, got a floating-point number 2.0");
}

TEST(KeyTable, BoolForIntSaysSo) {
  EXPECT_EQ(load_error("[router]\nvcs = true\n"),
            "t.toml:2: router.vcs: expected an integer, got a boolean true");
}

TEST(KeyTable, IntForDoubleIsAccepted) {
  EXPECT_EQ(load("[router]\neject = 1\n").router.eject, 1.0);
}

TEST(KeyTable, StringForDoubleSaysSo) {
  EXPECT_EQ(load_error("[router]\neject = \"0.5\"\n"),
            "t.toml:2: router.eject: expected a number, got a string \"0.5\"");
}

TEST(KeyTable, NonFiniteDoubleIsRejected) {
  EXPECT_EQ(load_error("[router]\neject = nan\n"),
            "t.toml:2: router.eject: must be a finite number (got nan)");
}

TEST(KeyTable, IntForStringSaysSo) {
  EXPECT_EQ(load_error("[router]\nlabel = 3\n"),
            "t.toml:2: router.label: expected a string, got an integer 3");
}

TEST(KeyTable, IntForEnumListsTheChoices) {
  EXPECT_EQ(load_error("[topology]\nkind = 3\n"),
            "t.toml:2: topology.kind: expected a string (one of: mesh, torus, hypercube, fat_tree), got an "
            "integer 3");
}

TEST(KeyTable, IntForBoolSaysSo) {
  EXPECT_EQ(load_error("[router]\ntrace = 1\n"),
            "t.toml:2: router.trace: expected true or false, got an integer 1");
}

TEST(KeyTable, NonListForListSaysSo) {
  EXPECT_EQ(load_error("[topology]\nparents = 3\n"),
            "t.toml:2: topology.parents: expected a list of integers, got an integer 3");
}

TEST(KeyTable, WrongElementTypeNamesIndexAndElementLine) {
  // The array spans lines 2-4; the bad element "x" is index 1, on line 3.
  EXPECT_EQ(load_error("[topology]\nparents = [2,\n  \"x\",\n  4]\n"),
            "t.toml:3: topology.parents[1]: expected an integer, got a string \"x\"");
}

TEST(KeyTable, FloatElementInIntListIsAnError) {
  EXPECT_EQ(load_error("[topology]\nparents = [2, 2.5]\n"),
            "t.toml:2: topology.parents[1]: expected an integer, got a floating-point number 2.5");
}

TEST(KeyTable, IntOutOfRangeGivesRangeAndValue) {
  EXPECT_EQ(load_error("[router]\nvcs = 0\n"), "t.toml:2: router.vcs: must be between 1 and 64 (got 0)");
}

TEST(KeyTable, IntBeyondInt32IsOutOfRange) {
  EXPECT_EQ(load_error("[topology]\nparents = [3000000000]\n"),
            "t.toml:2: topology.parents[0]: must be between 1 and 8 (got 3000000000)");
  Conf c;
  EXPECT_EQ(error_of([&] { table().set_arg(c, "router.seed=3000000000"); }), "");
  EXPECT_EQ(c.router.seed, 3000000000);
}

TEST(KeyTable, DoubleOutOfHalfOpenRange) {
  EXPECT_EQ(load_error("[router]\neject = 0\n"),
            "t.toml:2: router.eject: must be greater than 0 and at most 1 (got 0)");
  EXPECT_EQ(load_error("[router]\neject = 1.5\n"),
            "t.toml:2: router.eject: must be greater than 0 and at most 1 (got 1.5)");
}

TEST(KeyTable, OneSidedRanges) {
  EXPECT_EQ(load_error("[router]\nseed = -1\n"), "t.toml:2: router.seed: must be at least 0 (got -1)");
  EXPECT_EQ(load_error("[router]\nweights = [1, 0.0]\n"),
            "t.toml:2: router.weights[1]: must be greater than 0 (got 0.0)");
}

TEST(KeyTable, ListElementOutOfRangeNamesTheIndex) {
  EXPECT_EQ(load_error("[topology]\nparents = [2, 2, 0]\n"),
            "t.toml:2: topology.parents[2]: must be between 1 and 8 (got 0)");
}

TEST(KeyTable, UnknownEnumValueListsTheChoices) {
  EXPECT_EQ(
      load_error("[topology]\nkind = \"dorr\"\n"),
      "t.toml:2: topology.kind: unknown value \"dorr\"; expected one of: mesh, torus, hypercube, fat_tree");
}

TEST(KeyTable, CustomTestRejectsWithItsReason) {
  EXPECT_EQ(load_error("[router]\nlabel = \"\"\n"), "t.toml:2: router.label: must not be empty");
}

TEST(KeyTable, FirstProblemInFileOrderIsReported) {
  // toml::table iterates alphabetically ([router] before [topology]); the error on line 2 comes first.
  EXPECT_EQ(load_error("[topology]\nk = 0\n[router]\nvcs = 0\n"),
            "t.toml:2: topology.k: must be between 1 and 1024 (got 0)");
}

TEST(KeyTable, NothingIsStoredWhenAnyKeyIsBad) {
  Conf c;
  EXPECT_THROW(table().set_document(c, toml::parse("[router]\nvcs = 8\nlabel = 3\n"), "t.toml"),
               core::ConfigError);
  EXPECT_EQ(c.router.vcs, 4);
}

TEST(KeyTable, StoresEveryTypeAndRecordsOrigins) {
  Origins origin;
  const Conf c = load(
      "[topology]\nkind = \"fat_tree\"\nparents = [2, 2, 4]\n[router]\nvcs = 8\neject = 0.5\ntrace = true\n"
      "label = \"x\"\nseed = 99\nweights = [1, 3.5]\n",
      &origin);
  EXPECT_EQ(c.topology.kind, Shape::FatTree);
  EXPECT_EQ(c.topology.k, 4);  // not given: the default
  EXPECT_EQ(c.topology.parents, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(c.router.vcs, 8);
  EXPECT_EQ(c.router.eject, 0.5);
  EXPECT_TRUE(c.router.trace);
  EXPECT_EQ(c.router.label, "x");
  EXPECT_EQ(c.router.seed, 99);
  EXPECT_EQ(c.router.weights, (std::vector<double>{1.0, 3.5}));
  EXPECT_EQ(origin.size(), 8u);
  EXPECT_EQ(origin.at("topology.parents").line, 3);
  EXPECT_EQ(origin.at("router.weights").line, 10);
  EXPECT_EQ(origin.at("router.vcs").file, "t.toml");
  EXPECT_EQ(origin.count("topology.k"), 0u);
}

TEST(KeyTable, SetArgParsesValuesAsToml) {
  Conf c;
  Origins origin;
  table().set_arg(c, "router.eject=0.25", &origin);
  table().set_arg(c, "topology.parents=[2,2,4]", &origin);
  table().set_arg(c, "topology.kind=\"hypercube\"", &origin);
  table().set_arg(c, "router.trace=true", &origin);
  EXPECT_EQ(c.router.eject, 0.25);
  EXPECT_EQ(c.topology.parents, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(c.topology.kind, Shape::Hypercube);
  EXPECT_TRUE(c.router.trace);
  EXPECT_EQ(origin.at("router.eject").file, "--set router.eject=0.25");
  EXPECT_EQ(origin.at("router.eject").line, 0);
}

TEST(KeyTable, SetArgTakesABareWordAsAString) {
  Conf c;
  table().set_arg(c, "topology.kind=mesh");
  table().set_arg(c, "router.label=a.b-c");
  EXPECT_EQ(c.topology.kind, Shape::Mesh);
  EXPECT_EQ(c.router.label, "a.b-c");
}

TEST(KeyTable, SetArgUnknownKey) {
  EXPECT_EQ(set_error("router.vsc=4"),
            "--set router.vsc=4: router.vsc: unknown key (did you mean router.vcs?)");
  EXPECT_EQ(set_error("routr.vcs=4"), "--set routr.vcs=4: routr.vcs: unknown key (did you mean router.vcs?)");
}

TEST(KeyTable, SetArgBadValue) {
  EXPECT_EQ(set_error("router.vcs=0"), "--set router.vcs=0: router.vcs: must be between 1 and 64 (got 0)");
  EXPECT_EQ(set_error("router.vcs=four"),
            "--set router.vcs=four: router.vcs: expected an integer, got a string \"four\"");
  EXPECT_EQ(set_error("topology.kind=dorr"),
            "--set topology.kind=dorr: topology.kind: unknown value \"dorr\"; expected one of: mesh, torus, "
            "hypercube, "
            "fat_tree");
  EXPECT_EQ(set_error("topology.parents=[2,2,0]"),
            "--set topology.parents=[2,2,0]: topology.parents[2]: must be between 1 and 8 (got 0)");
}

TEST(KeyTable, SetArgMalformedValue) {
  EXPECT_EQ(
      set_error("topology.parents=[2,2"),
      "--set topology.parents=[2,2: topology.parents: cannot read value [2,2: Error while parsing array: "
      "encountered end-of-file");
  EXPECT_EQ(set_error("router.vcs="), "--set router.vcs=: router.vcs: missing value after '='");
  EXPECT_EQ(set_error("router.vcs"), "--set router.vcs: expected key=value");
}

TEST(KeyTable, GetAndToJsonUseNamesForEnums) {
  Conf c;
  c.topology.kind = Shape::FatTree;
  c.topology.parents = {2, 4};
  EXPECT_EQ(table().get(c, "topology.kind"), "fat_tree");
  const auto j = table().to_json(c);
  EXPECT_EQ(j["topology"]["parents"], nlohmann::json({2, 4}));
  EXPECT_EQ(j["router"]["vcs"], 4);
  EXPECT_EQ(j["router"]["eject"], 1.0);
  EXPECT_EQ(j["router"]["label"], "main");
  EXPECT_EQ(j.size(), 2u);
  EXPECT_EQ(j["router"].size(), 6u);
}

TEST(KeyTable, ListTakesDefaultsFromTheStruct) {
  const auto keys = table().list();
  ASSERT_EQ(keys.size(), 9u);
  EXPECT_EQ(keys[0].name, "topology.kind");
  EXPECT_EQ(keys[0].type, "enum");
  EXPECT_EQ(keys[0].default_value, "\"torus\"");
  EXPECT_EQ(keys[0].range, "mesh, torus, hypercube, fat_tree");
  EXPECT_EQ(keys[2].default_value, "[]");
  EXPECT_EQ(keys[2].range, "each 1..8");
  EXPECT_EQ(keys[3].range, "1..64");
  EXPECT_EQ(keys[4].type, "float");
  EXPECT_EQ(keys[4].default_value, "1.0");
  EXPECT_EQ(keys[4].range, "(0, 1]");
  EXPECT_EQ(keys[5].default_value, "false");
  EXPECT_EQ(keys[6].range, "non-empty");
  EXPECT_EQ(keys[7].range, ">= 0");
  EXPECT_EQ(keys[8].default_value, "[0.5, 2.0]");
  EXPECT_EQ(keys[8].range, "each > 0");
}

TEST(KeyTable, MarkdownHasOneTablePerSectionAndEscapesPipes) {
  const std::string md = render_markdown(table().list());
  EXPECT_NE(md.find("## [topology]\n\n| Key | Type | Default | Range | Description |\n"), std::string::npos);
  EXPECT_NE(md.find("| `router.vcs` | int | `4` | 1..64 | Virtual channels per port. |\n"),
            std::string::npos);
  EXPECT_NE(md.find("Flits \\| cycle."), std::string::npos);
}

TEST(KeyTable, TextListsEveryKeyOnItsOwnLine) {
  const std::string text = "\n" + render_text(table().list());
  for (const auto& k : table().list()) EXPECT_NE(text.find("\n" + k.name + " "), std::string::npos) << k.name;
}

TEST(KeyTable, CheckRechecksValuesFilledInCode) {
  Conf c;
  c.topology.parents = {2, 9};
  const auto where = [](const std::string& key) {
    return core::SourceLocation{"code", key == "topology.parents" ? 7 : 0};
  };
  EXPECT_EQ(error_of([&] { table().check(c, where); }),
            "code:7: topology.parents[1]: must be between 1 and 8 (got 9)");
  c.topology.parents = {};
  c.router.label = "say \"hi\" \\o/";  // survives the trip through TOML text
  EXPECT_EQ(error_of([&] { table().check(c, where); }), "");
}

TEST(KeyTable, NearestCountsASwapAsOneEdit) {
  EXPECT_EQ(nearest("router.vsc", {"router.vcs", "router.eject"}), "router.vcs");
  EXPECT_EQ(nearest("xyz", {"vcs", "k"}), "");
}

}  // namespace
}  // namespace mppnet::io::key_table_test
