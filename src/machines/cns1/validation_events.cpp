// machines/cns1/validation_events.cpp: behaviours B10-B14, B16, B18-B20 and the cost C7 (note 002
// §6.1, §6.2) on the T1 machine: hand-written T1 code on a 3 x 3 mesh (the rig of
// validation_rig.hpp), node 1's handlers recording what they see in memory. The events' order,
// the outlet's livelock, the timelet, nicond across a handler, the LP bank seen from normal code, the
// sender's mode, a delay slot and SEND's atomicity.
#include <cstdint>
#include <string>
#include <vector>

#include "machines/cns1/validation.hpp"
#include "machines/cns1/validation_rig.hpp"

namespace mppnet::machines::cns1 {

namespace {

using namespace encode;
using namespace rig;
using core::Evidence;

constexpr std::uint32_t and_(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x24, rs, rt, rd);
}
constexpr std::uint32_t nor(unsigned rd, unsigned rs, unsigned rt) {
  return r_type(0x27, rs, rt, rd);
}

// nistat |= bits (upper half), through $1 and $3.
std::vector<std::uint32_t> set_nistat(std::uint32_t bits) {
  return {cfc2(at, kNistat), kNop, lui(v1, bits >> 16), or_(at, at, v1), ctc2(at, kNistat)};
}
// nistat &= ~bits (upper half), through $1 and $3 (or the handler's `scratch` pair).
std::vector<std::uint32_t> clear_nistat(std::uint32_t bits, unsigned a = at, unsigned b = v1) {
  return {cfc2(a, kNistat), kNop, lui(b, bits >> 16), nor(b, b, zero), and_(a, a, b), ctc2(a, kNistat)};
}
// Spins until every one of `bits` (upper half) is set in nistat.
std::vector<std::uint32_t> wait_nistat(std::uint32_t bits) {
  return {cfc2(at, kNistat), kNop, lui(v1, bits >> 16), and_(at, at, v1), bne(at, v1, -5), kNop};
}
// Handler code that appends `id` to the log at +0 (its length) and +4.. (its entries), with $10-$12.
std::vector<std::uint32_t> log_entry(std::uint32_t id) {
  return {lw(10, at_data(0), zero), kNop,
          sll(11, 10, 2),           ori(12, zero, id),
          sw(12, at_data(4), 11),   addiu(10, 10, 1),
          sw(10, at_data(0), zero)};
}

// B10: node 1 holds node 0's LP message, a due timelet and an outlet (its LP output slot is free), all
// masked; it unmasks the three at once. Each handler logs its number; the outlet's also clears om. The
// log's mismatches against (message 1, timelet 2, outlet 3), its length included.
double b10_mismatches() {
  Rig r;
  r.code(0, kCode, sender(kHandler, {}, {send(kSend, 0, s0, s1)}));
  std::vector<std::uint32_t> main = {ori(10, zero, kHandler2), ctc2(10, kTimeh), ori(10, zero, kHandler3),
                                     ctc2(10, kOuth),          cfc2(10, kCount), kNop,
                                     addiu(10, 10, 20),        ctc2(10, kTimec)};
  append(main, wait_nistat(nistat::kLpmp | nistat::kTp | nistat::kOp));
  append(main, receiver(nistat::kLpmm | nistat::kTm | nistat::kOm));
  r.code(1, kCode, main);
  std::vector<std::uint32_t> h1 = log_entry(1), h2 = log_entry(2), h3 = log_entry(3);
  h1.push_back(kHret);
  h2.push_back(kHret);
  append(h3, clear_nistat(nistat::kOm, 13, 14));
  append(h3, flag_and_hret());
  r.code(1, kHandler, h1);
  r.code(1, kHandler2, h2);
  r.code(1, kHandler3, h3);
  if (r.run() != MachineEnd::AllExited) return -1;
  return (r.word(1, 0) != 3) + (r.word(1, 4) != 1) + (r.word(1, 8) != 2) + (r.word(1, 12) != 3);
}

// B11: node 1 unmasks the outlet (om) with an outlet handler of `handler` and, after the unmask, stores
// a marker and exits. Returns the run's end, the marker and the outlets taken.
struct OutletRun {
  MachineEnd end;
  std::uint32_t marker;
  std::uint64_t outlets;
};
OutletRun outlet_run(const std::vector<std::uint32_t>& handler) {
  T1Config c = probe_config(9);
  c.run.max_cycles = 20'000;
  Rig r(c);
  std::vector<std::uint32_t> main = {ori(10, zero, kHandler), ctc2(10, kOuth)};
  append(main, set_nistat(nistat::kOm));
  append(main, {ori(11, zero, 1), sw(11, at_data(0), zero)});
  append(main, kExit);
  r.code(1, kCode, main);
  r.code(1, kHandler, handler);
  const MachineEnd end = r.run();
  return {end, r.word(1, 0),
          r.machine().node(1).ni().events_taken()[static_cast<std::size_t>(Event::Outlet)]};
}

// An idle outlet handler (NOP, HRET): 1 if the run reached run.max_cycles with node 1's normal code
// never past the unmask and the outlet taken again and again (at least once per 20 cycles: each round
// is a dispatch, a NOP and an HRET), else 0.
double b11_livelocked() {
  const OutletRun o = outlet_run({kNop, kHret});
  return o.end == MachineEnd::TimeLimit && o.marker == 0 && o.outlets >= 20'000 / 20 ? 1 : 0;
}

// The control: an outlet handler that clears om. The outlets taken, if normal code then went on and
// exited (else -1).
double b11_outlets_when_om_is_cleared() {
  std::vector<std::uint32_t> h = clear_nistat(nistat::kOm, 13, 14);
  h.push_back(kHret);
  const OutletRun o = outlet_run(h);
  return o.end == MachineEnd::AllExited && o.marker == 1 ? static_cast<double>(o.outlets) : -1;
}

// B12: node 1 sets tm and timeh, reads Count into $18 (instruction 7) and writes timec = that + 100,
// then runs NOPs; its timelet handler stores LPEPC and nistat. Then with tm clear it lets Count pass a
// new timec, stores nistat (tp set), writes timec and stores nistat again (tp clear).
struct Timelet {
  double instructions_to_event = -1;  // from the CFC2 of Count to the instruction the event interrupted
  double wrong = -1;  // of: the handler ran; tp clear inside it; set while masked; cleared by the write
};
Timelet b12_timelet() {
  Rig r;
  constexpr unsigned kRead = 7;  // the index of the CFC2 of Count below
  std::vector<std::uint32_t> main = {ori(10, zero, kHandler), ctc2(10, kTimeh)};
  append(main, set_nistat(nistat::kTm));
  append(main, {cfc2(s2, kCount), kNop, addiu(19, s2, 100), ctc2(19, kTimec)});
  for (int i = 0; i < 120; ++i) main.push_back(kNop);
  append(main, clear_nistat(nistat::kTm));
  append(main, {cfc2(20, kCount), kNop, addiu(20, 20, 10), ctc2(20, kTimec)});
  for (int i = 0; i < 20; ++i) main.push_back(kNop);
  append(main, {cfc2(21, kNistat), kNop, sw(21, at_data(16), zero), ctc2(zero, kTimec), cfc2(22, kNistat),
                kNop, sw(22, at_data(20), zero)});
  append(main, kExit);
  r.code(1, kCode, main);
  r.code(1, kHandler,
         {cfc2(10, kLpepc), cfc2(11, kNistat), kNop, sw(10, at_data(0), zero), sw(11, at_data(4), zero),
          ori(12, zero, 1), sw(12, at_data(8), zero), kHret});
  Timelet t;
  if (r.run() != MachineEnd::AllExited) return t;
  t.instructions_to_event = (static_cast<double>(r.word(1, 0)) - (kCode + 4 * kRead)) / 4;
  t.wrong = (r.word(1, 8) != 1) + ((r.word(1, 4) & nistat::kTp) != 0) + ((r.word(1, 16) & nistat::kTp) == 0) +
            ((r.word(1, 20) & nistat::kTp) != 0);
  return t;
}

// B13/B14: node 0 sends node 1 one message of `priority`; node 1 waits until it is pending (masked),
// floods node 2 (which takes nothing) with LP sends until one fails (nicond = 0), then unmasks the event
// right after that SEND and runs BC2F two instructions later. The handler tries one HP send to node 0
// and records whether it succeeded. Returns nicond as that BC2F saw it (0: it branched), or -1 if the
// handler's send failed.
double nicond_after_handler(Priority priority) {
  Rig r;
  const bool high = priority == Priority::High;
  r.code(0, kCode, sender(kHandler2, {}, {send(high ? kSendH : kSend, 0, s0, s1)}));
  const std::uint32_t pending = high ? nistat::kHpmp : nistat::kLpmp;
  const std::uint32_t mask = high ? nistat::kHpmm : nistat::kLpmm;
  std::vector<std::uint32_t> main = wait_nistat(pending);
  append(main, {ori(s0, zero, 2), ori(s1, zero, kHandler)});
  // Flood: SEND, slot, BC2T back while it succeeds. Then unmask (the event comes at once) and check.
  append(main, {send(kSend, 0, s0, s1), kNop, bc2t(-3), kNop});
  append(main, {ori(21, zero, 0), cfc2(19, kNistat), kNop, lui(v1, mask >> 16), or_(19, 19, v1),
                ctc2(19, kNistat), kNop, bc2f(2), kNop, ori(21, zero, 1), sw(21, at_data(0), zero)});
  append(main, kExit);
  r.code(1, kCode, main);
  r.code(1, kHandler2,
         {ori(12, zero, 0), ori(13, zero, kHandler), send(kSendH, 0, 12, 13), kNop, bc2f(2), kNop,
          ori(14, zero, 1), sw(14, at_data(4), zero), kHret});
  if (r.run() != MachineEnd::AllExited || r.word(1, 4) != 1) return -1;
  return r.word(1, 0);
}

// B16: node 1's normal code holds 0x11 in $8, clears LPEE (the LP bank is visible), writes 0x55 to $8,
// sets LPEE again and stores its $8; the next LP handler stores its own. Mismatches: the handler's $8 is
// not 0x55, or normal code's is not 0x11.
double b16_mismatches() {
  Rig r;
  r.code(0, kCode, sender(kHandler, {}, {send(kSend, 0, s0, s1)}));
  std::vector<std::uint32_t> main = {ori(t0, zero, 0x11)};
  append(main, clear_nistat(nistat::kLpee));
  append(main, {ori(t0, zero, 0x55), lui(v1, nistat::kLpee >> 16), or_(at, at, v1), ctc2(at, kNistat),
                sw(t0, at_data(4), zero)});
  append(main, receiver(nistat::kLpmm));
  r.code(1, kCode, main);
  std::vector<std::uint32_t> h = {sw(t0, at_data(0), zero)};
  append(h, flag_and_hret());
  r.code(1, kHandler, h);
  if (r.run() != MachineEnd::AllExited) return -1;
  return (r.word(1, 0) != 0x55) + (r.word(1, 4) != 0x11);
}

// B18: node 0, in kernel mode if `kernel_sender`, sends node 1 an LP message. Node 1's handler exits from
// inside itself (`exit_in_handler`), so KU_c at the end is the handler's, or returns and normal code
// exits. Returns node 1's KU_c at the end (1 kernel, 0 user).
double ku_at_exit(bool kernel_sender, bool exit_in_handler) {
  Rig r;
  r.machine().node(0).ni().set_kernel_mode(kernel_sender);
  r.code(0, kCode, sender(kHandler, {}, {send(kSend, 0, s0, s1)}));
  r.code(1, kCode, receiver(nistat::kLpmm));
  r.code(1, kHandler, exit_in_handler ? kExit : flag_and_hret());
  if (r.run() != MachineEnd::AllExited) return -1;
  return r.machine().node(1).ni().is_kernel_mode() ? 1 : 0;
}

double b18_mode_mismatches() {
  return (ku_at_exit(true, true) != 1) + (ku_at_exit(true, false) != 0) + (ku_at_exit(false, true) != 0);
}

// B18: a user-mode packet naming a kernel-space handler (0x80001000): 1 if node 1 stopped with an
// address error on fetching it, with the LP level entered (its bank visible), else 0.
double b18_user_packet_to_kernel_space_faults() {
  Rig r;
  r.code(0, kCode, sender(0, {lui(s1, 0x8000), ori(s1, s1, 0x1000)}, {send(kSend, 0, s0, s1)}));
  r.code(1, kCode, receiver(nistat::kLpmm));
  if (r.run() != MachineEnd::NodeFailed) return 0;
  const T1Node& n = r.machine().node(1);
  return n.end() == NodeEnd::Fault && n.cpu().fault().kind == cpu::mips::Exception::AddressErrorLoad &&
                 n.cpu().fault().pc == 0x80001000 && n.ni().visible_bank() == Bank::Low
             ? 1
             : 0;
}

// B19: node 1 writes timec = Count + 20 at instruction 7 (as in B12, the timelet is due at the boundary
// before instruction 7 + 20 = 27) and puts a taken branch at 26, so the event comes before its delay
// slot (which adds 1 to $19; the instruction after it, skipped by the branch, sets $20). The handler
// stores LPEPC. Mismatches of: LPEPC = the branch; the delay slot ran once; the branch was taken again.
double b19_mismatches() {
  Rig r;
  constexpr std::uint32_t kBranch = 26;
  std::vector<std::uint32_t> main = {ori(10, zero, kHandler), ctc2(10, kTimeh)};
  append(main, set_nistat(nistat::kTm));
  append(main, {cfc2(s2, kCount), kNop, addiu(s2, s2, 20), ctc2(s2, kTimec)});
  while (main.size() < kBranch) main.push_back(kNop);
  append(main, {beq(zero, zero, 2), addiu(19, 19, 1), ori(20, zero, 1), kNop, sw(19, at_data(0), zero),
                sw(20, at_data(4), zero)});
  append(main, kExit);
  r.code(1, kCode, main);
  r.code(1, kHandler, {cfc2(10, kLpepc), kNop, sw(10, at_data(8), zero), kHret});
  if (r.run() != MachineEnd::AllExited) return -1;
  return (r.word(1, 8) != kCode + 4 * kBranch) + (r.word(1, 0) != 1) + (r.word(1, 4) != 0);
}

// B20: with ni.send_extra_cycles = 200, node 1 (LP events unmasked) sends itself a SEND5.V of 5 + 32
// words (A29: through the mesh and back), which arrives while the SEND is still running. Its handler
// stores LPEPC and nistat. Mismatches of: LPEPC = the SEND + 4; slen 5; vlen 32.
double b20_mismatches() {
  T1Config c = probe_config(9);
  c.ni.send_extra_cycles = 200;
  Rig r(c);
  T1Machine& m = r.machine();
  m.node(1).ni().set_vector_length(32);
  std::vector<std::uint32_t> main = set_nistat(nistat::kLpmm);
  append(main, {ori(s0, zero, 1), ori(s1, zero, kHandler)});
  const auto send_at = static_cast<std::uint32_t>(main.size());
  append(main,
         {send(kSendV, 5, s0, s1, 4), kNop, lw(v0, at_data(kFlag), zero), kNop, beq(v0, zero, -3), kNop});
  append(main, kExit);
  r.code(1, kCode, main);
  std::vector<std::uint32_t> h = {cfc2(10, kLpepc), cfc2(11, kNistat), kNop, sw(10, at_data(0), zero),
                                  sw(11, at_data(4), zero)};
  append(h, flag_and_hret());
  r.code(1, kHandler, h);
  if (r.run() != MachineEnd::AllExited) return -1;
  const std::uint32_t status = r.word(1, 4);
  return (r.word(1, 0) != kCode + 4 * send_at + 4) +
         (((status & nistat::kSlenMask) >> nistat::kSlenShift) != 5) + ((status & nistat::kVlenMask) != 32);
}

// C7: node 0 sends node 1 an LP message; node 1, once it is in its NI, times 64 NOPs with the event
// masked and then unmasked (as t1_costs times C6), its handler 4 single-cycle instructions and HRET.
// Returns the cycles the event added: dispatch, the handler and its return.
double c7_short_handler_cycles() {
  Rig r;
  r.code(0, kCode, sender(kHandler, {}, {send(kSend, 0, s0, s1)}));
  std::vector<std::uint32_t> receive = wait_nistat(nistat::kLpmp);
  append(receive, {cfc2(2, kNistat), kNop, lui(v1, nistat::kLpmm >> 16), or_(3, 2, v1), cfc2(16, kCount),
                   ctc2(2, kNistat)});
  for (int i = 0; i < 64; ++i) receive.push_back(kNop);
  append(receive, {cfc2(17, kCount), cfc2(18, kCount), ctc2(3, kNistat)});
  for (int i = 0; i < 64; ++i) receive.push_back(kNop);
  append(receive, {cfc2(19, kCount), r_type(0x23, 17, 16, 17), r_type(0x23, 19, 18, 19),
                   r_type(0x23, 19, 17, 19), sw(19, at_data(0), zero)});
  append(receive, kExit);
  r.code(1, kCode, receive);
  r.code(
      1, kHandler,
      {addiu(10, 10, 1), sw(10, at_data(0x20), zero), addiu(11, 11, 1), sw(11, at_data(0x24), zero), kHret});
  if (r.run() != MachineEnd::AllExited) return -1;
  return r.word(1, 0);
}

}  // namespace

