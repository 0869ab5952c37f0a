// io/plot_test.cpp: gnuplot draws both files (gnuplot-nox is a build dependency, see scripts/setup.sh).
#include "io/plot.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace mppnet::io {
namespace {

TEST(Plot, DrawsSvgAndPng) {
  const auto dir = std::filesystem::temp_directory_path() / ("mppnet_plot_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  plot_latency_vs_load(dir / "latency", "it's a test", {{"average", {0.1, 0.2, 0.3}, {10, 12, 20}}});
  std::ifstream svg(dir / "latency.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("<svg"), std::string::npos);
  std::ifstream png(dir / "latency.png", std::ios::binary);
  char sig[8] = {};
  png.read(sig, 8);
  EXPECT_EQ(std::string(sig + 1, 3), "PNG");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mppnet::io
