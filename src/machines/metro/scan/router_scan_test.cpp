// machines/metro/scan/router_scan_test.cpp: a dual-TAP router's registers and conflict resolution.
#include "machines/metro/scan/router_scan.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mppnet::machines::metro::scan {
namespace {

// Drives one TAP of a lone router, as a scan controller with the router alone on its path would.
struct Driver {
  RouterScan& r;
  int tap;
  void clocks(std::vector<bool> tms) {
    for (bool b : tms) r.clock(tap, b, false);
  }
  // Run-Test/Idle -> Shift-IR, `length` bits, -> Update-IR -> Run-Test/Idle; returns what TDO showed.
  std::uint32_t load_word(std::uint32_t word, int length) {
    clocks({true, true, false, false});
    std::uint32_t out = 0;
    for (int b = 0; b < length; ++b) {
      out |= static_cast<std::uint32_t>(r.tdo(tap)) << b;
      r.clock(tap, b + 1 == length, ((word >> b) & 1) != 0);
    }
    clocks({true, false});
    return out;
  }
  std::vector<std::uint8_t> exchange(const std::vector<std::uint8_t>& bits) {
    clocks({true, false, false});
    std::vector<std::uint8_t> out;
    for (std::size_t b = 0; b < bits.size(); ++b) {
      out.push_back(r.tdo(tap) ? 1 : 0);
      r.clock(tap, b + 1 == bits.size(), bits[b] != 0);
    }
    clocks({true, false});
    return out;
  }
};

struct RouterScanTest : ::testing::Test {
  SparseCode code{8};
  RouterScan r{4, 4, 10, 2, code};  // Fig 4.4's routers: 4 forward, 4 backward ports
  Driver a{r, 0}, b{r, 1};
  void SetUp() override {
    a.clocks({false});
    b.clocks({false});
  }
  std::uint32_t word(Instruction in) { return code.encode(in, r.ports()); }
};

TEST_F(RouterScanTest, ResetLeavesBypassAndCaptureIrReadsZeroOne) {
  EXPECT_EQ(r.instruction(0), Instruction{});
  const std::uint32_t captured = a.load_word(word({Opcode::PortSelect, 0}), code.length());
  EXPECT_EQ(captured, 0b01u);
  EXPECT_EQ(r.instruction(0).op, Opcode::PortSelect);
  a.clocks({true, true, true, true, true});
  EXPECT_EQ(r.state(0), TapState::TestLogicReset);
  EXPECT_EQ(r.instruction(0), Instruction{});
}

TEST_F(RouterScanTest, PortSelectRegisterReadsAndWritesOneBitPerPort) {
  a.load_word(word({Opcode::PortSelect, 0}), code.length());
  std::vector<std::uint8_t> want(8, 1);
  want[5] = 0;
  const auto before = a.exchange(want);
  EXPECT_EQ(before, std::vector<std::uint8_t>(8, 1));  // every port enabled after power-up
  EXPECT_FALSE(r.port_enabled(5));
  EXPECT_TRUE(r.port_enabled(4));
  EXPECT_EQ(a.exchange(want), want);  // Capture-DR reads the register back
}

TEST_F(RouterScanTest, BypassIsOneBitDelay) {
  const auto out = a.exchange({1, 0, 1, 1});
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 1, 0, 1}));  // the captured 0, then the bits one late
}

TEST_F(RouterScanTest, NewerLoadWinsAConflictAndTheOlderTapFallsToBypass) {
  a.load_word(word({Opcode::PortSelect, 0}), code.length());
  b.load_word(word({Opcode::PortSelect, 0}), code.length());
  EXPECT_EQ(r.instruction(0), Instruction{});
  EXPECT_EQ(r.instruction(1).op, Opcode::PortSelect);
  EXPECT_EQ(r.conflicts_resolved(), 1);
}

TEST_F(RouterScanTest, DisjointPortSegmentsDoNotConflictButExtestTakesThemAll) {
  a.load_word(word({Opcode::PartialExtest, 2}), code.length());
  b.load_word(word({Opcode::PartialExtest, 3}), code.length());
  EXPECT_EQ(r.instruction(0), (Instruction{Opcode::PartialExtest, 2}));
  EXPECT_EQ(r.instruction(1), (Instruction{Opcode::PartialExtest, 3}));
  EXPECT_EQ(r.conflicts_resolved(), 0);
  b.load_word(word({Opcode::Extest, 0}), code.length());
  EXPECT_EQ(r.instruction(0), Instruction{});
  EXPECT_EQ(r.conflicts_resolved(), 1);
}

TEST_F(RouterScanTest, IllegalLoadBecomesBypassAndTakesNothing) {
  a.load_word(word({Opcode::PortSelect, 0}), code.length());
  b.load_word(0, code.length());                // a stuck-at-0 TDI
  b.load_word(code.all_ones(), code.length());  // a stuck-at-1 TDI
  EXPECT_EQ(r.instruction(1), Instruction{});
  EXPECT_EQ(r.instruction(0).op, Opcode::PortSelect);
  EXPECT_EQ(r.conflicts_resolved(), 0);
}

TEST_F(RouterScanTest, PartialExtestDrivesAndSamplesOnePort) {
  std::uint32_t driven = 0;
  int driven_port = -1;
  r.set_io({.sense = [](int port) { return 0x200u | static_cast<std::uint32_t>(port); },
            .drive =
                [&](int port, std::uint32_t v) {
                  driven_port = port;
                  driven = v;
                },
            .port_select_updated = {}});
  a.load_word(word({Opcode::PartialExtest, 6}), code.length());
  std::vector<std::uint8_t> bits(10, 0);
  bits[0] = bits[9] = 1;  // 0x201
  const auto got = a.exchange(bits);
  std::uint32_t v = 0;
  for (int k = 0; k < 10; ++k) v |= static_cast<std::uint32_t>(got[k]) << k;
  EXPECT_EQ(v, 0x206u);  // port 6's pins, back-drop bit set
  EXPECT_EQ(driven_port, 6);
  EXPECT_EQ(driven, 0x201u);
}

TEST_F(RouterScanTest, IntestSignatureShowsAFailingSelfTest) {
  a.load_word(word({Opcode::Intest, 0}), code.length());
  auto read = [&] {
    const auto got = a.exchange(std::vector<std::uint8_t>(RouterScan::kSignatureBits, 0));
    std::uint32_t v = 0;
    for (int k = 0; k < RouterScan::kSignatureBits; ++k) v |= static_cast<std::uint32_t>(got[k]) << k;
    return v;
  };
  EXPECT_EQ(read(), RouterScan::kGoodSignature);
  r.set_self_test_fails(true);
  EXPECT_NE(read(), RouterScan::kGoodSignature);
}

}  // namespace
}  // namespace mppnet::machines::metro::scan
