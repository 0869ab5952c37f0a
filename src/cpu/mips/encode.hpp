// cpu/mips/encode.hpp: instruction words built from their fields (the encodings of the MIPS-II manual),
// for code that writes MIPS programs itself: tests, and validation cases that run hand-written code.
#pragma once

#include <cstdint>

namespace mppnet::cpu::mips::encode {

// Register numbers by their o32 names.
enum : unsigned {
  zero = 0,
  at = 1,
  v0 = 2,
  v1 = 3,
  a0 = 4,
  a1 = 5,
  t0 = 8,
  t1 = 9,
  t2 = 10,
  t3 = 11,
  s0 = 16,
  ra = 31
};

constexpr std::uint32_t r_type(unsigned funct, unsigned rs, unsigned rt, unsigned rd, unsigned shamt = 0) {
  return (rs << 21) | (rt << 16) | (rd << 11) | (shamt << 6) | funct;
}
constexpr std::uint32_t i_type(unsigned opcode, unsigned rs, unsigned rt, std::int32_t imm) {
  return (opcode << 26) | (rs << 21) | (rt << 16) | (static_cast<std::uint32_t>(imm) & 0xFFFF);
}
constexpr std::uint32_t j_type(unsigned opcode, std::uint32_t target) {
  return (opcode << 26) | ((target >> 2) & 0x03FFFFFF);
}
constexpr std::uint32_t regimm(unsigned rt_code, unsigned rs, std::int32_t imm) {
  return i_type(1, rs, rt_code, imm);
}

constexpr std::uint32_t kNop = 0;
constexpr std::uint32_t addu(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x21, rs, rt, rd);
}
constexpr std::uint32_t add(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x20, rs, rt, rd);
}
constexpr std::uint32_t addiu(unsigned rt, unsigned rs, std::int32_t imm) {
  return i_type(0x09, rs, rt, imm);
}
constexpr std::uint32_t lw(unsigned rt, std::int32_t offset, unsigned base) {
  return i_type(0x23, base, rt, offset);
}
constexpr std::uint32_t sw(unsigned rt, std::int32_t offset, unsigned base) {
  return i_type(0x2B, base, rt, offset);
}
constexpr std::uint32_t lui(unsigned rt, std::uint32_t imm) {
  return i_type(0x0F, 0, rt, static_cast<std::int32_t>(imm));
}
constexpr std::uint32_t ori(unsigned rt, unsigned rs, std::uint32_t imm) {
  return i_type(0x0D, rs, rt, static_cast<std::int32_t>(imm));
}
constexpr std::uint32_t or_(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x25, rs, rt, rd);
}
constexpr std::uint32_t mult(unsigned rs, unsigned rt) {
  return r_type(0x18, rs, rt, 0);
}
constexpr std::uint32_t div(unsigned rs, unsigned rt) {
  return r_type(0x1A, rs, rt, 0);
}
constexpr std::uint32_t mflo(unsigned rd) {
  return r_type(0x12, 0, 0, rd);
}
constexpr std::uint32_t mfhi(unsigned rd) {
  return r_type(0x10, 0, 0, rd);
}
constexpr std::uint32_t syscall() {
  return 0x0000000C;
}

}  // namespace mppnet::cpu::mips::encode
