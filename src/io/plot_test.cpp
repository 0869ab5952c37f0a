// io/plot_test.cpp: gnuplot draws both files (gnuplot-nox is a build dependency, see scripts/setup.sh);
// the checks that catch a plot gnuplot left incomplete; names passed to gnuplot as data.
#include "io/plot.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

namespace mppnet::io {
namespace {

class PlotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mppnet_plot_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
  std::filesystem::path dir_;
};

// The 8-byte PNG signature and the 12-byte IEND chunk (length 0, "IEND", its CRC-32 AE 42 60 82).
const std::string kSignature("\x89PNG\r\n\x1a\n", 8);
const std::string kIend("\0\0\0\0IEND\xae\x42\x60\x82", 12);

TEST_F(PlotTest, DrawsCompleteSvgAndPngAndLeavesOnlyTheFourFiles) {
  ASSERT_EQ(
      plot_latency_vs_load(dir_ / "latency", "it's a test", {{"average", {0.1, 0.2, 0.3}, {10, 12, 20}}}),
      PlotOutcome::Drawn);
  EXPECT_EQ(plot_file_problem(dir_ / "latency.svg"), "");
  EXPECT_EQ(plot_file_problem(dir_ / "latency.png"), "");
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"latency.dat", "latency.gp", "latency.png", "latency.svg"}));
}

TEST_F(PlotTest, SvgCutShortIsIncomplete) {
  // What a full disk left: gnuplot's first 4,096 bytes, no closing tag.
  const std::string cut = "<?xml version=\"1.0\"?>\n<svg width=\"800\"" + std::string(4096 - 38, ' ');
  EXPECT_EQ(plot_file_problem(write("cut.svg", cut)),
            "incomplete SVG: its 4096 bytes do not end with </svg>");
  EXPECT_EQ(plot_file_problem(write("whole.svg", "<svg>\n</svg>\n\n")), "");
  EXPECT_EQ(plot_file_problem(write("empty.svg", "")), "empty");
  EXPECT_EQ(plot_file_problem(dir_ / "absent.svg"), "not written");
}

TEST_F(PlotTest, PngNeedsSignatureAndIendChunk) {
  EXPECT_EQ(plot_file_problem(write("empty.png", "")), "empty");
  EXPECT_EQ(plot_file_problem(write("text.png", "<svg></svg>")), "not a PNG: no PNG signature");
  EXPECT_EQ(plot_file_problem(write("cut.png", kSignature + std::string(100, 'x'))),
            "incomplete PNG: its 108 bytes do not end with the IEND chunk");
  EXPECT_EQ(plot_file_problem(write("whole.png", kSignature + std::string(100, 'x') + kIend)), "");
}

TEST(GnuplotString, NothingEndsTheString) {
  // A newline would end the gnuplot command and start the next one; a quote is doubled.
  EXPECT_EQ(gnuplot_string("it's\nsystem(\"touch PWNED\")\n#"), R"('it''s\nsystem("touch PWNED")\n#')");
  EXPECT_EQ(gnuplot_string(std::string("a\tb\rc\x01\x7f", 7)), R"('a\tb\rc\x01\x7f')");
  EXPECT_EQ(gnuplot_string("`date` @x $y"), "'`date` @x $y'");  // inert inside single quotes
}

TEST_F(PlotTest, FindInPathSearchesEachEntryInOrder) {
  std::filesystem::create_directories(dir_ / "a");
  std::filesystem::create_directories(dir_ / "b");
  write("a/tool", "");  // not executable: skipped, as `command -v` does
  write("b/tool", "#!/bin/sh\n");
  ::chmod((dir_ / "b/tool").c_str(), 0755);
  const std::string path = (dir_ / "a").string() + ":" + (dir_ / "b").string();
  EXPECT_EQ(find_in_path("tool", path), dir_ / "b/tool");
  EXPECT_EQ(find_in_path("tool", (dir_ / "a").string()), std::filesystem::path());
  EXPECT_EQ(find_in_path("no-such-tool", path), std::filesystem::path());
}

}  // namespace
}  // namespace mppnet::io
