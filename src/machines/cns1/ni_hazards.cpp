// machines/cns1/ni_hazards.cpp: the strict-mode spacing checks.
#include "machines/cns1/ni_hazards.hpp"

namespace mppnet::machines::cns1 {

using cpu::mips::Op;

const char* hazard_name(Hazard kind) {
  switch (kind) {
    case Hazard::CfcResultTooSoon:
      return "CFC2 result used by the next instruction (usable from the 2nd after)";
    case Hazard::Bc2TooSoonAfterSend:
      return "BC2x right after SEND (needs 1 instruction between)";
    case Hazard::Bc2TooSoonAfterCtc2:
      return "BC2x within 2 instructions of a CTC2 to nistat (needs 2 between)";
    case Hazard::UndefinedRegister:
      return "CFC2/CTC2 of an undefined NI register (unpredictable)";
  }
  return "unknown hazard";
}

void HazardChecker::before(std::uint64_t index, std::uint32_t pc, const cpu::mips::Instruction& next) {
  // The register's new value reaches the GPR file in time for the 2nd instruction after the CFC2: the
  // 1st reads the old one.
  if (index == cfc2_index_ + 1 && cfc2_rt_ != 0 && (next.reads & (1u << cfc2_rt_)) != 0) {
    violations_.push_back({Hazard::CfcResultTooSoon, pc});
  }
  const bool is_bc2 =
      next.op == Op::Bc2f || next.op == Op::Bc2t || next.op == Op::Bc2fl || next.op == Op::Bc2tl;
  if (!is_bc2) return;
  if (index == send_index_ + 1) violations_.push_back({Hazard::Bc2TooSoonAfterSend, pc});
  // A CTC2 takes effect at the 3rd instruction after it, so a BC2x 1st or 2nd after sees the old bit.
  if (index > ctc2_index_ && index <= ctc2_index_ + 2)
    violations_.push_back({Hazard::Bc2TooSoonAfterCtc2, pc});
}

}  // namespace mppnet::machines::cns1
