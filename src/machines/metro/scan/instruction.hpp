// machines/metro/scan/instruction.hpp: a METRO router's scan instructions and their sparse encoding.
//
// Sparse encoding (§5.3.1, L1920-1930): an instruction is n data bits followed by an m-bit check on them,
// so of the 2^(n+m) words a TAP can load, 2^n are legal and a load of random data is legal with
// probability 2^-m. Every word that is not a legal code, and every legal code that names no instruction,
// decodes as BYPASS, which takes no shared resource (L1915-1918). The all-zeros and all-ones words are
// never legal: a stuck TDI or TDO line produces them (L1918, L1932).
//
// The check is a CRC of degree m over the n data bits, offset by a constant so that the all-zeros data
// word does not get the all-zeros check (the thesis only asks for "an m-bit checksum"; docs/assumptions.md).
// The instruction set is mppnet's: the thesis names the behaviours (BYPASS, boundary scan of the whole
// part or of one port, the port (de)select configuration register, internal test: §2.2, §5.3.2-5.3.3)
// but prints no opcodes. Data word: opcode in bits 7..5, port in bits 4..0 (n = 8).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/problem.hpp"

namespace mppnet::machines::metro::scan {

enum class Opcode : std::uint8_t {
  Bypass = 0,         // the 1-bit bypass register (also every illegal code)
  Extest = 1,         // the whole boundary register: every port's segment
  PartialExtest = 2,  // one port's boundary segment (§5.3.3, partial-external scan)
  PortSelect = 3,     // the port (de)select configuration register, 1 bit per port (§5.3.2; Table 9.2)
  Intest = 4,         // the internal self-test chain: a signature of the router's own test
};
inline constexpr int kOpcodes = 5;

struct Instruction {
  Opcode op = Opcode::Bypass;
  int port = 0;  // PartialExtest: the port (forward ports 0..i-1, then backward ports i..i+o-1); else 0
  bool operator==(const Instruction&) const = default;
};

// "BYPASS", "PARTIAL_EXTEST(5)".
std::string describe(Instruction in);

class SparseCode {
 public:
  static constexpr int kDataBits = 8;  // n: 3 opcode bits, 5 port bits
  static constexpr int kMaxPorts = 32;

  // REQUIRES: check_sparse_code(check_bits).empty().
  explicit SparseCode(int check_bits = 8);

  int data_bits() const { return kDataBits; }
  int check_bits() const { return m_; }
  int length() const { return kDataBits + m_; }  // bits of an instruction register
  std::uint32_t all_ones() const { return (std::uint32_t{1} << length()) - 1; }

  // The m-bit check of an n-bit data word.
  std::uint32_t check_of(std::uint32_t data) const;
  // A legal code: its check bits are the check of its data bits.
  bool is_legal(std::uint32_t code) const;
  // What a TAP loads from a code: the instruction, or BYPASS for an illegal or undefined one.
  Instruction decode(std::uint32_t code, int ports) const;
  // The legal code of an instruction. An instruction outside the encoding (an opcode not defined, a port
  // the router does not have, a port on an instruction that takes none) is refused: throws
  // core::ConfigError naming the call and the reason.
  std::uint32_t encode(Instruction in, int ports) const;

 private:
  int m_;
  std::uint32_t poly_ = 0, offset_ = 0;
};

// Why a check length cannot be used (m in 2..16).
std::vector<core::Problem> check_sparse_code(int check_bits);

}  // namespace mppnet::machines::metro::scan
