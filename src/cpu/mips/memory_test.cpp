// cpu/mips/memory_test.cpp: mapping, big-endian layout, bounds and alignment.
#include "cpu/mips/memory.hpp"

#include <gtest/gtest.h>

#include <array>

namespace mppnet::cpu::mips::memory_test {
namespace {

TEST(MipsMemory, WordsAreStoredBigEndian) {
  Memory m;
  m.map(0x1000, 16, "data");
  ASSERT_EQ(m.store32(0x1004, 0x11223344u), Access::Ok);
  std::uint8_t b = 0;
  ASSERT_EQ(m.load8(0x1004, b), Access::Ok);
  EXPECT_EQ(b, 0x11);
  ASSERT_EQ(m.load8(0x1007, b), Access::Ok);
  EXPECT_EQ(b, 0x44);
  std::uint16_t h = 0;
  ASSERT_EQ(m.load16(0x1006, h), Access::Ok);
  EXPECT_EQ(h, 0x3344);
}

TEST(MipsMemory, OutOfRangeAndStraddlingAccessesAreUnmapped) {
  Memory m;
  m.map(0x1000, 16, "data");
  std::uint32_t w = 0;
  EXPECT_EQ(m.load32(0x0ffc, w), Access::Unmapped);
  EXPECT_EQ(m.load32(0x1010, w), Access::Unmapped);
  EXPECT_EQ(m.load32(0x100c, w), Access::Ok);
  EXPECT_EQ(m.store32(0xfffffffc, 1), Access::Unmapped);
  std::array<std::uint8_t, 8> bytes{};
  EXPECT_EQ(m.read_bytes(0x100c, bytes), Access::Unmapped);  // runs past the end
  EXPECT_EQ(m.read_bytes(0x1008, bytes), Access::Ok);
}

TEST(MipsMemory, MisalignedAccessesAreReportedNotPerformed) {
  Memory m;
  m.map(0x1000, 16, "data");
  EXPECT_EQ(m.store32(0x1002, 0xffffffffu), Access::Misaligned);
  EXPECT_EQ(m.store16(0x1001, 0xffff), Access::Misaligned);
  std::uint32_t w = 1;
  EXPECT_EQ(m.load32(0x1000, w), Access::Ok);
  EXPECT_EQ(w, 0u);
}

TEST(MipsMemory, RegionsMayNotOverlapWrapOrBeEmpty) {
  Memory m;
  m.map(0x1000, 0x1000, "text");
  EXPECT_THROW(m.map(0x1800, 0x1000, "data"), MemoryError);
  EXPECT_THROW(m.map(0xfffff000, 0x2000, "wrap"), MemoryError);
  EXPECT_THROW(m.map(0x8000, 0, "empty"), MemoryError);
  m.map(0x2000, 0x1000, "adjacent");  // touching is fine
  EXPECT_EQ(m.region_name(0x2000), "adjacent");
  EXPECT_EQ(m.region_name(0x3000), "");
  m.map(0xfffff000, 0x1000, "top");  // ends exactly at 2^32
  EXPECT_EQ(m.store32(0xfffffffc, 7), Access::Ok);
}

}  // namespace
}  // namespace mppnet::cpu::mips::memory_test
