// machines/metro/scan/router_scan.cpp: TAPs, their registers and the conflict resolution (§5.3.1).
#include "machines/metro/scan/router_scan.hpp"

#include "core/error.hpp"

namespace mppnet::machines::metro::scan {

namespace {

void put_bits(std::vector<std::uint8_t>& bits, std::uint32_t value, int n) {
  for (int b = 0; b < n; ++b) bits.push_back(static_cast<std::uint8_t>((value >> b) & 1));
}

std::uint32_t get_bits(const std::vector<std::uint8_t>& bits, int from, int n) {
  std::uint32_t v = 0;
  for (int b = 0; b < n; ++b) v |= static_cast<std::uint32_t>(bits[from + b] & 1) << b;
  return v;
}

}  // namespace

RouterScan::RouterScan(int forward_ports, int backward_ports, int segment_bits, int taps,
                       const SparseCode& code)
    : forward_ports_(forward_ports),
      backward_ports_(backward_ports),
      segment_bits_(segment_bits),
      code_(&code),
      taps_(taps),
      enabled_(forward_ports + backward_ports, 1) {
  MPPNET_ASSERT(taps >= 1 && ports() <= SparseCode::kMaxPorts && segment_bits <= 32, "RouterScan sizes");
  for (Tap& t : taps_) t.ir_word = code.all_ones();
}

Resources RouterScan::resources(Instruction in) const {
  switch (in.op) {
    case Opcode::Bypass:
      return 0;
    case Opcode::Extest:
      return (Resources{1} << ports()) - 1;
    case Opcode::PartialExtest:
      return Resources{1} << in.port;
    case Opcode::PortSelect:
      return kPortSelectRegister;
    case Opcode::Intest:
      return kInternalChain;
  }
  return 0;
}

int RouterScan::data_register_length(Instruction in) const {
  switch (in.op) {
    case Opcode::Bypass:
      return 1;
    case Opcode::Extest:
      return ports() * segment_bits_;
    case Opcode::PartialExtest:
      return segment_bits_;
    case Opcode::PortSelect:
      return ports();
    case Opcode::Intest:
      return kSignatureBits;
  }
  return 1;
}

bool RouterScan::tdo(int tap) const {
  const Tap& t = taps_[tap];
  if (t.state != TapState::ShiftIr && t.state != TapState::ShiftDr) return false;
  return !t.shift.empty() && t.shift.front() != 0;
}

void RouterScan::clock(int tap, bool tms, bool tdi) {
  Tap& t = taps_[tap];
  switch (t.state) {
    case TapState::CaptureIr:
      capture_ir(t);
      break;
    case TapState::CaptureDr:
      capture_dr(t);
      break;
    case TapState::ShiftIr:
    case TapState::ShiftDr:
      if (!t.shift.empty()) {
        t.shift.erase(t.shift.begin());
        t.shift.push_back(tdi ? 1 : 0);
      }
      break;
    default:
      break;
  }
  t.state = next_tap_state(t.state, tms);
  if (t.state == TapState::UpdateIr) update_ir(tap);
  if (t.state == TapState::UpdateDr) update_dr(t);
  if (t.state == TapState::TestLogicReset) {
    t.ir = {};
    t.ir_word = code_->all_ones();
  }
}

void RouterScan::capture_ir(Tap& t) {
  // The standard's fixed capture: 01 in the two bits nearest TDO, so a scan reads the chain's IR lengths.
  t.shift.clear();
  put_bits(t.shift, 0b01, code_->length());
}

void RouterScan::update_ir(int tap) {
  Tap& t = taps_[tap];
  t.ir_word = get_bits(t.shift, 0, code_->length());
  t.ir = code_->decode(t.ir_word, ports());
  const Resources wanted = resources(t.ir);
  for (int u = 0; u < taps(); ++u) {
    if (u == tap || (resources(taps_[u].ir) & wanted) == 0) continue;
    taps_[u].ir = {};
    taps_[u].ir_word = code_->all_ones();
    ++conflicts_;
  }
}

void RouterScan::capture_dr(Tap& t) {
  t.shift.clear();
  switch (t.ir.op) {
    case Opcode::Bypass:
      t.shift.push_back(0);  // the bypass register captures 0 (1149.1)
      break;
    case Opcode::Extest:
      for (int p = 0; p < ports(); ++p) put_bits(t.shift, io_.sense ? io_.sense(p) : 0, segment_bits_);
      break;
    case Opcode::PartialExtest:
      put_bits(t.shift, io_.sense ? io_.sense(t.ir.port) : 0, segment_bits_);
      break;
    case Opcode::PortSelect:
      for (int p = 0; p < ports(); ++p) t.shift.push_back(enabled_[p]);
      break;
    case Opcode::Intest:
      put_bits(t.shift, self_test_fails_ ? kGoodSignature ^ 0xFFFF : kGoodSignature, kSignatureBits);
      break;
  }
}

void RouterScan::update_dr(Tap& t) {
  switch (t.ir.op) {
    case Opcode::Bypass:
    case Opcode::Intest:
      break;
    case Opcode::Extest:
      for (int p = 0; p < ports(); ++p)
        if (io_.drive) io_.drive(p, get_bits(t.shift, p * segment_bits_, segment_bits_));
      break;
    case Opcode::PartialExtest:
      if (io_.drive) io_.drive(t.ir.port, get_bits(t.shift, 0, segment_bits_));
      break;
    case Opcode::PortSelect:
      for (int p = 0; p < ports(); ++p) enabled_[p] = t.shift[p];
      if (io_.port_select_updated) io_.port_select_updated();
      break;
  }
}

}  // namespace mppnet::machines::metro::scan
