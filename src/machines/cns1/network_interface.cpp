// machines/cns1/network_interface.cpp: the NI's control registers, bank switching and decoding of its
// COP2 instructions (SEND, MCST and HRET are in ni_instructions.cpp, events in ni_events.cpp).
#include "machines/cns1/network_interface.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "machines/cns1/ni_registers.hpp"

namespace mppnet::machines::cns1 {

using cpu::mips::Cpu;
using cpu::mips::Exception;
using cpu::mips::Instruction;
using cpu::mips::Op;

namespace {

// COP2 rs-field values of the register moves (§3.5.2).
constexpr unsigned kRsMfc2 = 0x00;
constexpr unsigned kRsCfc2 = 0x02;
constexpr unsigned kRsMtc2 = 0x04;
constexpr unsigned kRsCtc2 = 0x06;

}  // namespace

NetworkInterface::NetworkInterface(NiConfig config, NiPort* port) : config_(config), port_(port) {
  if (config_.in_queue_messages == 0)
    throw std::invalid_argument("T1 NI: in_queue_messages must be at least 1");
  if (config_.count_divider == 0) throw std::invalid_argument("T1 NI: count_divider must be at least 1");
}

Exception NetworkInterface::execute(Cpu& cpu, const Instruction& in) {
  // LWC2/SWC2 and MFC2/MTC2 belong to the vector unit, which this model leaves out.
  if (in.op != Op::Cop2) return Exception::ReservedInstruction;
  if ((in.word & (1u << 25)) != 0) {
    constexpr std::uint32_t kHret = 0x4A00001C;  // §3.5.5: CO=1, bits 24-6 zero, funct 011100
    if (in.word == kHret) return execute_hret(cpu);
    const unsigned funct = in.word & 0x3F;
    if ((in.word & (1u << 24)) == 0 && funct >= 0x20 && funct <= 0x27) return execute_send(cpu, in);
    return Exception::ReservedInstruction;
  }
  const std::uint64_t here = cpu.instructions();
  const bool is_move = in.rs == kRsCfc2 || in.rs == kRsCtc2;
  if (config_.strict_hazards && is_move && !is_defined_register(in.rd))
    hazards_.on_undefined_register(cpu.pc());
  switch (in.rs) {
    case kRsCfc2:
      cpu.set_gpr(in.rt, read_register(cpu, in.rd));
      if (config_.strict_hazards) hazards_.on_cfc2(here, in.rt);
      return Exception::None;
    case kRsCtc2:
      write_register(cpu, in.rd, cpu.gpr(in.rt));
      if (config_.strict_hazards && in.rd == kNistat) hazards_.on_ctc2_nistat(here);
      return Exception::None;
    case kRsMfc2:
    case kRsMtc2:
    default:
      return Exception::ReservedInstruction;
  }
}

bool NetworkInterface::offer(const T1Message& message) {
  // Only a SEND makes messages, so these would be a network's bug, not a program's.
  if (message.scalar_count > kMaxScalarWords || message.vector_length > kMaxVectorWords) {
    throw std::invalid_argument(fmt::format(
        "T1 NI {}: offered a message of {} scalar and {} vector words (at most {} and {})", config_.node_id,
        message.scalar_count, message.vector_length, kMaxScalarWords, kMaxVectorWords));
  }
  if (!has_room(message.priority)) return false;
  in_[index(message.priority)].push_back(message);
  return true;
}

bool NetworkInterface::has_room(Priority priority) const {
  return in_[index(priority)].size() < config_.in_queue_messages;
}

Bank NetworkInterface::visible_bank() const {
  switch (config_.visibility) {
    case Visibility::EnableBits:
      break;
    case Visibility::HandlerLevel:
      if (in_high_handler_) return Bank::High;
      return in_low_handler_ ? Bank::Low : Bank::Normal;
  }
  if (!ee_) return Bank::High;
  return lpee_ ? Bank::Normal : Bank::Low;
}

void NetworkInterface::set_state(Cpu& cpu, bool ee, bool lpee, bool in_low_handler, bool in_high_handler) {
  const Bank before = visible_bank();
  ee_ = ee;
  lpee_ = lpee;
  in_low_handler_ = in_low_handler;
  in_high_handler_ = in_high_handler;
  const Bank after = visible_bank();
  if (before == after) return;
  auto& out = banks_[index(before)];
  const auto& in = banks_[index(after)];
  for (std::size_t i = 0; i < kBanked.size(); ++i) {
    out[i] = cpu.gpr(kBanked[i]);
    cpu.set_gpr(kBanked[i], in[i]);
  }
}

std::uint32_t NetworkInterface::hidden_register(Bank bank, unsigned reg) const {
  for (std::size_t i = 0; i < kBanked.size(); ++i) {
    if (kBanked[i] == reg) return banks_[index(bank)][i];
  }
  throw std::invalid_argument("T1 NI: register is not banked");
}

std::uint32_t NetworkInterface::count(const Cpu& cpu) const {
  // A25: 32 bits, one tick every count_divider processor cycles since reset. Every node starts at 0 and
  // its processor clock is the machine's, so all nodes read the same time base.
  return static_cast<std::uint32_t>(cpu.cycles() / config_.count_divider);
}

std::uint32_t NetworkInterface::nistat() const {
  using namespace nistat;
  std::uint32_t v = 0;
  const bool hpmp = !in_[index(Priority::High)].empty();
  const bool lpmp = !in_[index(Priority::Low)].empty();
  const bool o = op();
  // A42: pend ignores EE and LPEE, so it serves as a quick poll inside a critical section.
  if ((hpmp && hpmm_) || (lpmp && lpmm_) || (tp_ && tm_) || (o && om_)) v |= kPend;
  if (nicond_) v |= kNicond;
  if (onicond_) v |= kOnicond;
  if (hpmp) v |= kHpmp;
  if (lpmp) v |= kLpmp;
  if (tp_) v |= kTp;
  if (o) v |= kOp;
  if (hpmm_) v |= kHpmm;
  if (lpmm_) v |= kLpmm;
  if (tm_) v |= kTm;
  if (om_) v |= kOm;
  if (ee_) v |= kEe;
  if (lpee_) v |= kLpee;
  if (ame_) v |= kAme;
  if (lpa()) v |= kLpa;
  if (hpa()) v |= kHpa;
  // A14: the low half is that of the level whose bank is visible; in normal code it reads 0 (our
  // choice: the document calls it valid only inside a message handler).
  switch (visible_bank()) {
    case Bank::Normal:
      break;
    case Bank::Low:
      v |= levels_[index(Priority::Low)].nistat_low;
      break;
    case Bank::High:
      v |= levels_[index(Priority::High)].nistat_low;
      break;
  }
  return v;
}

std::uint32_t NetworkInterface::read_register(const Cpu& cpu, unsigned reg) const {
  switch (reg) {
    case kTimeh:
      return timeh_;
    case kTimec:
      return timec_;
    case kCount:
      return count(cpu);
    case kEnable:
      return ee_ ? kEnableEe : 0;
    case kNistat:
      return nistat();
    case kLpepc:
      return lpepc_;
    case kHpepc:
      return hpepc_;
    case kNiid:
      return config_.node_id & kNodeIdMask;
    case kDmh:
      return dmh_;
    case kOuth:
      return outh_;
    case kInh:
      // Banked like nistat's low half (A14); outside a handler it reads 0.
      if (visible_bank() == Bank::Normal) return 0;
      return levels_[visible_bank() == Bank::High ? index(Priority::High) : index(Priority::Low)].inh;
    default:
      break;
  }
  // "Unpredictable" (L751): this model reads 0; strict mode flags it (in execute).
  return 0;
}

void NetworkInterface::write_register(Cpu& cpu, unsigned reg, std::uint32_t value) {
  switch (reg) {
    case kTimeh:
      timeh_ = value;
      return;
    case kTimec:
      // A write clears tp (A.2.2); Count must pass the new value to set it again (A27).
      timec_ = value;
      tp_ = false;
      last_count_ = count(cpu);
      return;
    case kEnable:
      set_enables(cpu, (value & kEnableEe) != 0, lpee_);
      return;
    case kNistat:
      write_nistat(cpu, value);
      return;
    case kLpepc:
      lpepc_ = value;  // A41: software may redirect the resume point
      return;
    case kHpepc:
      hpepc_ = value;
      return;
    case kDmh:
      dmh_ = value;
      return;
    case kOuth:
      outh_ = value;
      return;
    case kCount:  // A25: read-only to the user, so that Count stays a global time base
    case kNiid:
    case kInh:
    default:  // "unpredictable" (L751): ignored
      return;
  }
}

void NetworkInterface::write_nistat(Cpu& cpu, std::uint32_t value) {
  using namespace nistat;
  nicond_ = (value & kNicond) != 0;
  onicond_ = (value & kOnicond) != 0;
  hpmm_ = (value & kHpmm) != 0;
  lpmm_ = (value & kLpmm) != 0;
  tm_ = (value & kTm) != 0;
  om_ = (value & kOm) != 0;
  ame_ = (value & kAme) != 0;
  set_enables(cpu, (value & kEe) != 0, (value & kLpee) != 0);
}

void NetworkInterface::set_vector_length(unsigned vlr) {
  if (vlr > kMaxVectorWords) throw std::invalid_argument("T1 NI: vlr is at most 32");
  vlr_ = vlr;
}

std::uint32_t NetworkInterface::vector_element(unsigned reg, unsigned i) const {
  // A16: $vr1 as a source or destination is the currently visible copy.
  if (reg == 1) return vr1_[index(visible_bank())].at(i);
  return vector_.at(reg).at(i);
}

void NetworkInterface::set_vector_element(unsigned reg, unsigned i, std::uint32_t value) {
  if (reg == 1) {
    vr1_[index(visible_bank())].at(i) = value;
  } else {
    vector_.at(reg).at(i) = value;
  }
}

}  // namespace mppnet::machines::cns1
