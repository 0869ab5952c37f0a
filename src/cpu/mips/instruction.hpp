// cpu/mips/instruction.hpp: a decoded MIPS-II instruction (operation, fields, registers it reads).
#pragma once

#include <cstdint>

namespace mppnet::cpu::mips {

// Every MIPS-II user-mode integer operation, plus the coprocessor classes the core hands on. Names are the
// assembler's mnemonics.
enum class Op : std::uint8_t {
  Reserved,  // no MIPS-II user-mode instruction: raises ReservedInstruction
  // Shifts
  Sll,
  Srl,
  Sra,
  Sllv,
  Srlv,
  Srav,
  // Jumps and branches (the *l forms are MIPS II's "likely": the delay slot is annulled when not taken)
  Jr,
  Jalr,
  J,
  Jal,
  Beq,
  Bne,
  Blez,
  Bgtz,
  Beql,
  Bnel,
  Blezl,
  Bgtzl,
  Bltz,
  Bgez,
  Bltzl,
  Bgezl,
  Bltzal,
  Bgezal,
  Bltzall,
  Bgezall,
  // System
  Syscall,
  Break,
  Sync,
  // HI/LO
  Mfhi,
  Mthi,
  Mflo,
  Mtlo,
  Mult,
  Multu,
  Div,
  Divu,
  // Three-register ALU
  Add,
  Addu,
  Sub,
  Subu,
  And,
  Or,
  Xor,
  Nor,
  Slt,
  Sltu,
  // Traps
  Tge,
  Tgeu,
  Tlt,
  Tltu,
  Teq,
  Tne,
  Tgei,
  Tgeiu,
  Tlti,
  Tltiu,
  Teqi,
  Tnei,
  // Immediate ALU
  Addi,
  Addiu,
  Slti,
  Sltiu,
  Andi,
  Ori,
  Xori,
  Lui,
  // Loads and stores (LL/SC are a load and a store that always succeeds: one processor, no other writer)
  Lb,
  Lh,
  Lwl,
  Lw,
  Lbu,
  Lhu,
  Lwr,
  Sb,
  Sh,
  Swl,
  Sw,
  Swr,
  Ll,
  Sc,
  // Coprocessors: Cop0 (privileged), Cop1 (no FPU here), Cop2 (the attached coprocessor, e.g. the T1's
  // NI), Cop3; the COP2 branches on its condition; loads and stores to coprocessor registers.
  Cop0,
  Cop1,
  Cop2,
  Cop3,
  Bc2f,
  Bc2t,
  Bc2fl,
  Bc2tl,
  CopLoadStore,
};

struct Instruction {
  Op op = Op::Reserved;
  std::uint8_t rs = 0;
  std::uint8_t rt = 0;
  std::uint8_t rd = 0;
  std::uint8_t shamt = 0;
  // The immediate as the operation uses it: sign-extended for arithmetic, compares, loads, stores and
  // branches; zero-extended for ANDI, ORI, XORI; the 26-bit index for J and JAL.
  std::uint32_t imm = 0;
  // The general registers the instruction reads, one bit each ($0 never set): the load-use interlock
  // stalls an instruction whose mask holds the register a load in the cycle before it writes.
  std::uint32_t reads = 0;
  std::uint8_t coprocessor = 0;  // for Cop* and CopLoadStore
  std::uint32_t word = 0;        // the raw instruction
};

// Decodes one instruction word. Never fails: an encoding outside MIPS II user mode gives Op::Reserved.
Instruction decode(std::uint32_t word);

// True for the operations that read memory into rt (the producers of the load-use interlock).
constexpr bool is_load(Op op) {
  return op == Op::Lb || op == Op::Lh || op == Op::Lwl || op == Op::Lw || op == Op::Lbu || op == Op::Lhu ||
         op == Op::Lwr || op == Op::Ll;
}

}  // namespace mppnet::cpu::mips
