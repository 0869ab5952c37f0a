// machines/cns1/network_interface.hpp: the T1's network interface, coprocessor 2 of its MIPS-II core
// (note 002 §3: banked registers, control registers, SEND/MCST, HRET, events).
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "cpu/mips/coprocessor.hpp"
#include "cpu/mips/cpu.hpp"
#include "machines/cns1/ni_config.hpp"
#include "machines/cns1/ni_hazards.hpp"
#include "machines/cns1/ni_port.hpp"
#include "machines/cns1/t1_message.hpp"

namespace mppnet::machines::cns1 {

// The three copies of the banked registers $4-$9, $29 and $vr1 (§3.2). Which one the program sees is a
// function of EE and LPEE alone (A.10): (1,1) normal, (1,0) low, (0,x) high; or, as an option
// (Visibility::HandlerLevel), of the handler level being run.
enum class Bank : std::uint8_t { Normal = 0, Low = 1, High = 2 };

// The events of §3.8, highest priority first.
enum class Event : std::uint8_t { HighMessage, LowMessage, Timelet, Outlet };

// Why the NI raised Exception::CoprocessorException.
struct NiError {
  std::uint32_t pc = 0;
  std::uint32_t handler_address = 0;  // the misaligned handler (A37: BadVAddr)
};

// One NI per T1 node, attached to that node's Cpu as its coprocessor 2. The Cpu holds the visible bank's
// registers in its general registers; the other two banks live here and are swapped in and out whenever
// EE or LPEE changes (an event's entry, HRET, a CTC2 to enable or nistat).
//
// The processor models user mode only: KU_c is tracked here (the sender's bit travels in each message,
// is taken on entry and restored by HRET) and readable through is_kernel_mode(), but it does not change
// what the Cpu may fetch, so a kernel-space handler faults on its first fetch whatever the packet's bit.
class NetworkInterface : public cpu::mips::Coprocessor2 {
 public:
  // port may be null (no network: every SEND fails) and must outlive the NI.
  explicit NetworkInterface(NiConfig config, NiPort* port = nullptr);

  cpu::mips::Exception execute(cpu::mips::Cpu& cpu, const cpu::mips::Instruction& in) override;
  bool condition() const override { return nicond_; }
  bool wants_boundary_calls() const override { return true; }
  // Advances Count, then takes at most one eligible event (§5.2, §5.3).
  void at_boundary(cpu::mips::Cpu& cpu) override;

  // The network side: an arriving message, whole (A40). False, and nothing taken, when the in-queue at
  // its priority is full; the network keeps it and offers it again later.
  bool offer(const T1Message& message);
  bool has_room(Priority priority) const;
  std::size_t queued(Priority priority) const { return in_[index(priority)].size(); }

  // The control registers as CFC2 reads them (reg: a NiRegister), and as CTC2 writes them. Reading
  // Count needs the processor's clock, hence the Cpu.
  std::uint32_t read_register(const cpu::mips::Cpu& cpu, unsigned reg) const;
  void write_register(cpu::mips::Cpu& cpu, unsigned reg, std::uint32_t value);
  std::uint32_t nistat() const;

  Bank visible_bank() const;
  // A banked register of a bank that is not visible (the visible one is in the Cpu).
  // REQUIRES: bank != visible_bank(), reg one of 4-9, 29.
  std::uint32_t hidden_register(Bank bank, unsigned reg) const;

  // The vector unit shares COP2 with the NI but its instructions are outside this model (the document
  // does not define them); a program's vector registers and vlr are set and read through these. Register
  // 1 is the visible copy of $vr1.
  void set_vector_length(unsigned vlr);
  unsigned vector_length() const { return vlr_; }
  std::uint32_t vector_element(unsigned reg, unsigned i) const;
  void set_vector_element(unsigned reg, unsigned i, std::uint32_t value);
  const std::array<std::uint32_t, kMaxVectorWords>& vr1(Bank bank) const { return vr1_[index(bank)]; }

  bool is_kernel_mode() const { return kernel_; }
  void set_kernel_mode(bool kernel) { kernel_ = kernel; }

