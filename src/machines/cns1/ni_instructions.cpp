// machines/cns1/ni_instructions.cpp: SEND and MCST (note 002 §3.5.4, §5.1) and HRET (§3.5.5, §5.4).
#include "machines/cns1/network_interface.hpp"

namespace mppnet::machines::cns1 {

using cpu::mips::Cpu;
using cpu::mips::Exception;
using cpu::mips::Instruction;

namespace {

// funct bits (A7: the document gives 0x20, 0x23, 0x24 and 0x27 only; bit 0 = V, bit 1 = H, bit 2 =
// MCST fits all four).
constexpr unsigned kFunctVector = 1;
constexpr unsigned kFunctHigh = 2;
constexpr unsigned kFunctMulticast = 4;

}  // namespace

Exception NetworkInterface::execute_send(Cpu& cpu, const Instruction& in) {
  const unsigned n = (in.word >> 21) & 7;
  const unsigned rt = (in.word >> 16) & 31;
  const unsigned rd = (in.word >> 11) & 31;
  const unsigned vd = (in.word >> 6) & 31;  // A9: ignored by the forms without a vector
  const unsigned funct = in.word & 0x3F;
  // A12: the checks in a fixed order: reserved instruction, then handler alignment, then room, so that a
  // bad handler faults even on a full network. Neither exception changes anything (B3, B4).
  if (n > kMaxScalarWords) return Exception::ReservedInstruction;  // A11: "not a valid instruction"
  const std::uint32_t handler = cpu.gpr(rt);
  if ((handler & 3) != 0) {
    error_ = {cpu.pc(), handler};
    return Exception::CoprocessorException;  // "Handler Address Error" (A37)
  }
  if (config_.strict_hazards) hazards_.on_send(cpu.instructions());
  cpu.add_cycles(config_.timing.send_extra_cycles);
  T1Message m;
  m.priority = (funct & kFunctHigh) != 0 ? Priority::High : Priority::Low;
  // Aborted when the network cannot take it: nicond = 0, nothing sent, no trap (§3.9).
  if (port_ == nullptr || !port_->can_send(m.priority)) {
    nicond_ = false;
    ++failed_sends_;
    return Exception::None;
  }
  m.destination = cpu.gpr(rd);
  m.handler = handler;
  m.kernel = kernel_;
  m.multicast = (funct & kFunctMulticast) != 0;
  m.source = config_.node_id & kNodeIdMask;
  m.scalar_count = static_cast<std::uint8_t>(n);
  // The visible copies: in a handler these are its bank's, so a reply reuses the request's data in place.
  for (unsigned i = 0; i < n; ++i) m.scalars[i] = cpu.gpr(kDataRegisters[i]);
  if ((funct & kFunctVector) != 0) {
    m.vector_length = static_cast<std::uint8_t>(vlr_);
    for (unsigned i = 0; i < vlr_; ++i) m.vector[i] = vector_element(vd, i);
  }
  nicond_ = port_->try_send(m);
  if (nicond_) {
    ++sends_;
  } else {
    ++failed_sends_;  // the port broke its contract (can_send then refused); the SEND still just failed
  }
  return Exception::None;
}

Exception NetworkInterface::execute_hret(Cpu& cpu) {
  // §3.8.5: if EE = 0 leave the HP level, else if LPEE = 0 leave the LP level. Correct only when EE and
  // LPEE hold what they held when the handler began (A46).
  std::uint32_t resume = 0;
  if (!ee_) {
    kernel_ = levels_[index(Priority::High)].saved_kernel;
    set_state(cpu, true, lpee_, in_low_handler_, false);
    resume = hpepc_;
  } else if (!lpee_) {
    if (low_level_is_message_) kernel_ = levels_[index(Priority::Low)].saved_kernel;
    nicond_ = onicond_;
    set_state(cpu, true, true, false, in_high_handler_);
    resume = lpepc_;
  } else {
    return Exception::ReservedInstruction;  // A18: HRET outside a handler is undefined; trap to debug it
  }
  // A19: no delay slot; the next instruction is the resume point, after a refetch bubble.
  cpu.add_cycles(config_.timing.hret_extra_cycles);
  cpu.jump_to(resume);
  events_allowed_from_ = cpu.instructions() + 1 + config_.min_instructions_between_events;
  return Exception::None;
}

}  // namespace mppnet::machines::cns1
