// cpu/mips/decode.cpp: instruction words to Instruction (opcode tables of the MIPS-II ISA, Kane & Heinrich,
// "MIPS RISC Architecture", appendix A; MIPS IV Instruction Set manual for the opcode maps).
#include "cpu/mips/instruction.hpp"

namespace mppnet::cpu::mips {
namespace {

constexpr std::uint32_t bit(unsigned r) {
  return r == 0 ? 0u : (1u << r);
}

// Which of rs and rt an operation reads.
enum Uses : unsigned { kNone = 0, kRs = 1, kRt = 2, kBoth = 3 };

Op special(unsigned funct, unsigned& uses) {
  switch (funct) {
    case 0x00:
      uses = kRt;
      return Op::Sll;
    case 0x02:
      uses = kRt;
      return Op::Srl;
    case 0x03:
      uses = kRt;
      return Op::Sra;
    case 0x04:
      uses = kBoth;
      return Op::Sllv;
    case 0x06:
      uses = kBoth;
      return Op::Srlv;
    case 0x07:
      uses = kBoth;
      return Op::Srav;
    case 0x08:
      uses = kRs;
      return Op::Jr;
    case 0x09:
      uses = kRs;
      return Op::Jalr;
    case 0x0C:
      return Op::Syscall;
    case 0x0D:
      return Op::Break;
    case 0x0F:
      return Op::Sync;
    case 0x10:
      return Op::Mfhi;
    case 0x11:
      uses = kRs;
      return Op::Mthi;
    case 0x12:
      return Op::Mflo;
    case 0x13:
      uses = kRs;
      return Op::Mtlo;
    case 0x18:
      uses = kBoth;
      return Op::Mult;
    case 0x19:
      uses = kBoth;
      return Op::Multu;
    case 0x1A:
      uses = kBoth;
      return Op::Div;
    case 0x1B:
      uses = kBoth;
      return Op::Divu;
    case 0x20:
      uses = kBoth;
      return Op::Add;
    case 0x21:
      uses = kBoth;
      return Op::Addu;
    case 0x22:
      uses = kBoth;
      return Op::Sub;
    case 0x23:
      uses = kBoth;
      return Op::Subu;
    case 0x24:
      uses = kBoth;
      return Op::And;
    case 0x25:
      uses = kBoth;
      return Op::Or;
    case 0x26:
      uses = kBoth;
      return Op::Xor;
    case 0x27:
      uses = kBoth;
      return Op::Nor;
    case 0x2A:
      uses = kBoth;
      return Op::Slt;
    case 0x2B:
      uses = kBoth;
      return Op::Sltu;
    case 0x30:
      uses = kBoth;
      return Op::Tge;
    case 0x31:
      uses = kBoth;
      return Op::Tgeu;
    case 0x32:
      uses = kBoth;
      return Op::Tlt;
    case 0x33:
      uses = kBoth;
      return Op::Tltu;
    case 0x34:
      uses = kBoth;
      return Op::Teq;
    case 0x36:
      uses = kBoth;
      return Op::Tne;
    default:
      return Op::Reserved;
  }
}

Op regimm(unsigned rt) {
  switch (rt) {
    case 0x00:
      return Op::Bltz;
    case 0x01:
      return Op::Bgez;
    case 0x02:
      return Op::Bltzl;
    case 0x03:
      return Op::Bgezl;
    case 0x08:
      return Op::Tgei;
    case 0x09:
      return Op::Tgeiu;
    case 0x0A:
      return Op::Tlti;
    case 0x0B:
      return Op::Tltiu;
    case 0x0C:
      return Op::Teqi;
    case 0x0E:
      return Op::Tnei;
    case 0x10:
      return Op::Bltzal;
    case 0x11:
      return Op::Bgezal;
    case 0x12:
      return Op::Bltzall;
    case 0x13:
      return Op::Bgezall;
    default:
      return Op::Reserved;
  }
}

// Opcodes 0x02..0x3F outside SPECIAL and REGIMM; `uses` is set for those that read registers.
Op primary(unsigned opcode, unsigned& uses) {
  switch (opcode) {
    case 0x02:
      return Op::J;
    case 0x03:
      return Op::Jal;
    case 0x04:
      uses = kBoth;
      return Op::Beq;
    case 0x05:
      uses = kBoth;
      return Op::Bne;
    case 0x06:
      uses = kRs;
      return Op::Blez;
    case 0x07:
      uses = kRs;
      return Op::Bgtz;
    case 0x08:
      uses = kRs;
      return Op::Addi;
    case 0x09:
      uses = kRs;
      return Op::Addiu;
    case 0x0A:
      uses = kRs;
      return Op::Slti;
    case 0x0B:
      uses = kRs;
      return Op::Sltiu;
    case 0x0C:
      uses = kRs;
      return Op::Andi;
    case 0x0D:
      uses = kRs;
      return Op::Ori;
    case 0x0E:
      uses = kRs;
      return Op::Xori;
    case 0x0F:
      return Op::Lui;
    case 0x10:
      return Op::Cop0;
    case 0x11:
      return Op::Cop1;
    case 0x12:
      return Op::Cop2;
    case 0x13:
      return Op::Cop3;
    case 0x14:
      uses = kBoth;
      return Op::Beql;
    case 0x15:
      uses = kBoth;
      return Op::Bnel;
    case 0x16:
      uses = kRs;
      return Op::Blezl;
    case 0x17:
      uses = kRs;
      return Op::Bgtzl;
    case 0x20:
      uses = kRs;
      return Op::Lb;
    case 0x21:
      uses = kRs;
      return Op::Lh;
    case 0x22:
      uses = kBoth;
      return Op::Lwl;  // merges into rt
    case 0x23:
      uses = kRs;
      return Op::Lw;
    case 0x24:
      uses = kRs;
      return Op::Lbu;
    case 0x25:
      uses = kRs;
      return Op::Lhu;
    case 0x26:
      uses = kBoth;
      return Op::Lwr;
    case 0x28:
      uses = kBoth;
      return Op::Sb;
    case 0x29:
      uses = kBoth;
      return Op::Sh;
    case 0x2A:
      uses = kBoth;
      return Op::Swl;
    case 0x2B:
      uses = kBoth;
      return Op::Sw;
    case 0x2E:
      uses = kBoth;
      return Op::Swr;
    case 0x30:
      uses = kRs;
      return Op::Ll;
    case 0x38:
      uses = kBoth;
      return Op::Sc;
    // LWCz, LDCz (0x31-0x33, 0x35-0x36) and SWCz, SDCz (0x39-0x3B, 0x3D-0x3E): MIPS II's coprocessor
    // loads and stores. LDC3/SDC3 (0x37, 0x3F) are MIPS III's LD/SD: reserved here.
    case 0x31:
    case 0x32:
    case 0x33:
    case 0x35:
    case 0x36:
    case 0x39:
    case 0x3A:
    case 0x3B:
    case 0x3D:
    case 0x3E:
      uses = kRs;
      return Op::CopLoadStore;
    default:
      return Op::Reserved;
  }
}

}  // namespace

Instruction decode(std::uint32_t word) {
  Instruction in;
  in.word = word;
  const unsigned opcode = word >> 26;
  in.rs = static_cast<std::uint8_t>((word >> 21) & 31);
  in.rt = static_cast<std::uint8_t>((word >> 16) & 31);
  in.rd = static_cast<std::uint8_t>((word >> 11) & 31);
  in.shamt = static_cast<std::uint8_t>((word >> 6) & 31);
  const std::uint32_t imm16 = word & 0xFFFF;
  in.imm = static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(imm16)));
  unsigned uses = kNone;
  switch (opcode) {
    case 0x00:
      in.op = special(word & 0x3F, uses);
      break;
    case 0x01:
      in.op = regimm(in.rt);
      uses = kRs;
      break;
    default:
      in.op = primary(opcode, uses);
      break;
  }
  switch (in.op) {
    case Op::Andi:
    case Op::Ori:
    case Op::Xori:
    case Op::Lui:
      in.imm = imm16;
      break;
    case Op::J:
    case Op::Jal:
      in.imm = word & 0x03FFFFFF;
      break;
    case Op::Cop0:
    case Op::Cop1:
    case Op::Cop2:
    case Op::Cop3:
    case Op::CopLoadStore:
      in.coprocessor = static_cast<std::uint8_t>((word >> 26) & 3);
      break;
    default:
      break;
  }
  // COP2's BC sub-opcode (rs = 01000) is a branch on the coprocessor's condition, executed by the core;
  // every other COP2 instruction goes to the coprocessor (cpu/mips/coprocessor.hpp).
  if (in.op == Op::Cop2 && in.rs == 0x08) {
    static constexpr Op kBranches[4] = {Op::Bc2f, Op::Bc2t, Op::Bc2fl, Op::Bc2tl};
    in.op = (in.rt < 4) ? kBranches[in.rt] : Op::Reserved;
  }
  // MTC2 and CTC2 read rt, so a load right before them interlocks as before any other use.
  if (in.op == Op::Cop2 && (in.rs == 0x04 || in.rs == 0x06)) uses = kRt;
  if (in.op == Op::Reserved) uses = kNone;
  in.reads = ((uses & kRs) ? bit(in.rs) : 0u) | ((uses & kRt) ? bit(in.rt) : 0u);
  return in;
}

}  // namespace mppnet::cpu::mips
