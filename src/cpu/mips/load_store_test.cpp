// cpu/mips/load_store_test.cpp: loads and stores, the unaligned LWL/LWR/SWL/SWR, LL/SC, and the address
// and bus errors of bad accesses; expected bytes worked out by hand for a big-endian memory.
#include <gtest/gtest.h>

#include "cpu/mips/cpu.hpp"
#include "cpu/mips/encode_testing.hpp"

namespace mppnet::cpu::mips::load_store_test {
namespace {

using namespace testing;

constexpr std::uint32_t load(unsigned opcode, unsigned rt, std::int32_t offset) {
  return i_type(opcode, s0, rt, offset);  // base $s0 = kData (set by the first instruction of each test)
}
constexpr std::uint32_t kSetBase = lui(s0, 1);  // $s0 = 0x10000 = Machine::kData

void put_bytes(Memory& memory, std::uint32_t address, std::initializer_list<std::uint8_t> bytes) {
  for (std::uint8_t b : bytes) ASSERT_EQ(memory.store8(address++, b), Access::Ok);
}

std::uint32_t word_at(Memory& memory, std::uint32_t address) {
  std::uint32_t w = 0;
  EXPECT_EQ(memory.load32(address, w), Access::Ok);
  return w;
}

TEST(MipsLoadStore, ByteAndHalfLoadsExtendBySignOrZero) {
  Machine m({kSetBase, load(0x20, t0, 0), load(0x24, t1, 0), load(0x21, t2, 2), load(0x25, t3, 2),
             load(0x23, a0, 0)});
  put_bytes(m.memory, Machine::kData, {0x80, 0x01, 0xff, 0xfe});
  m.steps(6);
  EXPECT_EQ(m.cpu.gpr(t0), 0xffffff80u);  // lb
  EXPECT_EQ(m.cpu.gpr(t1), 0x00000080u);  // lbu
  EXPECT_EQ(m.cpu.gpr(t2), 0xfffffffeu);  // lh of 0xfffe
  EXPECT_EQ(m.cpu.gpr(t3), 0x0000fffeu);  // lhu
  EXPECT_EQ(m.cpu.gpr(a0), 0x8001fffeu);  // lw: big-endian
}

TEST(MipsLoadStore, StoresAreBigEndian) {
  Machine m({kSetBase, lui(t0, 0x1122), ori(t0, t0, 0x3344), sw(t0, 0, s0), i_type(0x29, s0, t0, 4),
             i_type(0x28, s0, t0, 7)});
  m.steps(6);
  EXPECT_EQ(word_at(m.memory, Machine::kData), 0x11223344u);
  EXPECT_EQ(word_at(m.memory, Machine::kData + 4), 0x33440044u);  // sh 0x3344 at +4, sb 0x44 at +7
}

TEST(MipsLoadStore, LwlThenLwrLoadAnUnalignedWord) {
  // Bytes 00 11 22 33 | 44 55 66 77; rt starts as 0xaabbccdd. LWL at +1 takes bytes 1..3 into rt's top
  // three bytes: 0x112233dd. LWR at +4 takes byte 4 into rt's low byte: 0x11223344.
  Machine m({kSetBase, lui(t0, 0xaabb), ori(t0, t0, 0xccdd), load(0x22, t0, 1), load(0x26, t0, 4)});
  put_bytes(m.memory, Machine::kData, {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77});
  m.steps(4);
  EXPECT_EQ(m.cpu.gpr(t0), 0x112233ddu);
  m.steps(1);
  EXPECT_EQ(m.cpu.gpr(t0), 0x11223344u);
}

TEST(MipsLoadStore, LwlAndLwrAtEachByteOffset) {
  // rt = 0xaabbccdd, word 0x00112233 at kData. LWL at offset b: word << 8b | rt's low b bytes.
  // LWR at offset b: word >> 8(3-b) | rt's high 3-b bytes.
  const std::uint32_t lwl_expected[4] = {0x00112233u, 0x112233ddu, 0x2233ccddu, 0x33bbccddu};
  const std::uint32_t lwr_expected[4] = {0xaabbcc00u, 0xaabb0011u, 0xaa001122u, 0x00112233u};
  for (int b = 0; b < 4; ++b) {
    Machine m({kSetBase, lui(t0, 0xaabb), ori(t0, t0, 0xccdd), load(0x22, t0, b), lui(t1, 0xaabb),
               ori(t1, t1, 0xccdd), load(0x26, t1, b)});
    put_bytes(m.memory, Machine::kData, {0x00, 0x11, 0x22, 0x33});
    m.steps(7);
    EXPECT_EQ(m.cpu.gpr(t0), lwl_expected[b]) << "lwl offset " << b;
    EXPECT_EQ(m.cpu.gpr(t1), lwr_expected[b]) << "lwr offset " << b;
  }
}

TEST(MipsLoadStore, SwlAndSwrStoreAnUnalignedWord) {
  // Store 0xa1b2c3d4 at kData + 1 over bytes 00 11 22 33 | 44 55 66 77: SWL at +1 writes bytes 1..3 with
  // a1 b2 c3; SWR at +4 writes byte 4 with d4.
  Machine m(
      {kSetBase, lui(t0, 0xa1b2), ori(t0, t0, 0xc3d4), i_type(0x2A, s0, t0, 1), i_type(0x2E, s0, t0, 4)});
  put_bytes(m.memory, Machine::kData, {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77});
  m.steps(5);
  EXPECT_EQ(word_at(m.memory, Machine::kData), 0x00a1b2c3u);
  EXPECT_EQ(word_at(m.memory, Machine::kData + 4), 0xd4556677u);
}

TEST(MipsLoadStore, SwlAndSwrAtEachByteOffset) {
  // Over 0x00112233 with rt = 0xa1b2c3d4. SWL at b writes rt's top 4-b bytes to bytes b..3; SWR at b
  // writes rt's low b+1 bytes to bytes 0..b.
  const std::uint32_t swl_expected[4] = {0xa1b2c3d4u, 0x00a1b2c3u, 0x0011a1b2u, 0x001122a1u};
  const std::uint32_t swr_expected[4] = {0xd4112233u, 0xc3d42233u, 0xb2c3d433u, 0xa1b2c3d4u};
  for (int b = 0; b < 4; ++b) {
    Machine m({kSetBase, lui(t0, 0xa1b2), ori(t0, t0, 0xc3d4), i_type(0x2A, s0, t0, b),
               i_type(0x2E, s0, t0, 4 + b)});
    put_bytes(m.memory, Machine::kData, {0x00, 0x11, 0x22, 0x33, 0x00, 0x11, 0x22, 0x33});
    m.steps(5);
    EXPECT_EQ(word_at(m.memory, Machine::kData), swl_expected[b]) << "swl offset " << b;
    EXPECT_EQ(word_at(m.memory, Machine::kData + 4), swr_expected[b]) << "swr offset " << b;
  }
}

TEST(MipsLoadStore, LoadLinkedAndStoreConditionalAlwaysSucceedOnOneProcessor) {
  Machine m({kSetBase, addiu(t0, zero, 77), i_type(0x38, s0, t0, 0), load(0x30, t1, 0)});
  m.steps(4);
  EXPECT_EQ(m.cpu.gpr(t0), 1u);  // SC writes 1 (success) into rt
  EXPECT_EQ(m.cpu.gpr(t1), 77u);
}

TEST(MipsLoadStore, MisalignedWordLoadIsAnAddressErrorWithTheBadAddress) {
  Machine m({kSetBase, load(0x23, t0, 2)});
  m.steps(1);
  EXPECT_EQ(m.cpu.step(), Exception::AddressErrorLoad);
  EXPECT_EQ(m.cpu.fault().bad_address, Machine::kData + 2);
  EXPECT_EQ(m.cpu.fault().pc, Machine::kCode + 4);
  EXPECT_EQ(m.cpu.gpr(t0), 0u);
}

TEST(MipsLoadStore, MisalignedStoresAreAddressErrorsAndChangeNothing) {
  Machine m({kSetBase, addiu(t0, zero, -1), i_type(0x29, s0, t0, 1), sw(t0, 6, s0)});
  m.steps(2);
  EXPECT_EQ(m.cpu.step(), Exception::AddressErrorStore);
  EXPECT_EQ(word_at(m.memory, Machine::kData), 0u);
  m.cpu.jump_to(Machine::kCode + 12);
  EXPECT_EQ(m.cpu.step(), Exception::AddressErrorStore);
  EXPECT_EQ(m.cpu.fault().bad_address, Machine::kData + 6);
}

TEST(MipsLoadStore, UnmappedAccessesAreBusErrors) {
  // 0x20000 is mapped by nobody; an SWL there must not half-write anything either.
  Machine m({lui(s0, 2), load(0x23, t0, 0), sw(t0, 0, s0), i_type(0x2A, s0, t0, 1)});
  m.steps(1);
  EXPECT_EQ(m.cpu.step(), Exception::BusErrorLoad);
  EXPECT_EQ(m.cpu.fault().bad_address, 0x20000u);
  m.cpu.jump_to(Machine::kCode + 8);
  EXPECT_EQ(m.cpu.step(), Exception::BusErrorStore);
  m.cpu.jump_to(Machine::kCode + 12);
  EXPECT_EQ(m.cpu.step(), Exception::BusErrorStore);
  EXPECT_EQ(m.cpu.fault().bad_address, 0x20001u);
}

TEST(MipsLoadStore, KernelAddressesAreAddressErrorsInUserMode) {
  Machine m({lui(s0, 0x8000), load(0x20, t0, 0)});
  m.steps(1);
  EXPECT_EQ(m.cpu.step(), Exception::AddressErrorLoad);
  EXPECT_EQ(m.cpu.fault().bad_address, 0x80000000u);
}

TEST(MipsLoadStore, JumpOutsideTheCodeFaultsOnTheFetch) {
  // jr to 0x30000 (unmapped): the jump and its delay slot complete; the fetch at the target faults.
  Machine m({lui(t0, 3), r_type(0x08, t0, 0, 0), kNop});
  m.steps(3);
  EXPECT_EQ(m.cpu.step(), Exception::BusErrorLoad);
  EXPECT_EQ(m.cpu.fault().pc, 0x30000u);
  EXPECT_EQ(m.cpu.fault().instruction, 0u);
  // A misaligned target is an address error at the fetch.
  Machine n({addiu(t0, zero, 0x1002), r_type(0x08, t0, 0, 0), kNop});
  n.steps(3);
  EXPECT_EQ(n.cpu.step(), Exception::AddressErrorLoad);
  EXPECT_EQ(n.cpu.fault().bad_address, 0x1002u);
}

}  // namespace
}  // namespace mppnet::cpu::mips::load_store_test
