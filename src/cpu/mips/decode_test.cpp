// cpu/mips/decode_test.cpp: instruction words as the GNU assembler encodes them (checked with
// mips-linux-gnu-as / objdump) to operations and fields.
#include "cpu/mips/instruction.hpp"

#include <gtest/gtest.h>

namespace mppnet::cpu::mips::decode_test {
namespace {

TEST(MipsDecode, FieldsAndSignExtendedImmediate) {
  const Instruction in = decode(0x2508fffc);  // addiu $t0, $t0, -4
  EXPECT_EQ(in.op, Op::Addiu);
  EXPECT_EQ(in.rs, 8);
  EXPECT_EQ(in.rt, 8);
  EXPECT_EQ(in.imm, 0xfffffffcu);
  EXPECT_EQ(in.reads, 1u << 8);
}

TEST(MipsDecode, LogicalImmediatesAreZeroExtended) {
  EXPECT_EQ(decode(0x3508ffff).op, Op::Ori);  // ori $t0, $t0, 0xffff
  EXPECT_EQ(decode(0x3508ffff).imm, 0x0000ffffu);
  EXPECT_EQ(decode(0x3c08ffff).imm, 0x0000ffffu);  // lui $t0, 0xffff
}

TEST(MipsDecode, SpecialAndRegimmAndJumps) {
  EXPECT_EQ(decode(0x00000000).op, Op::Sll);  // nop
  EXPECT_EQ(decode(0x03e00008).op, Op::Jr);   // jr $ra
  EXPECT_EQ(decode(0x03e00008).reads, 1u << 31);
  EXPECT_EQ(decode(0x0000000c).op, Op::Syscall);
  EXPECT_EQ(decode(0x0000000f).op, Op::Sync);
  EXPECT_EQ(decode(0x010001f4).op, Op::Teq);     // teq $t0, $zero, 7
  EXPECT_EQ(decode(0x04110003).op, Op::Bgezal);  // bal (bgezal $zero)
  EXPECT_EQ(decode(0x0c100060).op, Op::Jal);
  EXPECT_EQ(decode(0x0c100060).imm, 0x100060u);
  EXPECT_EQ(decode(0x51000002).op, Op::Beql);
  EXPECT_EQ(decode(0x88a40001).op, Op::Lwl);  // lwl $a0, 1($a1): reads $a1 and the merged $a0
  EXPECT_EQ(decode(0x88a40001).reads, (1u << 5) | (1u << 4));
  EXPECT_EQ(decode(0xc0a40000).op, Op::Ll);
  EXPECT_EQ(decode(0xe0a40000).op, Op::Sc);
}

TEST(MipsDecode, ReservedEncodings) {
  EXPECT_EQ(decode(0x71095002).op, Op::Reserved);  // MIPS32 mul $t2,$t0,$t1 (SPECIAL2): not MIPS II
  EXPECT_EQ(decode(0x0000000e).op, Op::Reserved);  // SPECIAL funct 0x0e
  EXPECT_EQ(decode(0x7c000000).op, Op::Reserved);  // SPECIAL3 (MIPS32r2)
  EXPECT_EQ(decode(0xdc000000).op, Op::Reserved);  // ld (MIPS III)
  EXPECT_EQ(decode(0x04050000).op, Op::Reserved);  // REGIMM rt = 5
  EXPECT_EQ(decode(0x0000000e).reads, 0u);
}

TEST(MipsDecode, CoprocessorClasses) {
  EXPECT_EQ(decode(0x40086000).op, Op::Cop0);  // mfc0 $t0, $12
  EXPECT_EQ(decode(0x44080000).op, Op::Cop1);
  EXPECT_EQ(decode(0x44080000).coprocessor, 1);
  EXPECT_EQ(decode(0x4a00001c).op, Op::Cop2);  // the T1's HRET
  EXPECT_EQ(decode(0x49000003).op, Op::Bc2f);  // bc2f +3
  EXPECT_EQ(decode(0x49010003).op, Op::Bc2t);
  EXPECT_EQ(decode(0x49020003).op, Op::Bc2fl);
  EXPECT_EQ(decode(0x49030003).op, Op::Bc2tl);
  EXPECT_EQ(decode(0x48c81800).op, Op::Cop2);  // ctc2 $t0, $3: reads $t0
  EXPECT_EQ(decode(0x48c81800).reads, 1u << 8);
  EXPECT_EQ(decode(0xc8a40000).op, Op::CopLoadStore);  // lwc2
  EXPECT_EQ(decode(0xc8a40000).coprocessor, 2);
}

}  // namespace
}  // namespace mppnet::cpu::mips::decode_test
