// cpu/mips/execute.cpp: what each MIPS-II user-mode instruction does (Kane & Heinrich, "MIPS RISC
// Architecture", appendix A; MIPS IV Instruction Set, rev. 3.2, for the MIPS II additions).
#include <cstdint>

#include "cpu/mips/cpu.hpp"

namespace mppnet::cpu::mips {
namespace {

std::int32_t s32(std::uint32_t v) {
  return static_cast<std::int32_t>(v);
}
std::uint32_t u32(std::int64_t v) {
  return static_cast<std::uint32_t>(v);
}

}  // namespace

Exception Cpu::execute(const Instruction& in) {
  const std::uint32_t rs = gpr_[in.rs];
  const std::uint32_t rt = gpr_[in.rt];
  const std::uint32_t pc = current_pc_;
  // Branch targets are relative to the delay slot; jumps keep the delay slot's top four address bits.
  const std::uint32_t branch_target = pc + 4 + (in.imm << 2);
  const std::uint32_t jump_target = ((pc + 4) & 0xF0000000u) | (in.imm << 2);
  const std::uint32_t address = rs + in.imm;
  std::uint32_t value = 0;
  switch (in.op) {
    case Op::Reserved:
      return Exception::ReservedInstruction;

    case Op::Sll:
      gpr_[in.rd] = rt << in.shamt;
      break;
    case Op::Srl:
      gpr_[in.rd] = rt >> in.shamt;
      break;
    case Op::Sra:
      gpr_[in.rd] = static_cast<std::uint32_t>(s32(rt) >> in.shamt);
      break;
    case Op::Sllv:
      gpr_[in.rd] = rt << (rs & 31);
      break;
    case Op::Srlv:
      gpr_[in.rd] = rt >> (rs & 31);
      break;
    case Op::Srav:
      gpr_[in.rd] = static_cast<std::uint32_t>(s32(rt) >> (rs & 31));
      break;

    case Op::Jr:
      branch(true, rs);
      break;
    case Op::Jalr:
      branch(true, rs);  // rs is read before rd is written (JALR with rs == rd is undefined)
      gpr_[in.rd] = pc + 8;
      break;
    case Op::J:
      branch(true, jump_target);
      break;
    case Op::Jal:
      branch(true, jump_target);
      gpr_[31] = pc + 8;
      break;
    case Op::Beq:
      branch(rs == rt, branch_target);
      break;
    case Op::Bne:
      branch(rs != rt, branch_target);
      break;
    case Op::Blez:
      branch(s32(rs) <= 0, branch_target);
      break;
    case Op::Bgtz:
      branch(s32(rs) > 0, branch_target);
      break;
    case Op::Bltz:
      branch(s32(rs) < 0, branch_target);
      break;
    case Op::Bgez:
      branch(s32(rs) >= 0, branch_target);
      break;
    case Op::Beql:
      branch_likely(rs == rt, branch_target);
      break;
    case Op::Bnel:
      branch_likely(rs != rt, branch_target);
      break;
    case Op::Blezl:
      branch_likely(s32(rs) <= 0, branch_target);
      break;
    case Op::Bgtzl:
      branch_likely(s32(rs) > 0, branch_target);
      break;
    case Op::Bltzl:
      branch_likely(s32(rs) < 0, branch_target);
      break;
    case Op::Bgezl:
      branch_likely(s32(rs) >= 0, branch_target);
      break;
    // The link is written whether or not the branch is taken.
    case Op::Bltzal:
      branch(s32(rs) < 0, branch_target);
      gpr_[31] = pc + 8;
      break;
    case Op::Bgezal:
      branch(s32(rs) >= 0, branch_target);
      gpr_[31] = pc + 8;
      break;
    case Op::Bltzall:
      branch_likely(s32(rs) < 0, branch_target);
      gpr_[31] = pc + 8;
      break;
    case Op::Bgezall:
      branch_likely(s32(rs) >= 0, branch_target);
      gpr_[31] = pc + 8;
      break;

    case Op::Syscall:
      return Exception::Syscall;
    case Op::Break:
      return Exception::Breakpoint;
    case Op::Sync:
      break;  // one processor, in-order memory: nothing to order

    case Op::Mfhi:
      wait_for_hilo();
      gpr_[in.rd] = hi_;
      break;
    case Op::Mflo:
      wait_for_hilo();
      gpr_[in.rd] = lo_;
      break;
    case Op::Mthi:
      wait_for_hilo();
      hi_ = rs;
      break;
    case Op::Mtlo:
      wait_for_hilo();
      lo_ = rs;
      break;
    case Op::Mult:
    case Op::Multu: {
      wait_for_hilo();
      const std::uint64_t product =
          in.op == Op::Mult ? static_cast<std::uint64_t>(std::int64_t{s32(rs)} * std::int64_t{s32(rt)})
                            : std::uint64_t{rs} * std::uint64_t{rt};
      lo_ = static_cast<std::uint32_t>(product);
      hi_ = static_cast<std::uint32_t>(product >> 32);
      hilo_ready_ = cycles_ + stall_ + timing_.multiply_cycles;
      break;
    }
    case Op::Div:
    case Op::Divu:
      wait_for_hilo();
      // Division by zero is UNPREDICTABLE in the architecture and raises no exception (compilers emit a
      // TEQ before the DIV). We give what QEMU gives, LO = the dividend and HI = 0, so that results
      // compare with it; the most negative number over -1 gives LO = that number and HI = 0, the
      // wrapped quotient, in both.
      if (rt == 0) {
        lo_ = rs;
        hi_ = 0;
      } else if (in.op == Op::Divu) {
        lo_ = rs / rt;
        hi_ = rs % rt;
      } else if (rs == 0x80000000u && rt == 0xFFFFFFFFu) {
        lo_ = rs;
        hi_ = 0;
      } else {
        lo_ = static_cast<std::uint32_t>(s32(rs) / s32(rt));
        hi_ = static_cast<std::uint32_t>(s32(rs) % s32(rt));
      }
      hilo_ready_ = cycles_ + stall_ + timing_.divide_cycles;
      break;

    case Op::Add:
    case Op::Addi: {
      const std::uint32_t b = in.op == Op::Add ? rt : in.imm;
      std::int32_t sum = 0;
      if (__builtin_add_overflow(s32(rs), s32(b), &sum)) return Exception::Overflow;
      gpr_[in.op == Op::Add ? in.rd : in.rt] = static_cast<std::uint32_t>(sum);
      break;
    }
    case Op::Sub: {
      std::int32_t difference = 0;
      if (__builtin_sub_overflow(s32(rs), s32(rt), &difference)) return Exception::Overflow;
      gpr_[in.rd] = static_cast<std::uint32_t>(difference);
      break;
    }
    case Op::Addu:
      gpr_[in.rd] = rs + rt;
      break;
    case Op::Subu:
      gpr_[in.rd] = rs - rt;
      break;
    case Op::And:
      gpr_[in.rd] = rs & rt;
      break;
    case Op::Or:
      gpr_[in.rd] = rs | rt;
      break;
    case Op::Xor:
      gpr_[in.rd] = rs ^ rt;
      break;
    case Op::Nor:
      gpr_[in.rd] = ~(rs | rt);
      break;
    case Op::Slt:
      gpr_[in.rd] = s32(rs) < s32(rt) ? 1 : 0;
      break;
    case Op::Sltu:
      gpr_[in.rd] = rs < rt ? 1 : 0;
      break;

    case Op::Tge:
      return s32(rs) >= s32(rt) ? Exception::Trap : Exception::None;
    case Op::Tgeu:
      return rs >= rt ? Exception::Trap : Exception::None;
    case Op::Tlt:
      return s32(rs) < s32(rt) ? Exception::Trap : Exception::None;
    case Op::Tltu:
      return rs < rt ? Exception::Trap : Exception::None;
    case Op::Teq:
      return rs == rt ? Exception::Trap : Exception::None;
    case Op::Tne:
      return rs != rt ? Exception::Trap : Exception::None;
    // The immediate forms compare with the sign-extended immediate, unsigned for the *iu forms.
    case Op::Tgei:
      return s32(rs) >= s32(in.imm) ? Exception::Trap : Exception::None;
    case Op::Tgeiu:
      return rs >= in.imm ? Exception::Trap : Exception::None;
    case Op::Tlti:
      return s32(rs) < s32(in.imm) ? Exception::Trap : Exception::None;
    case Op::Tltiu:
      return rs < in.imm ? Exception::Trap : Exception::None;
    case Op::Teqi:
      return rs == in.imm ? Exception::Trap : Exception::None;
    case Op::Tnei:
      return rs != in.imm ? Exception::Trap : Exception::None;

    case Op::Addiu:
      gpr_[in.rt] = rs + in.imm;
      break;
    case Op::Slti:
      gpr_[in.rt] = s32(rs) < s32(in.imm) ? 1 : 0;
      break;
    case Op::Sltiu:
      gpr_[in.rt] = rs < in.imm ? 1 : 0;
      break;
    case Op::Andi:
      gpr_[in.rt] = rs & in.imm;
      break;
    case Op::Ori:
      gpr_[in.rt] = rs | in.imm;
      break;
    case Op::Xori:
      gpr_[in.rt] = rs ^ in.imm;
      break;
    case Op::Lui:
      gpr_[in.rt] = in.imm << 16;
      break;

    case Op::Lb:
    case Op::Lbu:
    case Op::Lh:
    case Op::Lhu:
    case Op::Lw:
    case Op::Ll: {
      const unsigned size = (in.op == Op::Lb || in.op == Op::Lbu)   ? 1
                            : (in.op == Op::Lh || in.op == Op::Lhu) ? 2
                                                                    : 4;
      if (const Exception e = load(address, size, value); e != Exception::None) return e;
      if (in.op == Op::Lb) value = u32(static_cast<std::int8_t>(value));
      if (in.op == Op::Lh) value = u32(static_cast<std::int16_t>(value));
      gpr_[in.rt] = value;
      break;
    }
    // Unaligned word loads, big-endian: LWL fills rt from its most significant byte with the bytes from
    // `address` to the end of its aligned word; LWR fills rt's low end with the bytes from the word's start
    // up to `address`. The untouched bytes of rt are kept.
    case Op::Lwl: {
      if (const Exception e = load(address & ~3u, 4, value); e != Exception::None) {
        fault_.bad_address = address;
        return e;
      }
      const unsigned shift = 8 * (address & 3);
      const std::uint32_t keep = shift == 0 ? 0 : (0xFFFFFFFFu >> (32 - shift));
      gpr_[in.rt] = (value << shift) | (rt & keep);
      break;
    }
    case Op::Lwr: {
      if (const Exception e = load(address & ~3u, 4, value); e != Exception::None) {
        fault_.bad_address = address;
        return e;
      }
      const unsigned shift = 8 * (3 - (address & 3));
      const std::uint32_t keep = shift == 0 ? 0 : ~(0xFFFFFFFFu >> shift);
      gpr_[in.rt] = (value >> shift) | (rt & keep);
      break;
    }
    case Op::Sb:
      return store(address, 1, rt);
    case Op::Sh:
      return store(address, 2, rt);
    case Op::Sw:
      return store(address, 4, rt);
    case Op::Sc:
      if (const Exception e = store(address, 4, rt); e != Exception::None) return e;
      gpr_[in.rt] = 1;  // always succeeds: no other processor or interrupt can break the link
      break;
    // SWL stores rt's most significant bytes from `address` to the end of its aligned word; SWR stores its
    // least significant bytes from the word's start up to `address`. Read-modify-write of the aligned word,
    // so a fault leaves memory unchanged.
    case Op::Swl:
    case Op::Swr: {
      const std::uint32_t aligned = address & ~3u;
      if (const Exception e = load(aligned, 4, value); e != Exception::None) {
        fault_.bad_address = address;
        return e == Exception::AddressErrorLoad ? Exception::AddressErrorStore : Exception::BusErrorStore;
      }
      const unsigned b = address & 3;
      std::uint32_t merged = 0;
      if (in.op == Op::Swl) {
        const std::uint32_t mask = 0xFFFFFFFFu >> (8 * b);
        merged = (value & ~mask) | (rt >> (8 * b));
      } else {
        const unsigned shift = 8 * (3 - b);
        const std::uint32_t mask = 0xFFFFFFFFu << shift;
        merged = (value & ~mask) | (rt << shift);
      }
      return store(aligned, 4, merged);
    }

    case Op::Cop0:
    case Op::Cop1:
    case Op::Cop3:
      return Exception::CoprocessorUnusable;
    case Op::Cop2:
      if (cop2_ == nullptr) return Exception::CoprocessorUnusable;
      return cop2_->execute(*this, in);
    case Op::CopLoadStore:
      if (in.coprocessor != 2 || cop2_ == nullptr) return Exception::CoprocessorUnusable;
      return cop2_->execute(*this, in);
    case Op::Bc2f:
    case Op::Bc2t:
    case Op::Bc2fl:
    case Op::Bc2tl: {
      if (cop2_ == nullptr) return Exception::CoprocessorUnusable;
      const bool taken = cop2_->condition() == (in.op == Op::Bc2t || in.op == Op::Bc2tl);
      if (in.op == Op::Bc2f || in.op == Op::Bc2t) {
        branch(taken, branch_target);
      } else {
        branch_likely(taken, branch_target);
      }
      break;
    }
  }
  return Exception::None;
}

}  // namespace mppnet::cpu::mips
