// machines/cm1/config_test.cpp: loading a CM-1 config: defaults, presets, one test per rejection path.
#include "machines/cm1/config.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "core/error_testing.hpp"

#include "machines/cm1/patterns.hpp"

namespace mppnet::machines::cm1 {
namespace {

Cm1Config load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_cm1_text(text, "t.toml", sets);
}

// The repository root, from this file's path as the compiler saw it (the build passes absolute paths).
std::string repo_file(const std::string& relative) {
  const std::string self = __FILE__;
  return self.substr(0, self.rfind("src/machines/cm1/")) + relative;
}

std::string load_error(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { load(text, sets); });
}

TEST(Cm1Config, EmptyFileIsThePapersMachine) {
  const Cm1Config c = load("");
  EXPECT_EQ(c.machine.dims, 12);
  EXPECT_EQ(c.machine.procs_per_chip, 16);
  EXPECT_EQ(c.cm1.rows, 7);
  EXPECT_EQ(c.cm1.data_bits, 32);
  EXPECT_EQ(c.traffic.vp_ratio, 1);
  EXPECT_EQ(to_json(c), to_json(Cm1Config{}));
}

TEST(Cm1Config, EveryFieldIsDeclaredWithADoc) {
  const auto j = to_json(Cm1Config{});
  EXPECT_EQ(j["machine"].size(), 5u);
  EXPECT_EQ(j["cm1"].size(), 11u);
  EXPECT_EQ(j["traffic"].size(), 8u);
  EXPECT_EQ(j["run"].size(), 1u);
  for (const auto& k : cm1_key_list()) EXPECT_FALSE(k.doc.empty()) << k.name;
}

TEST(Cm1Config, PresetsLoad) {
  const Cm1Config cm1 = load_cm1(repo_file("configs/cm1.toml"), {});
  EXPECT_EQ(vp_count(cm1), 65536);
  EXPECT_EQ(cm1.cm1.vp_ejection, VpEjection::OneBank);
  const Cm1Config cm2 = load_cm1(repo_file("configs/cm2.toml"), {"traffic.vp_ratio=16"});
  EXPECT_EQ(cm2.cm1.vp_ejection, VpEjection::AnyBank);
  EXPECT_TRUE(cm2.cm1.combining);
  EXPECT_EQ(cm2.traffic.vp_ratio, 16);
  EXPECT_EQ(cm2.origin.at("traffic.vp_ratio").file, "--set traffic.vp_ratio=16");
}

TEST(Cm1Config, SetOverridesTheFile) {
  const Cm1Config c = load("[traffic]\nvp_ratio = 4\npattern = \"complement\"\n", {"traffic.vp_ratio=16"});
  EXPECT_EQ(c.traffic.vp_ratio, 16);
  EXPECT_EQ(c.traffic.pattern, Pattern::Complement);
  EXPECT_EQ(c.origin.at("traffic.pattern").line, 3);
}

TEST(Cm1Config, RejectsUnreadableFile) {
  try {
    load_cm1("/nonexistent/cm1.toml", {});
    FAIL();
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/cm1.toml: cannot read the config file: No such file or directory");
  }
}

TEST(Cm1Config, RejectsTomlSyntax) {
  EXPECT_EQ(load_error("[cm1\n").rfind("t.toml:1: ", 0), 0u);
}

TEST(Cm1Config, RejectsUnknownKeyWithSuggestion) {
  EXPECT_EQ(load_error("[cm1]\nrow = 7\n"), "t.toml:2: cm1.row: unknown key (did you mean cm1.rows?)");
}

TEST(Cm1Config, RejectsUnknownSection) {
  EXPECT_EQ(load_error("[trafic]\nvp_ratio = 2\n"),
            "t.toml:1: unknown section [trafic] (did you mean [traffic]?)");
}

TEST(Cm1Config, RejectsWrongType) {
  EXPECT_EQ(load_error("[machine]\ndims = 12.0\n"),
            "t.toml:2: machine.dims: expected an integer, got a floating-point number 12.0");
}

TEST(Cm1Config, RejectsDimsOutOfRange) {
  EXPECT_EQ(load_error("[machine]\ndims = 13\n"),
            "t.toml:2: machine.dims: must be between 2 and 12 (got 13)");
  EXPECT_EQ(load_error("[machine]\ndims = 1\n"), "t.toml:2: machine.dims: must be between 2 and 12 (got 1)");
}

TEST(Cm1Config, RejectsRowsOutOfRange) {
  EXPECT_EQ(load_error("", {"cm1.rows=9"}), "--set cm1.rows=9: cm1.rows: must be between 1 and 8 (got 9)");
}

TEST(Cm1Config, AcceptsAnyVpRatioFrom1To256) {
  // The issue asks for virtual processors "at any VP ratio": 12 banks of 65,536 processors each.
  EXPECT_EQ(load_cm1_text("[traffic]\nvp_ratio = 12\n", "t.toml", {}).traffic.vp_ratio, 12);
  EXPECT_EQ(load_error("[traffic]\nvp_ratio = 257\n"),
            "t.toml:2: traffic.vp_ratio: must be between 1 and 256 (got 257)");
}