void add_event_cases(std::vector<core::ValidationCase>& cases) {
  const char* stored = "exact: words a handler stored";
  cases.push_back(core::exact_case(
      "t1.b10.low_events_message_then_timelet_then_outlet", kDoc + ", A.9 L1161, A.1 L541-L547; N §6.2 B10",
      std::string(kSetup3) +
          "; node 1 holds the LP message, a due timelet and an outlet, masked, and unmasks "
          "the three at once",
      "of the order of handlers (message, timelet, outlet) and their count, those that are wrong", 0,
      b10_mismatches, Evidence::Behaviour, stored));
  const std::string b11 = kDoc + ", A.9.2 L1184-L1186; N §6.2 B11";
  cases.push_back(core::exact_case(
      "t1.b11.idle_outlet_handler_livelocks", b11,
      "3 x 3 T1 machine, run.max_cycles 20000; node 1 unmasks the outlet with a handler of NOP, HRET",
      "1 if the run reached its limit with node 1's normal code never past the unmask and the outlet taken "
      "at least once per 20 cycles, else 0",
      1, b11_livelocked, Evidence::Behaviour, "exact: a livelock or not"));
  cases.push_back(core::exact_case(
      "t1.b11.outlet_handler_clearing_om_runs_once", b11,
      "3 x 3 T1 machine; node 1 unmasks the outlet with a handler that clears om, then exits",
      "outlet events taken, normal code going on to exit", 1, b11_outlets_when_om_is_cleared,
      Evidence::Behaviour, "exact: a count of events"));
  const std::string b12 = kDoc + ", A.9.3 L1200-L1213, A.2 (timec, Count); N §6.2 B12, §7 A25, A27";
  const std::string b12_setup =
      "3 x 3 T1 machine; node 1 sets tm, writes timec = Count + 100 and runs NOPs, one cycle each "
      "(Count counts processor cycles, A25)";
  cases.push_back(core::exact_case(
      "t1.b12.timelet_when_count_reaches_timec", b12, b12_setup,
      "instructions from the CFC2 that read Count to the one the timelet interrupted (its LPEPC)", 100,
      [] { return b12_timelet().instructions_to_event; }, Evidence::Behaviour,
      "exact: 100 single-cycle instructions are 100 ticks of Count"));
  cases.push_back(core::exact_case(
      "t1.b12.tp_cleared_on_entry_and_by_writing_timec", b12,
      b12_setup + "; then, tm clear, Count passes a new timec and timec is written",
      "wrong of: the handler ran at timeh; tp clear in it; tp set while masked; tp cleared by the write", 0,
      [] { return b12_timelet().wrong; }, Evidence::Behaviour, "exact: bits of nistat"));
  const std::string b13 = kDoc + ", A.10 L1245, A.9.1 L1178, A.7 L997; N §6.2 B13, B14";
  const std::string b13_setup = std::string(kSetup3) +
                                "; node 1 floods node 2 (which takes nothing) until an LP SEND fails, then "
                                "unmasks the pending event before its BC2F; the handler's HP send succeeds";
  cases.push_back(core::exact_case(
      "t1.b13.low_handler_preserves_nicond", b13, b13_setup + " (an LP message)",
      "nicond as the BC2F after the handler sees it (0: it branches, the failed SEND's)", 0,
      [] { return nicond_after_handler(Priority::Low); }, Evidence::Behaviour, "exact: a bit"));
  cases.push_back(core::exact_case(
      "t1.b14.high_handler_that_sends_clobbers_nicond", b13, b13_setup + " (an HP message)",
      "nicond as the BC2F after the handler sees it (1: the handler's send's, not restored)", 1,
      [] { return nicond_after_handler(Priority::High); }, Evidence::Behaviour, "exact: a bit"));
  cases.push_back(core::exact_case(
      "t1.b16.normal_code_initialises_the_low_scratch", kDoc + ", A.10 L1276-L1288; N §6.2 B16",
      std::string(kSetup3) + "; node 1's normal code clears LPEE, writes $8 = 0x55, sets LPEE",
      "wrong of: the LP handler's $8 is 0x55; normal code's $8 stays 0x11", 0, b16_mismatches,
      Evidence::Behaviour, stored));
  const std::string b18 = kDoc + ", §3.11 L361-L363, A.6 L871, A.9.1 L1179, A.7 L1000; N §6.2 B18, §7 A38";
  cases.push_back(core::exact_case(
      "t1.b18.handler_runs_in_the_senders_mode", b18,
      std::string(kSetup3) + " (in kernel mode, set through the NI: the processor models user mode only); "
                             "node 1's handler exits inside itself, or returns",
      "wrong of: KU_c kernel inside the handler of a kernel sender; user again after its HRET; user inside "
      "the handler of a user sender",
      0, b18_mode_mismatches, Evidence::Behaviour, "exact: a mode bit"));
  cases.push_back(core::exact_case(
      "t1.b18.user_packet_to_kernel_space_faults", b18,
      std::string(kSetup3) + " in user mode, naming the handler 0x80001000",
      "1 if node 1 stopped with an address error fetching 0x80001000, its LP level entered, else 0", 1,
      b18_user_packet_to_kernel_space_faults, Evidence::Behaviour, "exact: a fault or not"));
  cases.push_back(
      core::exact_case("t1.b19.event_before_a_delay_slot_reruns_the_branch",
                       kDoc + ", A.9.1 L1169, A.9.3 L1204; N §6.2 B19, §7 A45",
                       "3 x 3 T1 machine; node 1's timelet comes due at the boundary between a taken branch "
                       "and its delay slot",
                       "wrong of: LPEPC = the branch; the delay slot ran once; the branch was taken again", 0,
                       b19_mismatches, Evidence::Behaviour, stored));
  cases.push_back(core::exact_case(
      "t1.b20.send_is_atomic", kDoc + ", A.6 L894 (SEND n.V atomic); N §6.2 B20, §7 A29",
      "3 x 3 T1 machine, ni.send_extra_cycles 200; node 1, LP events on, sends itself SEND5.V with vlr 32, "
      "which arrives during the SEND",
      "wrong of: LPEPC = the SEND + 4; slen 5; vlen 32", 0, b20_mismatches, Evidence::Behaviour, stored));
  cases.push_back({.id = "t1.c7.short_handler_cycles",
                   .source = kDoc + ", §3.9 L393; N §6.1 C7",
                   .setup = std::string(kSetup3) +
                            "; node 1 times 64 NOPs with the event masked and then unmasked; its handler 4 "
                            "single-cycle instructions and HRET",
                   .quantity = "cycles the event added: dispatch, the handler's 4 instructions and HRET",
                   .expected = 10,
                   .tolerance = core::Tolerance::absolute(1),
                   .measure = c7_short_handler_cycles,
                   .evidence = Evidence::Calibration,
                   .tolerance_origin = "the document's 'only about 10 cycles' (L393), read as 9 to 11, as "
                                       "'about 5' is read as 4 to 6 for C5 and C6",
                   .choices = {ni_costs_choice()}});
}

}  // namespace mppnet::machines::cns1
