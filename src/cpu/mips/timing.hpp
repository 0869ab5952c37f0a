// cpu/mips/timing.hpp: the processor's cycle costs, each with where it comes from.
#pragma once

#include <cstdint>

namespace mppnet::cpu::mips {

// The T1 document (note 002, section 4) gives no integer-pipeline figures, so the core is timed as the
// scalar five-stage MIPS pipeline it describes: one instruction issues per cycle, plus interlocks.
struct Timing {
  // A load's result reaches the ALU one cycle late (the MIPS-I load delay slot, which MIPS II turned into
  // a hardware interlock): an instruction reading the loaded register right after the load waits 1 cycle.
  std::uint32_t load_use_stall = 1;
  // MULT/MULTU and DIV/DIVU run in a separate unit while later instructions issue; MFHI/MFLO wait until
  // the result is there. The note is silent, so these are the R3000's published latencies (Kane &
  // Heinrich, "MIPS RISC Architecture", 1992, table of multiply/divide timing: 12 cycles for a multiply,
  // 35 for a divide), counted from the cycle the MULT or DIV issues. The R4000's are 10 and 69.
  std::uint32_t multiply_cycles = 12;
  std::uint32_t divide_cycles = 35;
};

}  // namespace mppnet::cpu::mips
