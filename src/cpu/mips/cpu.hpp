// cpu/mips/cpu.hpp: one MIPS-II processor in user mode: registers, fetch, delay slots, cycle counting.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cpu/mips/coprocessor.hpp"
#include "cpu/mips/exception.hpp"
#include "cpu/mips/instruction.hpp"
#include "cpu/mips/memory.hpp"
#include "cpu/mips/timing.hpp"

namespace mppnet::cpu::mips {

// The processor executes one instruction per step() in program order and counts cycles as a scalar
// pipeline would: one per instruction, plus the interlocks of Timing (a load followed by a use of its
// result; MFHI/MFLO, MULT/DIV, MTHI/MTLO waiting for the multiply/divide unit). Exceptions are precise: a
// faulting instruction changes nothing, step() returns its kind, fault() says where, and the processor
// stays at that instruction. A caller that services the exception (a SYSCALL) calls
// skip_faulting_instruction() to go on after it.
class Cpu {
 public:
  explicit Cpu(Memory& memory, Timing timing = {});

  // Starts at entry_pc with every register zero (the loader then sets $sp).
  void reset(std::uint32_t entry_pc);

  // nullptr detaches. The coprocessor must outlive its attachment.
  void attach_coprocessor2(Coprocessor2* coprocessor);

  Exception step();
  // Steps until an exception (returned) or until max_instructions have completed (returns None).
  Exception run(std::uint64_t max_instructions);

  const Fault& fault() const { return fault_; }
  // Counts the faulting instruction (a SYSCALL or BREAK the caller handled) as executed and continues with
  // the one after it, or with the branch target if it sat in a taken branch's delay slot.
  void skip_faulting_instruction();

  std::uint32_t gpr(unsigned r) const { return gpr_[r & 31]; }
  void set_gpr(unsigned r, std::uint32_t value) {
    if ((r & 31) != 0) gpr_[r & 31] = value;
  }
  std::uint32_t hi() const { return hi_; }
  std::uint32_t lo() const { return lo_; }
  void set_hi(std::uint32_t value) { hi_ = value; }
  void set_lo(std::uint32_t value) { lo_ = value; }

  // The instruction step() will execute next, and the one after it (the branch target when pc() is a
  // delay slot).
  std::uint32_t pc() const { return pc_; }
  std::uint32_t next_pc() const { return npc_; }
  bool in_delay_slot() const { return in_delay_slot_; }
  // The branch or jump whose delay slot pc() is (meaningful when in_delay_slot()).
  std::uint32_t branch_pc() const { return branch_pc_; }
  // Continues at target with no delay slot: from a coprocessor instruction (takes effect after it) or
  // between instructions (an event's dispatch).
  void jump_to(std::uint32_t target);

  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t instructions() const { return instructions_; }
  // Cycles a coprocessor's multi-cycle instruction or an event's dispatch takes beyond the one per
  // instruction.
  void add_cycles(std::uint64_t n) { cycles_ += n; }

  Memory& memory() { return memory_; }

 private:
  Exception execute(const Instruction& in);  // cpu/mips/execute.cpp
  Exception load(std::uint32_t address, unsigned size, std::uint32_t& out);
  Exception store(std::uint32_t address, unsigned size, std::uint32_t value);
  Exception raise(Exception kind, std::uint32_t pc, std::uint32_t word);
  // The multiply/divide unit is busy until hilo_ready_: an instruction that needs it waits.
  void wait_for_hilo();
  void branch(bool taken, std::uint32_t target) {
    if (taken) next_npc_ = target;
    delay_next_ = true;
  }
  void branch_likely(bool taken, std::uint32_t target) {
    if (taken) {
      branch(true, target);
    } else {
      annul_ = true;
    }
  }

  // Fetches pc's word into `word`, or returns the exception a fetch there raises.
  Exception fetch(std::uint32_t pc, std::uint32_t& word);

  // The decoded form of pc's instruction (word, just fetched from the code region).
  Instruction decoded(std::uint32_t pc, std::uint32_t word);

  Memory& memory_;
  Memory::Window code_;  // the region instructions were last fetched from: most fetches read it directly
  // One decoded instruction per word of code_, each always the decoding of its own `word`: it is used
  // when that equals the word fetched, and decoded again otherwise, so code that is rewritten (or a new
  // region) can never run a stale decoding. Empty for a region over kMaxDecodedBytes.
  std::vector<Instruction> decoded_;
  Timing timing_;
  Coprocessor2* cop2_ = nullptr;
  bool boundary_calls_ = false;

  std::array<std::uint32_t, 32> gpr_{};
  std::uint32_t hi_ = 0;
  std::uint32_t lo_ = 0;
  std::uint32_t pc_ = 0;
  std::uint32_t npc_ = 4;
  bool in_delay_slot_ = false;
  std::uint32_t branch_pc_ = 0;

  std::uint64_t cycles_ = 0;
  std::uint64_t instructions_ = 0;
  std::uint8_t load_dest_ = 0;     // register the previous instruction loaded (0: none)
  bool load_was_partial_ = false;  // ... with LWL or LWR
  std::uint64_t hilo_ready_ = 0;   // cycle at which HI and LO hold the last MULT/DIV's result

  // Scratch of the instruction being executed.
  std::uint32_t current_pc_ = 0;
  std::uint32_t next_npc_ = 0;
  bool delay_next_ = false;
  bool annul_ = false;
  bool redirected_ = false;
  std::uint32_t redirect_pc_ = 0;
  std::uint64_t stall_ = 0;

  Fault fault_;
};

}  // namespace mppnet::cpu::mips
