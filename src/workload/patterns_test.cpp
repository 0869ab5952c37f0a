// workload/patterns_test.cpp: the deterministic patterns on hand-computed addresses.
#include "workload/patterns.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mppnet::workload {
namespace {

TEST(Patterns, PowerOfTwoAndAddressBits) {
  EXPECT_TRUE(is_power_of_two(1));
  EXPECT_TRUE(is_power_of_two(1024));
  EXPECT_FALSE(is_power_of_two(0));
  EXPECT_FALSE(is_power_of_two(-4));
  EXPECT_FALSE(is_power_of_two(1000));
  EXPECT_EQ(address_bits(1), 0);
  EXPECT_EQ(address_bits(16), 4);
}

TEST(Patterns, BitComplementOn16Nodes) {
  // 5 = 0101 -> 1010 = 10; 0 -> 1111 = 15.
  EXPECT_EQ(bit_complement(5, 4), 10);
  EXPECT_EQ(bit_complement(0, 4), 15);
  EXPECT_EQ(bit_complement(0, 0), 0);  // 1 node: the only address maps to itself
}

TEST(Patterns, BitReverseOn16Nodes) {
  // 1 = 0001 -> 1000 = 8; 6 = 0110 is a palindrome -> 6; 11 = 1011 -> 1101 = 13.
  EXPECT_EQ(bit_reverse(1, 4), 8);
  EXPECT_EQ(bit_reverse(6, 4), 6);
  EXPECT_EQ(bit_reverse(11, 4), 13);
}

TEST(Patterns, TransposeOn16Nodes) {
  // Halves (high, low) of 0111 are 01 and 11; swapped: 11 01 = 1101.
  EXPECT_EQ(transpose(0b0111, 4), 0b1101);
  // On 64 nodes (8 x 8): 0b101'001 = (x=1, y=5) -> 0b001'101.
  EXPECT_EQ(transpose(0b101001, 6), 0b001101);
  EXPECT_EQ(transpose(0b1010, 4), 0b1010);  // equal halves map to themselves
}

TEST(Patterns, ShuffleOn16Nodes) {
  // 1001 rotated left by one: the top 1 wraps to bit 0 -> 0011.
  EXPECT_EQ(shuffle(0b1001, 4), 0b0011);
  EXPECT_EQ(shuffle(0b0100, 4), 0b1000);
  EXPECT_EQ(shuffle(0, 0), 0);
}

TEST(Patterns, TornadoOn8NodesShiftsBy3) {
  // ceil(8/2) - 1 = 3: 0 -> 3, 5 -> 8 mod 8 = 0.
  EXPECT_EQ(tornado(0, 8), 3);
  EXPECT_EQ(tornado(5, 8), 0);
  // 7 nodes: ceil(7/2) - 1 = 3 as well; 6 -> 9 mod 7 = 2.
  EXPECT_EQ(tornado(6, 7), 2);
  EXPECT_EQ(tornado(0, 1), 0);
}

TEST(Patterns, NeighborWrapsAround) {
  EXPECT_EQ(neighbor(7, 8), 0);
  EXPECT_EQ(neighbor(3, 8), 4);
}

TEST(Patterns, BitPermutationsAreBijectionsOn64Nodes) {
  // Each is a permutation of the 6 address bits (or a complement), hence of the 64 addresses.
  using Fn = NodeId (*)(NodeId, int);
  for (Fn f : {Fn{bit_complement}, Fn{bit_reverse}, Fn{transpose}, Fn{shuffle}}) {
    std::vector<int> hits(64, 0);
    for (NodeId s = 0; s < 64; ++s) ++hits[static_cast<std::size_t>(f(s, 6))];
    for (int h : hits) EXPECT_EQ(h, 1);
  }
}

// They are constexpr: usable in tables built at compile time.
static_assert(bit_reverse(1, 4) == 8);
static_assert(tornado(0, 8) == 3);

}  // namespace
}  // namespace mppnet::workload