  const NiError& error() const { return error_; }
  const std::vector<HazardViolation>& hazard_violations() const { return hazards_.violations(); }
  // How many of each event were taken (indexed by Event), and SENDs that succeeded and failed.
  const std::array<std::uint64_t, 4>& events_taken() const { return events_taken_; }
  std::uint64_t sends() const { return sends_; }
  std::uint64_t failed_sends() const { return failed_sends_; }

 private:
  static constexpr std::size_t index(Bank b) { return static_cast<std::size_t>(b); }
  static constexpr std::size_t index(Priority p) { return cns1::index(p); }

  // ni_instructions.cpp
  cpu::mips::Exception execute_send(cpu::mips::Cpu& cpu, const cpu::mips::Instruction& in);
  cpu::mips::Exception execute_hret(cpu::mips::Cpu& cpu);
  void write_nistat(cpu::mips::Cpu& cpu, std::uint32_t value);

  // ni_events.cpp
  void advance_count(const cpu::mips::Cpu& cpu);
  bool eligible(Event e) const;
  void take(cpu::mips::Cpu& cpu, Event e);
  void check_hazards(cpu::mips::Cpu& cpu);
  // With poison_unfilled, the visible bank's data registers and $vr1 words past those filled (A15).
  void poison(cpu::mips::Cpu& cpu, unsigned scalars_filled, unsigned vector_filled);

  // Sets EE, LPEE and the handler levels being run, swapping the banked registers when the visible
  // bank changes.
  void set_state(cpu::mips::Cpu& cpu, bool ee, bool lpee, bool in_low_handler, bool in_high_handler);
  void set_enables(cpu::mips::Cpu& cpu, bool ee, bool lpee) {
    set_state(cpu, ee, lpee, in_low_handler_, in_high_handler_);
  }
  std::uint32_t count(const cpu::mips::Cpu& cpu) const;
  bool lpa() const { return port_ != nullptr && port_->can_send(Priority::Low); }
  bool hpa() const { return port_ != nullptr && port_->can_send(Priority::High); }
  bool op() const { return lpa() && (!config_.op_requires_hpa || hpa()); }

  NiConfig config_;
  NiPort* port_;

  // Architectural state, at its reset values (A43).
  bool ee_ = true;
  bool lpee_ = true;
  bool ame_ = true;
  bool nicond_ = false;
  bool onicond_ = false;
  bool hpmm_ = false;
  bool lpmm_ = false;
  bool tm_ = false;
  bool om_ = false;
  bool tp_ = false;
  bool kernel_ = false;  // KU_c
  // Not architectural: which handlers are running (for Visibility::HandlerLevel).
  bool in_low_handler_ = false;
  bool in_high_handler_ = false;
  std::uint32_t timeh_ = 0;
  std::uint32_t timec_ = 0;
  std::uint32_t lpepc_ = 0;
  std::uint32_t hpepc_ = 0;
  std::uint32_t dmh_ = 0;
  std::uint32_t outh_ = 0;

  // The message being handled at each level (A14: nistat's low half and inh are banked per level, so an
  // LP handler still reads its own after an HP handler ran), the KU_c each level saved (A17), and
  // whether the LP level holds a message (HRET restores KU_c only for message handlers).
  struct Level {
    std::uint32_t nistat_low = 0;
    std::uint32_t inh = 0;
    bool saved_kernel = false;
  };
  std::array<Level, 2> levels_{};
  bool low_level_is_message_ = false;

  // The banked registers of the banks not visible (the visible bank's copy here is stale).
  static constexpr std::array<unsigned, 7> kBanked = {4, 5, 6, 7, 8, 9, 29};
  std::array<std::array<std::uint32_t, kBanked.size()>, 3> banks_{};
  std::array<std::array<std::uint32_t, kMaxVectorWords>, 3> vr1_{};
  std::array<std::array<std::uint32_t, kMaxVectorWords>, 32> vector_{};  // entry 1 unused: see vr1_
  unsigned vlr_ = 0;

  std::array<std::deque<T1Message>, 2> in_;
  std::uint32_t last_count_ = 0;           // Count at the last boundary: tp is set when Count passes timec
  std::uint64_t events_allowed_from_ = 0;  // instruction count before which no event is taken (A22)

  HazardChecker hazards_;
  NiError error_;
  std::array<std::uint64_t, 4> events_taken_{};
  std::uint64_t sends_ = 0;
  std::uint64_t failed_sends_ = 0;
};

}  // namespace mppnet::machines::cns1
