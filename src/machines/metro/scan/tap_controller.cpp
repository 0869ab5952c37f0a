// machines/metro/scan/tap_controller.cpp: the 1149.1 controller's transitions (IEEE Std 1149.1-1990).
#include "machines/metro/scan/tap_controller.hpp"

namespace mppnet::machines::metro::scan {

TapState next_tap_state(TapState s, bool tms) {
  using S = TapState;
  switch (s) {
    case S::TestLogicReset:
      return tms ? S::TestLogicReset : S::RunTestIdle;
    case S::RunTestIdle:
      return tms ? S::SelectDrScan : S::RunTestIdle;
    case S::SelectDrScan:
      return tms ? S::SelectIrScan : S::CaptureDr;
    case S::CaptureDr:
      return tms ? S::Exit1Dr : S::ShiftDr;
    case S::ShiftDr:
      return tms ? S::Exit1Dr : S::ShiftDr;
    case S::Exit1Dr:
      return tms ? S::UpdateDr : S::PauseDr;
    case S::PauseDr:
      return tms ? S::Exit2Dr : S::PauseDr;
    case S::Exit2Dr:
      return tms ? S::UpdateDr : S::ShiftDr;
    case S::UpdateDr:
      return tms ? S::SelectDrScan : S::RunTestIdle;
    case S::SelectIrScan:
      return tms ? S::TestLogicReset : S::CaptureIr;
    case S::CaptureIr:
      return tms ? S::Exit1Ir : S::ShiftIr;
    case S::ShiftIr:
      return tms ? S::Exit1Ir : S::ShiftIr;
    case S::Exit1Ir:
      return tms ? S::UpdateIr : S::PauseIr;
    case S::PauseIr:
      return tms ? S::Exit2Ir : S::PauseIr;
    case S::Exit2Ir:
      return tms ? S::UpdateIr : S::ShiftIr;
    case S::UpdateIr:
      return tms ? S::SelectDrScan : S::RunTestIdle;
  }
  return S::TestLogicReset;
}

const char* tap_state_name(TapState s) {
  using S = TapState;
  switch (s) {
    case S::TestLogicReset:
      return "Test-Logic-Reset";
    case S::RunTestIdle:
      return "Run-Test/Idle";
    case S::SelectDrScan:
      return "Select-DR-Scan";
    case S::CaptureDr:
      return "Capture-DR";
    case S::ShiftDr:
      return "Shift-DR";
    case S::Exit1Dr:
      return "Exit1-DR";
    case S::PauseDr:
      return "Pause-DR";
    case S::Exit2Dr:
      return "Exit2-DR";
    case S::UpdateDr:
      return "Update-DR";
    case S::SelectIrScan:
      return "Select-IR-Scan";
    case S::CaptureIr:
      return "Capture-IR";
    case S::ShiftIr:
      return "Shift-IR";
    case S::Exit1Ir:
      return "Exit1-IR";
    case S::PauseIr:
      return "Pause-IR";
    case S::Exit2Ir:
      return "Exit2-IR";
    case S::UpdateIr:
      return "Update-IR";
  }
  return "?";
}

}  // namespace mppnet::machines::metro::scan