TEST(Cm1Config, RejectsProcessorsPerChipNotAPowerOfTwo) {
  EXPECT_EQ(load_error("[machine]\nprocs_per_chip = 6\n"),
            "t.toml:2: machine.procs_per_chip: must be a power of two (got 6)");
}

TEST(Cm1Config, RejectsUnknownPattern) {
  EXPECT_EQ(load_error("", {"traffic.pattern=tornado"}),
            "--set traffic.pattern=tornado: traffic.pattern: unknown value \"tornado\"; expected one of: "
            "random_function, random_permutation, complement, bit_reversal, transpose, shift, hot_spot, "
            "all_to_one, file");
}

TEST(Cm1Config, RejectsTransposeOnAnOddAddress) {
  EXPECT_EQ(load_error("[machine]\ndims = 5\n[traffic]\npattern = \"transpose\"\n"),
            "t.toml:4: traffic.pattern: transpose swaps the halves of the processor address, which has 9 "
            "bits (machine.dims 5 + log2 machine.procs_per_chip); it needs an even number");
}

TEST(Cm1Config, RejectsATargetBeyondTheMachine) {
  EXPECT_EQ(load_error("[machine]\ndims = 2\n[traffic]\npattern = \"all_to_one\"\ntarget = 64\n"),
            "t.toml:5: traffic.target: VP 64 does not exist: the machine has 64 VPs (0 .. 63)");
}

TEST(Cm1Config, RejectsVpRatioAbove256) {
  EXPECT_EQ(load_error("[traffic]\nvp_ratio = 512\n"),
            "t.toml:2: traffic.vp_ratio: must be between 1 and 256 (got 512)");
  EXPECT_EQ(load_error("", {"traffic.vp_ratio=256", "machine.procs_per_chip=16"}), "");
}

TEST(Cm1Config, RejectsSendFractionZero) {
  EXPECT_EQ(load_error("[traffic]\nsend_fraction = 0\n"),
            "t.toml:2: traffic.send_fraction: must be greater than 0 and at most 1 (got 0)");
}

// --- Pattern files ---

// Writes `text` to a file in the test's temporary directory and returns its path.
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Cm1Config, PatternFileIsReadRelativeToTheConfig) {
  write_temp("cm1_pairs.txt", "# source destination\n0 3\n\n2 1  # a comment\n");
  const std::string cfg = write_temp(
      "cm1_file.toml",
      "[machine]\ndims = 2\nprocs_per_chip = 1\n[traffic]\npattern = \"file\"\nfile = \"cm1_pairs.txt\"\n");
  const Cm1Config c = load_cm1(cfg, {});
  EXPECT_EQ(c.traffic.file, ::testing::TempDir() + "cm1_pairs.txt");
  const auto dst = make_destinations(c.machine, c.traffic, 1);
  EXPECT_EQ(dst, (std::vector<std::uint32_t>{3, kNoMessage, 1, kNoMessage}));
}

TEST(Cm1Config, RejectsFilePatternWithoutAFile) {
  EXPECT_EQ(load_error("[traffic]\npattern = \"file\"\n"),
            "t.toml:2: traffic.pattern: the file pattern needs traffic.file");
}

TEST(Cm1Config, RejectsAMissingPatternFile) {
  EXPECT_EQ(load_error("[traffic]\npattern = \"file\"\nfile = \"/nonexistent/p.txt\"\n"),
            "/nonexistent/p.txt: cannot read the pattern file: No such file or directory");
}

TEST(Cm1Config, RejectsAMalformedPatternLine) {
  const auto p = write_temp("cm1_bad1.txt", "0 1\n1 two\n");
  EXPECT_EQ(load_error("[machine]\ndims = 2\n[traffic]\npattern = \"file\"\nfile = \"" + p + "\"\n"),
            p + ":2: expected two VP numbers \"source destination\", got \"1 two\"");
  const auto q = write_temp("cm1_bad2.txt", "0 1 2\n");
  EXPECT_EQ(load_error("[machine]\ndims = 2\n[traffic]\npattern = \"file\"\nfile = \"" + q + "\"\n"),
            q + ":1: expected two VP numbers \"source destination\", got \"0 1 2\"");
}

TEST(Cm1Config, RejectsAPatternVpOutsideTheMachine) {
  const auto p = write_temp("cm1_bad3.txt", "0 64\n");
  EXPECT_EQ(load_error("[machine]\ndims = 2\n[traffic]\npattern = \"file\"\nfile = \"" + p + "\"\n"),
            p + ":1: VP 64 does not exist: the machine has 64 VPs (0 .. 63)");
}

TEST(Cm1Config, RejectsTwoMessagesFromOneVp) {
  const auto p = write_temp("cm1_bad4.txt", "5 1\n6 1\n5 2\n");
  EXPECT_EQ(load_error("[machine]\ndims = 2\n[traffic]\npattern = \"file\"\nfile = \"" + p + "\"\n"),
            p + ":3: VP 5 already sends a message (line 1); one per VP per instruction");
}

}  // namespace
}  // namespace mppnet::machines::cm1
