// machines/metro/scan/tap_controller.hpp: the IEEE 1149.1 TAP controller, the 16-state machine on TMS.
//
// DeHon keeps each TAP of a multi-TAP part "exactly as in a standard TAP [Com90]" (§5.3.1, L1905-1915):
// the controller, its instruction register and bypass register. The thesis prints no state diagram; the
// states and their TMS transitions are the standard's (IEEE Std 1149.1-1990, the controller of its
// Fig 5-1). Five TCK cycles with TMS = 1 reach Test-Logic-Reset from any state.
#pragma once

#include <cstdint>

namespace mppnet::machines::metro::scan {

enum class TapState : std::uint8_t {
  TestLogicReset,
  RunTestIdle,
  SelectDrScan,
  CaptureDr,
  ShiftDr,
  Exit1Dr,
  PauseDr,
  Exit2Dr,
  UpdateDr,
  SelectIrScan,
  CaptureIr,
  ShiftIr,
  Exit1Ir,
  PauseIr,
  Exit2Ir,
  UpdateIr,
};

inline constexpr int kTapStates = 16;

// The state after one TCK rising edge with this TMS.
TapState next_tap_state(TapState s, bool tms);

// The standard's name of a state ("Shift-IR").
const char* tap_state_name(TapState s);

}  // namespace mppnet::machines::metro::scan
