// machines/cns1/ni_events.cpp: the timer and the events, checked at every instruction boundary (note
// 002 §3.8, §5.2, §5.3). SEND and MCST are single instructions, so no event can split one.
#include "machines/cns1/network_interface.hpp"
#include "machines/cns1/ni_registers.hpp"

namespace mppnet::machines::cns1 {

using cpu::mips::Cpu;

void NetworkInterface::at_boundary(Cpu& cpu) {
  advance_count(cpu);
  // A21: HP before LP when both are eligible; A.9: among LP events the message, then the timelet, and
  // the outlet only when nothing else is. One event per boundary: the handler's first instruction runs
  // before anything else is considered (an HP event may then preempt it at the next boundary).
  if (cpu.instructions() >= events_allowed_from_) {
    for (Event e : {Event::HighMessage, Event::LowMessage, Event::Timelet, Event::Outlet}) {
      if (eligible(e)) {
        take(cpu, e);
        break;
      }
    }
  }
  if (config_.strict_hazards) check_hazards(cpu);
}

void NetworkInterface::advance_count(const Cpu& cpu) {
  // A27: tp is edge-triggered, set by the increment that makes Count equal timec. An instruction may
  // span several ticks (a dispatch, a stall), so any tick in (last, now] counts.
  const std::uint32_t now = count(cpu);
  const std::uint32_t ticks = now - last_count_;
  if (ticks != 0 && timec_ - last_count_ - 1 < ticks) tp_ = true;
  last_count_ = now;
}

bool NetworkInterface::eligible(Event e) const {
  // §8 "Event enables".
  switch (e) {
    case Event::HighMessage:
      return ee_ && hpmm_ && !in_[index(Priority::High)].empty();
    case Event::LowMessage:
      return ee_ && lpee_ && lpmm_ && !in_[index(Priority::Low)].empty();
    case Event::Timelet:
      return ee_ && lpee_ && tm_ && tp_;
    case Event::Outlet:
      return ee_ && lpee_ && om_ && op();
  }
  return false;
}

void NetworkInterface::take(Cpu& cpu, Event e) {
  ++events_taken_[static_cast<std::size_t>(e)];
  cpu.add_cycles(config_.timing.dispatch_cycles);
  // A45: no BD bit, so an event before a delay slot resumes at the branch, which runs again.
  const std::uint32_t resume = cpu.in_delay_slot() ? cpu.branch_pc() : cpu.pc();
  const bool high = e == Event::HighMessage;
  const Priority level = high ? Priority::High : Priority::Low;
  Level& saved = levels_[index(level)];
  // A17: KU_c is saved at every entry; only message levels restore it (outlets and timelets keep it).
  saved.saved_kernel = kernel_;
  if (high) {
    hpepc_ = resume;
    set_state(cpu, false, lpee_, in_low_handler_, true);
  } else {
    lpepc_ = resume;
    onicond_ = nicond_;  // LP only: an HP handler that sends must save nicond itself (§3.9)
    set_state(cpu, ee_, false, true, in_high_handler_);
    low_level_is_message_ = e == Event::LowMessage;
  }
  std::uint32_t target = 0;
  switch (e) {
    case Event::Outlet:
      target = outh_;  // $4-$7, $29 and $vr1 are unpredictable (A15)
      poison(cpu, 0, 0);
      break;
    case Event::Timelet:
      tp_ = false;
      target = timeh_;
      poison(cpu, 0, 0);
      break;
    case Event::HighMessage:
    case Event::LowMessage: {
      auto& queue = in_[index(level)];
      const T1Message m = queue.front();
      queue.pop_front();
      // The bank of this level is visible now: the data goes straight into the Cpu's registers. Data
      // registers a short message does not fill keep their last value, unless poisoned (A15).
      for (unsigned i = 0; i < m.scalar_count; ++i) cpu.set_gpr(kDataRegisters[i], m.scalars[i]);
      auto& vr1 = vr1_[index(high ? Bank::High : Bank::Low)];
      for (unsigned i = 0; i < m.vector_length; ++i) vr1[i] = m.vector[i];
      poison(cpu, m.scalar_count, m.vector_length);
      saved.nistat_low = (high ? nistat::kPri : 0) | (m.multicast ? nistat::kMcst : 0) |
                         (std::uint32_t{m.scalar_count} << nistat::kSlenShift) | m.vector_length;
      saved.inh = m.handler;
      kernel_ = m.kernel;  // the handler runs in the sender's mode (§3.11)
      target = ame_ ? m.handler : dmh_;
      break;
    }
  }
  // A38: everything above is committed first; a misaligned or kernel-space target then raises an
  // address error on the fetch, with the event level already entered.
  cpu.jump_to(target);
}

void NetworkInterface::poison(Cpu& cpu, unsigned scalars_filled, unsigned vector_filled) {
  if (!config_.poison_unfilled) return;
  for (unsigned i = scalars_filled; i < kMaxScalarWords; ++i) cpu.set_gpr(kDataRegisters[i], kPoison);
  auto& vr1 = vr1_[index(visible_bank())];
  for (unsigned i = vector_filled; i < kMaxVectorWords; ++i) vr1[i] = kPoison;
}

void NetworkInterface::check_hazards(Cpu& cpu) {
  std::uint32_t word = 0;
  if (cpu.memory().load32(cpu.pc(), word) != cpu::mips::Access::Ok) return;
  hazards_.before(cpu.instructions(), cpu.pc(), cpu::mips::decode(word));
}

}  // namespace mppnet::machines::cns1
