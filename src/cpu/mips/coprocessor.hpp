// cpu/mips/coprocessor.hpp: the hook through which a coprocessor (the T1's network interface, COP2)
// joins the core without the core knowing what it is.
#pragma once

#include <cstdint>

#include "cpu/mips/exception.hpp"
#include "cpu/mips/instruction.hpp"

namespace mppnet::cpu::mips {

class Cpu;

// A coprocessor 2 attached to a Cpu. The core calls it:
// - for every COP2-major instruction except the BC2 branches (MFC2, MTC2, CFC2, CTC2 and the
//   coprocessor operations with bit 25 set, e.g. the T1's SEND, MCST and HRET), and for LWC2/SWC2/
//   LDC2/SDC2. It reads and writes general registers through the Cpu (gpr, set_gpr), may charge extra
//   cycles (add_cycles), may redirect control (jump_to, as HRET does), and returns None or the
//   exception to raise (ReservedInstruction for an encoding it does not know). While it runs, pc() is the
//   instruction's own address. It changes nothing (no register, no jump_to) when it returns an
//   exception, so that exceptions stay precise.
// - for the BC2F/BC2T(L) branches, through condition() (the T1's nicond).
// - at every instruction boundary, through at_boundary(), if wants_boundary_calls() said so when it was
//   attached: that is where asynchronous events (the T1's message arrival) take over control flow. The
//   Cpu tells whether the next instruction is a delay slot (in_delay_slot, branch_pc) so an event can save
//   the branch's address as its resume point, and banked registers can be switched by swapping values
//   in and out of the general registers.
class Coprocessor2 {
 public:
  virtual ~Coprocessor2() = default;
  virtual Exception execute(Cpu& cpu, const Instruction& instruction) = 0;
  virtual bool condition() const = 0;
  virtual bool wants_boundary_calls() const { return false; }
  virtual void at_boundary(Cpu& /*cpu*/) {}
};

}  // namespace mppnet::cpu::mips
