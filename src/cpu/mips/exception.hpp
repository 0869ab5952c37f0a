// cpu/mips/exception.hpp: the exceptions an instruction can raise, as results the caller sees.
#pragma once

#include <cstdint>
#include <string>

namespace mppnet::cpu::mips {

// MIPS-II user-mode exceptions (the ExcCode names of the R3000/R4000 Cause register), plus BusError for
// an access outside every mapped region (on the real machine a TLB refill the kernel turns into SIGSEGV).
// There is no kernel in the simulator: the processor stops at the faulting instruction, with its state as
// before it, and whoever runs it decides (the runner services Syscall and reports the rest).
enum class Exception : std::uint8_t {
  None,
  AddressErrorLoad,     // AdEL: misaligned load or fetch, or a kernel address (>= 0x80000000) in user mode
  AddressErrorStore,    // AdES: the same for a store
  BusErrorLoad,         // a load or fetch from an unmapped address
  BusErrorStore,        // a store to an unmapped address
  ReservedInstruction,  // RI: an encoding that is not a MIPS-II user-mode instruction
  CoprocessorUnusable,  // CpU: COP0 in user mode, COP1 (no FPU), COP2/3 with no coprocessor attached
  Overflow,             // Ov: ADD, ADDI, SUB signed overflow
  Syscall,              // Sys
  Breakpoint,           // Bp: BREAK
  Trap,                 // Tr: TEQ, TNE, TGE, ... and their immediate forms
  // The attached coprocessor's own exception (the T1's "Handler Address Error", note 002 A37): the
  // coprocessor, which raised it, says which and why.
  CoprocessorException,
};

// What the processor knows about the exception it stopped at.
struct Fault {
  Exception kind = Exception::None;
  std::uint32_t pc = 0;           // the faulting instruction (EPC is the branch's when in_delay_slot)
  std::uint32_t bad_address = 0;  // the address of an address or bus error
  std::uint32_t instruction = 0;  // the instruction word (0 if the fetch itself failed)
  bool in_delay_slot = false;     // the Cause register's BD bit
  int coprocessor = 0;            // CE: which coprocessor for CoprocessorUnusable
};

const char* exception_name(Exception kind);

// One line for a user: "address error on load at 0x00400120: address 0x00000003 (pc 0x00400118)".
std::string describe(const Fault& fault);

}  // namespace mppnet::cpu::mips
