// machines/cns1/ni_encode.hpp: the encodings of the T1's NI instructions (note 002 §3.5, §8) and a few
// more MIPS ones, for code that writes T1 programs itself: tests, and validation cases that run
// hand-written code on the machine.
#pragma once

#include <cstdint>

#include "cpu/mips/encode.hpp"

namespace mppnet::machines::cns1::encode {

using namespace cpu::mips::encode;

enum : unsigned { a2 = 6, a3 = 7, s1 = 17, s2 = 18, sp = 29 };

constexpr std::uint32_t kCop2 = 0x12u << 26;
constexpr std::uint32_t cfc2(unsigned rt, unsigned ni_register) {
  return kCop2 | (0x02u << 21) | (rt << 16) | (ni_register << 11);
}
constexpr std::uint32_t ctc2(unsigned rt, unsigned ni_register) {
  return kCop2 | (0x06u << 21) | (rt << 16) | (ni_register << 11);
}
constexpr std::uint32_t bc2f(std::int32_t offset) {
  return i_type(0x12, 8, 0, offset);
}
constexpr std::uint32_t bc2t(std::int32_t offset) {
  return i_type(0x12, 8, 1, offset);
}
constexpr std::uint32_t kHret = 0x4A00001C;

// funct of the eight forms (A7: bit 0 = V, bit 1 = H, bit 2 = MCST).
enum SendForm : unsigned {
  kSend = 0x20,
  kSendV = 0x21,
  kSendH = 0x22,
  kSendHV = 0x23,
  kMcst = 0x24,
  kMcstV = 0x25,
  kMcstH = 0x26,
  kMcstHV = 0x27,
};
// SEND n / MCST n: n scalar words, destination GPR[rd], handler GPR[rt], vector register vd (.V forms).
constexpr std::uint32_t send(SendForm form, unsigned n, unsigned rd, unsigned rt, unsigned vd = 0) {
  return kCop2 | (1u << 25) | (n << 21) | (rt << 16) | (rd << 11) | (vd << 6) | form;
}

constexpr std::uint32_t beq(unsigned rs, unsigned rt, std::int32_t offset) {
  return i_type(0x04, rs, rt, offset);
}
constexpr std::uint32_t bne(unsigned rs, unsigned rt, std::int32_t offset) {
  return i_type(0x05, rs, rt, offset);
}
constexpr std::uint32_t andi(unsigned rt, unsigned rs, std::uint32_t imm) {
  return i_type(0x0C, rs, rt, static_cast<std::int32_t>(imm));
}
constexpr std::uint32_t bltz(unsigned rs, std::int32_t offset) {
  return regimm(0, rs, offset);
}
constexpr std::uint32_t sll(unsigned rd, unsigned rt, unsigned sa) {
  return r_type(0x00, 0, rt, rd, sa);
}

}  // namespace mppnet::machines::cns1::encode
