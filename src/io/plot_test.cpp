// io/plot_test.cpp: gnuplot draws both files (gnuplot-nox is a build dependency, see scripts/setup.sh);
// the checks that catch a plot gnuplot left incomplete; names passed to gnuplot as data; the overlay
// figure's data and script.
#include "io/plot.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
  // A newline would end the gnuplot command and start the next one (every control character is written
  // as io::printable's \xNN); a quote is doubled.
  EXPECT_EQ(gnuplot_string("it's\nsystem(\"touch PWNED\")\n#"), R"('it''s\x0asystem("touch PWNED")\x0a#')");
  EXPECT_EQ(gnuplot_string(std::string("a\tb\rc\x01\x7f", 7)), R"('a\x09b\x0dc\x01\x7f')");
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

Figure two_runs() {
  Figure f{.title = "latency, by topology.kind", .x_label = "load", .y_label = "latency"};
  f.series.push_back({.label = "topology.kind=torus",
                      .x = {0.1, 0.2, 0.3},
                      .y = {10, 12, 90},
                      .y_low = {9, 11, 90},
                      .y_high = {11, 13, 90},
                      .saturated = {false, true, false}});
  f.series.push_back({.label = "it's, a mesh", .x = {0.1}, .y = {8}});
  f.series.push_back(
      {.label = "bound", .x = {0.1, 0.3}, .y = {1, 3}, .style = FigureSeries::Style::ReferenceLine});
  return f;
}

TEST(FigureCsv, EachSeriesUnsaturatedRowsFirst) {
  EXPECT_EQ(figure_csv(two_runs()),
            "series,x,y,y_low,y_high,saturated,label\n"
            "0,0.1,10,9,11,0,topology.kind=torus\n"
            "0,0.3,90,90,90,0,topology.kind=torus\n"
            "0,0.2,12,11,13,1,topology.kind=torus\n"
            "1,0.1,8,8,8,0,\"it's, a mesh\"\n"
            "2,0.1,1,1,1,0,bound\n"
            "2,0.3,3,3,3,0,bound\n");
}

TEST(FigureScript, SelectsRowsBySeriesAndKeepsTheLegendOutside) {
  const std::string gp = figure_script(two_runs(), "plot");
  const auto has = [&](const std::string& part) { return gp.find(part) != std::string::npos; };
  EXPECT_TRUE(has("set datafile separator comma\n"));
  EXPECT_TRUE(has("set output 'plot.svg'\n"));
  EXPECT_TRUE(has("set output 'plot.png'\n"));
  EXPECT_TRUE(has("set key outside below left Left reverse maxcols 1\n"));
  EXPECT_TRUE(has("set title 'latency, by topology.kind'\n"));
  // Rows 0-1 the torus's curve with its bars, row 2 its saturated point, row 3 the mesh, rows 4-5 the bound.
  EXPECT_TRUE(
      has("'plot.csv' skip 1 every ::0::1 using 2:3:4:5 with yerrorlines lc 1 pt 7 ps 0.8 title "
          "'topology.kind=torus'"));
  EXPECT_TRUE(
      has("'plot.csv' skip 1 every ::2::2 using 2:3 with points lc 1 pt 6 ps 1.8 title 'open circle: "
          "saturated"));
  EXPECT_TRUE(
      has("'plot.csv' skip 1 every ::3::3 using 2:3 with linespoints lc 2 pt 7 ps 0.8 title 'it''s, a "
          "mesh'"));
  EXPECT_TRUE(
      has("'plot.csv' skip 1 every ::4::5 using 2:3 with lines lc rgb 'black' dt 2 lw 1.5 title 'bound'"));
  EXPECT_FALSE(has(".tmp") || has(".plot."));  // only the final names, relative to the script's directory

  Figure categories = two_runs();
  categories.x_categories = {"deterministic", "random"};
  EXPECT_NE(figure_script(categories, "plot")
                .find("set xtics ('deterministic' 0, 'random' 1)\nset xrange "
                      "[-0.5:1.5]\n"),
            std::string::npos);
}

TEST_F(PlotTest, DrawsAFigureThatItsScriptDrawsAgain) {
  ASSERT_EQ(draw_figure(dir_ / "plot", two_runs()), PlotOutcome::Drawn);
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"plot.csv", "plot.gp", "plot.png", "plot.svg"}));
  EXPECT_EQ(plot_file_problem(dir_ / "plot.svg"), "");
  EXPECT_EQ(plot_file_problem(dir_ / "plot.png"), "");
  std::ifstream svg(dir_ / "plot.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("open circle: saturated"), std::string::npos);  // the legend explains the marks
}

}  // namespace
}  // namespace mppnet::io
