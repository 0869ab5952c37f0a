// machines/metro/scan/instruction_test.cpp: the sparse instruction code (§5.3.1, L1920-1932).
#include "machines/metro/scan/instruction.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace mppnet::machines::metro::scan {
namespace {

TEST(SparseCode, AllZerosAndAllOnesNeverLegal) {
  // L1932: the words a stuck TDI or TDO line produces must not be legal codes.
  for (int m = 2; m <= 16; ++m) {
    const SparseCode code(m);
    EXPECT_FALSE(code.is_legal(0)) << "m = " << m;
    EXPECT_FALSE(code.is_legal(code.all_ones())) << "m = " << m;
  }
}

TEST(SparseCode, OneLegalCodePerDataWordSoRandomLoadsPassAtTwoToTheMinusM) {
  // L1928-1930: 2^n legal codes among 2^(n+m); n = 8, m = 8: 256 of 65,536 = 2^-8.
  const SparseCode code(8);
  int legal = 0;
  for (std::uint32_t w = 0; w <= code.all_ones(); ++w) legal += code.is_legal(w) ? 1 : 0;
  EXPECT_EQ(legal, 256);
  const SparseCode short_code(4);
  legal = 0;
  for (std::uint32_t w = 0; w <= short_code.all_ones(); ++w) legal += short_code.is_legal(w) ? 1 : 0;
  EXPECT_EQ(legal, 256);  // of 4,096: 2^-4
}

TEST(SparseCode, EveryInstructionRoundTrips) {
  const SparseCode code(8);
  const int ports = 8;
  std::vector<Instruction> all = {
      {Opcode::Bypass, 0}, {Opcode::Extest, 0}, {Opcode::PortSelect, 0}, {Opcode::Intest, 0}};
  for (int p = 0; p < ports; ++p) all.push_back({Opcode::PartialExtest, p});
  for (const Instruction& in : all) {
    const std::uint32_t w = code.encode(in, ports);
    EXPECT_TRUE(code.is_legal(w)) << describe(in);
    EXPECT_EQ(code.decode(w, ports), in) << describe(in);
  }
}

TEST(SparseCode, IllegalAndUndefinedCodesDecodeAsBypass) {
  const SparseCode code(8);
  const std::uint32_t w = code.encode({Opcode::PortSelect, 0}, 8);
  EXPECT_EQ(code.decode(w ^ (1u << 9), 8), Instruction{});  // one check bit wrong
  EXPECT_EQ(code.decode(w ^ 1u, 8), Instruction{});         // one data bit wrong
  // Opcode 5 with its right check: legal, but no instruction.
  const std::uint32_t undefined = (5u << 5) | (code.check_of(5u << 5) << 8);
  EXPECT_TRUE(code.is_legal(undefined));
  EXPECT_EQ(code.decode(undefined, 8), Instruction{});
  // A partial scan of a port this router lacks.
  const std::uint32_t port9 = (2u << 5) | 9u | (code.check_of((2u << 5) | 9u) << 8);
  EXPECT_EQ(code.decode(port9, 8), Instruction{});
}

TEST(SparseCode, EncodeRefusesAnInstructionOutsideTheEncoding) {
  const SparseCode code(8);
  try {
    code.encode({Opcode::PartialExtest, 8}, 8);
    FAIL() << "port 8 of an 8-port router was encoded";
  } catch (const core::ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "scan::SparseCode::encode: PARTIAL_EXTEST: port 8 is outside the encoding (this router has "
                 "ports 0..7)");
  }
  try {
    code.encode({static_cast<Opcode>(6), 0}, 8);
    FAIL() << "opcode 6 was encoded";
  } catch (const core::ConfigError& e) {
    EXPECT_STREQ(e.what(), "scan::SparseCode::encode: opcode 6 is outside the encoding (defined: 0..4)");
  }
  EXPECT_THROW(code.encode({Opcode::PortSelect, 3}, 8), core::ConfigError);
}

TEST(SparseCode, CheckLengthsOutsideTwoToSixteenAreRefused) {
  EXPECT_EQ(check_sparse_code(1).size(), 1u);
  EXPECT_EQ(check_sparse_code(17).size(), 1u);
  EXPECT_TRUE(check_sparse_code(2).empty());
  EXPECT_EQ(check_sparse_code(1)[0].key, "metro.scan.check_bits");
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
