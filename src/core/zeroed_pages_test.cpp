// core/zeroed_pages_test.cpp: the area reads as zeros, keeps what is written, and costs the host only
// the pages written.
#include "core/zeroed_pages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace mppnet::core {
namespace {

// This process's resident set in bytes (VmRSS of /proc/self/status).
std::int64_t resident_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return -1;
}

TEST(ZeroedPages, ReadsAsZerosAndKeepsWhatIsWritten) {
  ZeroedPages area(1 << 20);
  const auto bytes = area.bytes();
  ASSERT_EQ(bytes.size(), 1u << 20);
  EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](std::byte b) { return b == std::byte{0}; }));
  bytes[12345] = std::byte{7};
  EXPECT_EQ(area.bytes()[12345], std::byte{7});
  ZeroedPages moved = std::move(area);
  EXPECT_EQ(moved.bytes()[12345], std::byte{7});
  EXPECT_TRUE(area.bytes().empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
}

TEST(ZeroedPages, AnUntouchedAreaCostsTheHostAlmostNothing) {
  const std::int64_t before = resident_bytes();
  ASSERT_GT(before, 0);
  constexpr std::size_t kReserved = std::size_t{8} << 30;  // 8 GiB of address space
  ZeroedPages area;
  try {
    area = ZeroedPages(kReserved);
  } catch (const std::runtime_error& e) {
    // A host that accounts for every reservation (vm.overcommit_memory = 2, ulimit -v) refuses it.
    GTEST_SKIP() << e.what();
  }
  constexpr std::size_t kPage = 4096;
  for (std::size_t at = 0; at < kReserved; at += kReserved / 16) area.bytes()[at] = std::byte{1};
  // Sixteen pages were written; a vector of zeros would have made all 8 GiB resident.
  EXPECT_LT(resident_bytes() - before, static_cast<std::int64_t>(64 * kPage + (std::size_t{16} << 20)));
}

TEST(ZeroedPages, AnEmptyAreaHasNoBytes) {
  ZeroedPages none(0);
  EXPECT_TRUE(none.bytes().empty());
}

}  // namespace
}  // namespace mppnet::core
