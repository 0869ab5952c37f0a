// machines/cm1/timing_test.cpp: the paper's constants and pipeline figures (note 001 §5 E1) and the
// clocked heart site (E2).
#include "machines/cm1/timing.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cm1 {
namespace {

constexpr int kC = 12;  // cube dimensions of the CM-1
constexpr int kB = 7;   // heart rows
constexpr int kL = 50;  // message length with d = 32, no VP bits (paper L185)

TEST(Cm1Timing, MessageLengthIs6PlusCPlusVPlusD) {
  EXPECT_EQ(message_bits(12, 16, 1, 32), kL);   // 6 + 12 + 0 + 32
  EXPECT_EQ(message_bits(12, 16, 16, 32), 54);  // 4 VP bits
  EXPECT_EQ(message_bits(12, 16, 12, 32), 54);  // v = 12 still needs 4 offset bits (ceil(log2 12))
  EXPECT_EQ(message_bits(12, 16, 3, 32), 52);   // and v = 3 needs 2
  EXPECT_EQ(message_bits(12, 16, 1, 5), 23);    // the d = 5 example of note §5 E1
}

TEST(Cm1Timing, InOrderPipelineFigures) {
  // Paper L181-L194: storage b (c^2 + 3c) / 2 = 7 x 90 = 630 bits; heart delay 50 + 90 = 140; MSGP takes 90
  // bit-times, so the petit cycle is 90 and a wire is busy 50 of 90; two interleaved batches: 100.
  EXPECT_EQ(in_order_storage_bits(kB, kC), 630);
  EXPECT_EQ(in_order_heart_delay(kL, kC), 140);
  EXPECT_EQ(in_order_msgp_delay(kC), 90);
  EXPECT_EQ(in_order_petit_period(kL, kC), 90);
  EXPECT_EQ(in_order_two_batch_period(kL, kC), 100);
}

TEST(Cm1Timing, DropBitsAndRotatingFigures) {
  // Paper L218-L244: 2bc = 168 bits for both; delays (50 - 12) + 24 = 62 and 50 + 24 = 74.
  EXPECT_EQ(drop_bits_storage_bits(kB, kC), 168);
  EXPECT_EQ(drop_bits_heart_delay(kL, kC), 62);
  EXPECT_EQ(rotating_storage_bits(kB, kC), 168);
  EXPECT_EQ(rotating_heart_delay(kL, kC), 74);
}

TEST(Cm1Timing, DropBitsDeliveryTime) {
  // One petit cycle: the paper's heart delay (l - c) + 2c = 62 (L224); then one l per further petit cycle
  // (our choice, docs/cm1.md): 12 x 50 + 12 = 612.
  EXPECT_EQ(delivery_bit_times(Pipeline::DropBits, 1, kL, kC), 62);
  EXPECT_EQ(delivery_bit_times(Pipeline::DropBits, 12, kL, kC), 11 * 50 + 62);
}

TEST(Cm1Timing, DeliveryTimeBranches) {
  // Paper L248-L250: p l + 2c when 2c <= l (12 x 50 + 24 = 624), l + 2cp otherwise (d = 5: l = 23).
  EXPECT_EQ(delivery_bit_times(Pipeline::Rotating, 12, kL, kC), 624);
  EXPECT_EQ(delivery_bit_times(Pipeline::Rotating, 1, kL, kC), 74);
  EXPECT_EQ(delivery_bit_times(Pipeline::Rotating, 12, 23, kC), 23 + 24 * 12);
  // The branch changes exactly at l = 2c (v + d = 6): both forms agree there.
  EXPECT_EQ(delivery_bit_times(Pipeline::Rotating, 7, 24, kC), 7 * 24 + 24);
  EXPECT_EQ(delivery_bit_times(Pipeline::Rotating, 7, 24, kC), 24 + 24 * 7);
  // The in-order pipeline restarts every 90 bit-times: 11 x 90 + 140.
  EXPECT_EQ(delivery_bit_times(Pipeline::InOrder, 12, kL, kC), 11 * 90 + 140);
}

TEST(Cm1Timing, SiteCounts) {
  EXPECT_EQ(injector_sites(kB, 16), 112);  // paper L109
  EXPECT_EQ(heart_sites(kB, kC), 84);      // paper L119: 12 columns of 7 sites
}

TEST(Cm1Timing, EncodeDecodeRoundTripWithEvenParity) {
  const FieldWidths w{12, 4, 2, 32};
  const MessageFields m{0xa5c, 0x9, 0x2, 0xdeadbeef};
  bool ok = false;
  const auto s = encode(m, w);
  ASSERT_EQ(static_cast<int>(s.size()), w.length());
  EXPECT_EQ(s[0], 1);  // MSGP first
  EXPECT_EQ(s[1], 0);  // a0 = low bit of 0xa5c
  EXPECT_EQ(s[3], 1);  // a2
  const auto back = decode(s, w, &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(back.rel, m.rel);
  EXPECT_EQ(back.proc, m.proc);
  EXPECT_EQ(back.vp, m.vp);
  EXPECT_EQ(back.data, m.data);
}

TEST(Cm1Timing, EachHeartSiteDelaysTheStreamByTwoAndRotatesTheAddress) {
  // Note 001 §4.6: column i emits MSGP at +2 and a_{i+1} .. a_{c-1}, a_0 .. a_i after it.
  const FieldWidths w{12, 4, 0, 32};
  const std::uint32_t rel = 0b101100111010;
  auto stream = encode({rel, 3, 0, 0x12345678}, w);
  const std::size_t l = stream.size();
  for (int i = 0; i < kC; ++i) {
    const bool crossed = false;
    const auto out = clock_heart_site(stream, kC, crossed);
    ASSERT_EQ(out.size(), l + 2);
    EXPECT_EQ(out[0], 0);
    EXPECT_EQ(out[1], 0);
    stream.assign(out.begin() + 2, out.end());
    // The address now reads a_{i+1} .. a_{c-1}, a_0 .. a_i.
    for (int k = 0; k < kC; ++k) {
      const int bit = (i + 1 + k) % kC;
      EXPECT_EQ(stream[static_cast<std::size_t>(1 + k)], (rel >> bit) & 1)
          << "column " << i << " position " << k;
    }
  }
  bool ok = false;
  EXPECT_EQ(decode(stream, w, &ok).rel, rel);  // after c columns the order is the original one
  EXPECT_TRUE(ok);
}

TEST(Cm1Timing, TwelveSitesGiveTheHeartLatencyLPlus2c) {
  // In SIMD lockstep every site knows when its MSGP is due, so each site is clocked from its own stream
  // start; the delays add up. A 50-bit stream whose MSGP enters column 0 at S leaves column 11 with MSGP at
  // S + 2c and its last bit at S + 2c + l - 1: the heart takes l + 2c = 74 bit-times (paper L240-L244).
  const FieldWidths w{12, 4, 0, 32};
  auto stream = encode({0xfff, 0, 0, 0xffffffff}, w);
  int msgp_at = 0;  // bit-time of MSGP relative to S
  for (int i = 0; i < kC; ++i) {
    const auto out = clock_heart_site(stream, kC, true);
    int first = 0;
    while (out[static_cast<std::size_t>(first)] == 0) ++first;  // MSGP is the first 1 driven
    msgp_at += first;
    stream.assign(out.begin() + first, out.end());
  }
  EXPECT_EQ(msgp_at, 2 * kC);
  const int last_bit_at = msgp_at + static_cast<int>(stream.size()) - 1;
  EXPECT_EQ(last_bit_at + 1, rotating_heart_delay(kL, kC));
  EXPECT_EQ(last_bit_at + 1, 74);
}

TEST(Cm1Timing, CrossingFlipsTheHeldBitAndParityStaysValid) {
  // A message that crosses every dimension it wants: after the 12 sites its address is 0 and the carried
  // parity, inverted once per crossing, still matches the recomputed one (note §5 E2).
  const FieldWidths w{12, 4, 0, 32};
  const std::uint32_t rel = 0b011010010111;
  auto stream = encode({rel, 5, 0, 0xcafe}, w);
  for (int i = 0; i < kC; ++i) {
    const bool wants = ((rel >> i) & 1) != 0;  // a_i is always the bit right after MSGP
    EXPECT_EQ(stream[1], wants ? 1 : 0) << i;
    const auto out = clock_heart_site(stream, kC, wants);
    stream.assign(out.begin() + 2, out.end());
    bool ok = false;
    decode(stream, w, &ok);  // positions shift with rotation, but parity covers every bit alike
    EXPECT_TRUE(ok) << i;
  }
  bool ok = false;
  const auto m = decode(stream, w, &ok);
  EXPECT_EQ(m.rel, 0u);
  EXPECT_EQ(m.data, 0xcafeu);
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace mppnet::machines::cm1
