// machines/cns1/ni_hazards.hpp: the strict-mode checker of the NI's pipeline hazards (note 002 §3.16,
// A26): spacing rules a program written for the unbypassed T1 must keep.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/mips/instruction.hpp"

namespace mppnet::machines::cns1 {

enum class Hazard : std::uint8_t {
  CfcResultTooSoon,     // the instruction right after a CFC2 reads its destination (A.10 L1229)
  Bc2TooSoonAfterSend,  // BC2F/BC2T right after a SEND or MCST (A.5 L809)
  Bc2TooSoonAfterCtc2,  // BC2F/BC2T within 2 instructions of a CTC2 to nistat (A.10 L1235)
  UndefinedRegister,    // CFC2/CTC2 of a register number Table 1 does not define (L751)
};

const char* hazard_name(Hazard kind);

struct HazardViolation {
  Hazard kind = Hazard::CfcResultTooSoon;
  std::uint32_t pc = 0;  // the instruction that came too soon (or that named the register)
};

// Instructions are identified by their position in the processor's count of completed instructions
// (Cpu::instructions() while one runs), so "the next instruction" is the next one executed, wherever a
// branch or an event took control. The checker records; it changes no result (the NI stays bypassed).
class HazardChecker {
 public:
  void on_cfc2(std::uint64_t index, unsigned rt) {
    cfc2_index_ = index;
    cfc2_rt_ = rt;
  }
  // Only nistat holds nicond, the bit BC2x tests.
  void on_ctc2_nistat(std::uint64_t index) { ctc2_index_ = index; }
  void on_send(std::uint64_t index) { send_index_ = index; }
  void on_undefined_register(std::uint32_t pc) { violations_.push_back({Hazard::UndefinedRegister, pc}); }
  // Called before instruction number `index`, `next`, at pc runs.
  void before(std::uint64_t index, std::uint32_t pc, const cpu::mips::Instruction& next);

  const std::vector<HazardViolation>& violations() const { return violations_; }

 private:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max() - 4;
  std::uint64_t cfc2_index_ = kNever;
  unsigned cfc2_rt_ = 0;
  std::uint64_t ctc2_index_ = kNever;
  std::uint64_t send_index_ = kNever;
  std::vector<HazardViolation> violations_;
};

}  // namespace mppnet::machines::cns1
