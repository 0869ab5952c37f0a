// machines/metro/scan/tap_controller_test.cpp: the 1149.1 controller's transitions.
#include "machines/metro/scan/tap_controller.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace mppnet::machines::metro::scan {
namespace {

TEST(TapController, FiveTmsOnesResetFromEveryState) {
  // IEEE 1149.1: TMS held high for five TCK edges reaches Test-Logic-Reset from any state.
  for (int s = 0; s < kTapStates; ++s) {
    TapState t = static_cast<TapState>(s);
    for (int k = 0; k < 5; ++k) t = next_tap_state(t, true);
    EXPECT_EQ(t, TapState::TestLogicReset) << tap_state_name(static_cast<TapState>(s));
  }
}

TEST(TapController, FourOnesDoNotResetFromShiftIr) {
  // Shift-IR -> Exit1-IR -> Update-IR -> Select-DR-Scan -> Select-IR-Scan: the fifth edge is needed.
  TapState t = TapState::ShiftIr;
  for (int k = 0; k < 4; ++k) t = next_tap_state(t, true);
  EXPECT_EQ(t, TapState::SelectIrScan);
}

TEST(TapController, InstructionAndDataScanPaths) {
  auto walk = [](TapState t, std::vector<bool> tms) {
    for (bool b : tms) t = next_tap_state(t, b);
    return t;
  };
  EXPECT_EQ(walk(TapState::RunTestIdle, {true, true, false, false}), TapState::ShiftIr);
  EXPECT_EQ(walk(TapState::RunTestIdle, {true, false, false}), TapState::ShiftDr);
  EXPECT_EQ(walk(TapState::ShiftIr, {true, true, false}), TapState::RunTestIdle);
  EXPECT_EQ(walk(TapState::ShiftDr, {true, false, true, false}), TapState::ShiftDr);  // via Pause, Exit2
  EXPECT_EQ(walk(TapState::TestLogicReset, {false}), TapState::RunTestIdle);
}

TEST(TapController, AllSixteenStatesReachableAndNamed) {
  std::set<TapState> seen{TapState::TestLogicReset};
  std::vector<TapState> todo{TapState::TestLogicReset};
  while (!todo.empty()) {
    const TapState t = todo.back();
    todo.pop_back();
    for (bool b : {false, true})
      if (seen.insert(next_tap_state(t, b)).second) todo.push_back(next_tap_state(t, b));
  }
  EXPECT_EQ(seen.size(), 16u);
  std::set<std::string> names;
  for (int s = 0; s < kTapStates; ++s) names.insert(tap_state_name(static_cast<TapState>(s)));
  EXPECT_EQ(names.size(), 16u);
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
