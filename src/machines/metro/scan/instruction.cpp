// machines/metro/scan/instruction.cpp: the sparse instruction code (§5.3.1, L1920-1932).
#include "machines/metro/scan/instruction.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::metro::scan {

namespace {

// CRC generator polynomials of degree 2..16, x^m implicit (low terms of primitive polynomials; any
// degree-m generator gives the 2^-m rate, which only counts legal codes).
constexpr std::uint32_t kPolynomials[17] = {0,    0,   0x3, 0x3,  0x3,  0x5,  0x3, 0x3,   0x1D,
                                            0x11, 0x9, 0x5, 0x53, 0x1B, 0x2B, 0x3, 0x100B};

const char* opcode_name(Opcode op) {
  switch (op) {
    case Opcode::Bypass:
      return "BYPASS";
    case Opcode::Extest:
      return "EXTEST";
    case Opcode::PartialExtest:
      return "PARTIAL_EXTEST";
    case Opcode::PortSelect:
      return "PORT_SELECT";
    case Opcode::Intest:
      return "INTEST";
  }
  return "?";
}

}  // namespace

std::string describe(Instruction in) {
  if (in.op == Opcode::PartialExtest) return fmt::format("PARTIAL_EXTEST({})", in.port);
  return opcode_name(in.op);
}

std::vector<core::Problem> check_sparse_code(int check_bits) {
  std::vector<core::Problem> out;
  if (check_bits < 2 || check_bits > 16)
    out.push_back(
        {"metro.scan.check_bits",
         fmt::format("{} check bits: the sparse code takes 2..16 (a 1-bit check cannot keep both the "
                     "all-zeros and all-ones words illegal)",
                     check_bits)});
  return out;
}

SparseCode::SparseCode(int check_bits) : m_(check_bits) {
  MPPNET_ASSERT(check_sparse_code(check_bits).empty(), "SparseCode check length");
  poly_ = kPolynomials[m_];
  const std::uint32_t mask = (std::uint32_t{1} << m_) - 1;
  // The CRC of 0 is 0, so the offset keeps the all-zeros word illegal; flipping its low bit (it stays
  // nonzero, m >= 2) keeps the all-ones word illegal too.
  offset_ = 0xAAAAu & mask;
  if (check_of((std::uint32_t{1} << kDataBits) - 1) == mask) offset_ ^= 1;
}

std::uint32_t SparseCode::check_of(std::uint32_t data) const {
  const std::uint32_t mask = (std::uint32_t{1} << m_) - 1;
  std::uint32_t reg = 0;
  for (int b = kDataBits - 1; b >= 0; --b) {
    const std::uint32_t feedback = ((reg >> (m_ - 1)) ^ (data >> b)) & 1;
    reg = (reg << 1) & mask;
    if (feedback) reg ^= poly_;
  }
  return reg ^ offset_;
}

bool SparseCode::is_legal(std::uint32_t code) const {
  const std::uint32_t data = code & ((std::uint32_t{1} << kDataBits) - 1);
  return (code >> kDataBits) == check_of(data) && (code >> length()) == 0;
}

Instruction SparseCode::decode(std::uint32_t code, int ports) const {
  if (!is_legal(code)) return {};
  const int op = static_cast<int>((code >> 5) & 0x7), port = static_cast<int>(code & 0x1F);
  if (op >= kOpcodes) return {};
  const Instruction in{static_cast<Opcode>(op), port};
  if (in.op == Opcode::PartialExtest ? port >= ports : port != 0) return {};
  return in;
}

std::uint32_t SparseCode::encode(Instruction in, int ports) const {
  const int op = static_cast<int>(in.op);
  if (op < 0 || op >= kOpcodes)
    throw core::ConfigError(
        {}, "scan::SparseCode::encode",
        fmt::format("opcode {} is outside the encoding (defined: 0..{})", op, kOpcodes - 1));
  if (in.op == Opcode::PartialExtest && (in.port < 0 || in.port >= ports))
    throw core::ConfigError({}, "scan::SparseCode::encode",
                            fmt::format("{}: port {} is outside the encoding (this router has ports 0..{})",
                                        opcode_name(in.op), in.port, ports - 1));
  if (in.op != Opcode::PartialExtest && in.port != 0)
    throw core::ConfigError(
        {}, "scan::SparseCode::encode",
        fmt::format("{} takes no port (got port {}): outside the encoding", opcode_name(in.op), in.port));
  const std::uint32_t data = (static_cast<std::uint32_t>(op) << 5) | static_cast<std::uint32_t>(in.port);
  return data | (check_of(data) << kDataBits);
}

}  // namespace mppnet::machines::metro::scan
