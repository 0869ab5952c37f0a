// machines/metro/scan/router_scan.hpp: the scan logic of one METRO router: multi-TAP (§5.3.1, Fig 5.2).
//
// Each of the router's sp TAPs (Table 9.1) has its own controller (tap_controller.hpp), instruction
// register and bypass register, "exactly as in a standard TAP" (L1913). One decode and conflict-resolution
// unit stands in for the single-TAP decoder: the shared registers are the boundary register, cut into one
// segment per port so that a port can be scanned alone (partial-external scan, §5.3.3, L1958-1962), the
// port (de)select configuration register (§5.3.2, L1954-1956; Table 9.2) and the internal test chain. A
// newly loaded instruction takes the resources it names, and every other TAP whose instruction uses one
// of them is reset to BYPASS (L1913-1915): the most recent load wins, so a healthy scan path can take the
// router back from a faulty one.
//
// Ports are numbered forward ports 0..i-1, then backward ports i..i+o-1. A boundary segment holds a port's
// w data bits, its control bit and its back-drop line (bit w + 1); Capture-DR samples what arrives at the
// pins, Update-DR drives the outgoing side (PinIo, which the scan system wires to the links).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "machines/metro/scan/instruction.hpp"
#include "machines/metro/scan/tap_controller.hpp"

namespace mppnet::machines::metro::scan {

// What the boundary cells and the configuration register are connected to (set by the scan system).
struct PinIo {
  std::function<std::uint32_t(int port)> sense;              // the value arriving at a port's pins
  std::function<void(int port, std::uint32_t value)> drive;  // the value a port drives in EXTEST
  std::function<void()> port_select_updated;                 // after Update-DR of PORT_SELECT
};

// Shared resources as mask bits: boundary segment p is bit p, then the two registers.
using Resources = std::uint64_t;
inline constexpr Resources kPortSelectRegister = Resources{1} << 32;
inline constexpr Resources kInternalChain = Resources{1} << 33;

class RouterScan {
 public:
  static constexpr int kSignatureBits = 16;
  static constexpr std::uint32_t kGoodSignature = 0xC35A;  // the self-test signature of a sound router

  // REQUIRES: 1 <= taps, forward + backward ports <= SparseCode::kMaxPorts, segment_bits <= 32.
  RouterScan(int forward_ports, int backward_ports, int segment_bits, int taps, const SparseCode& code);

  int taps() const { return static_cast<int>(taps_.size()); }
  int ports() const { return forward_ports_ + backward_ports_; }
  int forward_ports() const { return forward_ports_; }
  int segment_bits() const { return segment_bits_; }
  void set_io(PinIo io) { io_ = std::move(io); }

  // The bit TAP `tap` shows on TDO before the next edge: the low bit of the register being shifted, 0
  // outside the Shift states (TDO is then inactive).
  bool tdo(int tap) const;
  // One TCK rising edge on TAP `tap`: the current state's capture or shift, then the TMS transition,
  // then the update of the state entered (Update-IR/DR) or the reset (Test-Logic-Reset).
  void clock(int tap, bool tms, bool tdi);

  TapState state(int tap) const { return taps_[tap].state; }
  Instruction instruction(int tap) const { return taps_[tap].ir; }
  // The instruction register's last loaded word (after a reset: all ones, which decodes as BYPASS).
  std::uint32_t instruction_word(int tap) const { return taps_[tap].ir_word; }
  // Times a load reset another TAP's instruction to BYPASS.
  int conflicts_resolved() const { return conflicts_; }

  bool port_enabled(int port) const { return enabled_[port] != 0; }
  // The internal test fails (a faulty router): INTEST captures a signature other than kGoodSignature.
  void set_self_test_fails(bool fails) { self_test_fails_ = fails; }

  Resources resources(Instruction in) const;
  // Bits of the data register an instruction selects.
  int data_register_length(Instruction in) const;

 private:
  struct Tap {
    TapState state = TapState::TestLogicReset;
    std::uint32_t ir_word = 0;
    Instruction ir;
    std::vector<std::uint8_t> shift;  // the register being captured and shifted, low bit first
  };
  void capture_ir(Tap& t);
  void update_ir(int tap);
  void capture_dr(Tap& t);
  void update_dr(Tap& t);

  int forward_ports_, backward_ports_, segment_bits_;
  const SparseCode* code_;
  std::vector<Tap> taps_;
  std::vector<std::uint8_t> enabled_;
  bool self_test_fails_ = false;
  int conflicts_ = 0;
  PinIo io_;
};

}  // namespace mppnet::machines::metro::scan
