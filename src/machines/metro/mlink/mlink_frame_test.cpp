// machines/metro/mlink/mlink_frame_test.cpp: MLINK's byte framing (Fig 11.1; note 004c §3.5 and §8
// target 12), bytes worked out by hand from the check's definition (mlink_frame.hpp).
#include "machines/metro/mlink/mlink_frame.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::metro::mlink::mlink_frame_test {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::string error_of(const Frame& f) {
  try {
    static_cast<void>(encode(f, 0));
  } catch (const FrameError& e) {
    return e.what();
  }
  return "";
}

std::string decode_error(const Bytes& b, NodeId dest) {
  try {
    static_cast<void>(decode(b, dest));
  } catch (const FrameError& e) {
    return e.what();
  }
  return "";
}

TEST(MlinkFrame, ByteCountsAreThoseOfFigure11_1) {
  // Note 004c §3.5: forward words with the ROUTE (R = 1) and the TURN: RESET/NOOP R + 4, READ R + 8,
  // WRITE/ROP R + 10 + 8·len; replies 4 words, READ 5 + 8·len + DATA-IDLE.
  EXPECT_EQ(1 + frame_bytes(Op::Reset, 0) + 1, 1 + 4);
  EXPECT_EQ(1 + frame_bytes(Op::Noop, 0) + 1, 1 + 4);
  EXPECT_EQ(1 + frame_bytes(Op::Read, 3) + 1, 1 + 8);
  EXPECT_EQ(1 + frame_bytes(Op::Write, 2) + 1, 27);  // target 12: 1 + 1 + 1 + 3 + 2 + 16 + 2 + 1
  EXPECT_EQ(1 + frame_bytes(Op::Rop, 5) + 1, 1 + 10 + 40);
  EXPECT_EQ(reply_words(Op::Write, 2, 0), 4);
  EXPECT_EQ(reply_words(Op::Read, 1, 6), 5 + 8 + 6);
}

TEST(MlinkFrame, NoopAndResetCarryTheirOpcodeAndItsCheckSeededWithTheDestination) {
  // NOOP (4) to node 5: rotating XOR rotl(5) ^ 4 = 0x0a ^ 0x04 = 0x0e, sum 5 + 4 = 9.
  EXPECT_EQ(encode({Op::Noop, 0, 0, {}}, 5), (Bytes{0x04, 0x0e, 0x09}));
  // RESET (3) to node 0: rotl(0) ^ 3 = 3, sum 3.
  EXPECT_EQ(encode({Op::Reset, 0, 0, {}}, 0), (Bytes{0x03, 0x03, 0x03}));
}

TEST(MlinkFrame, ReadCarriesLenAndAMostSignificantFirstAddressUnderItsHeaderCheck) {
  // READ (1) of 1 double-word at 0x000100 to node 1: op 01, len 01, ADDR 00 01 00. Check seeded 1:
  // x: rotl(1)^1 = 3, rotl(3)^1 = 7, rotl(7)^0 = 0x0e, rotl(0x0e)^1 = 0x1d, rotl(0x1d)^0 = 0x3a;
  // sum 1 + 1 + 1 + 0 + 1 + 0 = 4.
  EXPECT_EQ(encode({Op::Read, 1, 0x100, {}}, 1), (Bytes{0x01, 0x01, 0x00, 0x01, 0x00, 0x3a, 0x04}));
}

TEST(MlinkFrame, WriteCarriesItsDataUnderASecondCheck) {
  Frame f{Op::Write, 1, 0x000008, {1, 2, 3, 4, 5, 6, 7, 8}};
  const Bytes b = encode(f, 0);
  ASSERT_EQ(b.size(), 17u);  // 7 header bytes, 8 data, 2 check
  EXPECT_EQ((Bytes(b.begin(), b.begin() + 5)), (Bytes{0x02, 0x01, 0x00, 0x00, 0x08}));
  // The header check, seeded 0: x = rotl(rotl(rotl(2)^1)^0 ...): 2 -> 5 -> 0x0a -> 0x14 -> 0x20; sum 11.
  EXPECT_EQ(b[5], 0x20);
  EXPECT_EQ(b[6], 11);
  EXPECT_EQ((Bytes(b.begin() + 7, b.begin() + 15)), f.data);
  // The payload check, seeded 0 again: x over 1..8 = 1, 0, 3, 2, 1, 4, 0x0f, 0x16; sum 36.
  EXPECT_EQ(b[15], 0x16);
  EXPECT_EQ(b[16], 36);
  const Frame back = decode(b, 0);
  EXPECT_EQ(back.op, Op::Write);
  EXPECT_EQ(back.len, 1);
  EXPECT_EQ(back.addr, 8u);
  EXPECT_EQ(back.data, f.data);
}

TEST(MlinkFrame, AFrameForAnotherNodeFailsItsCheck) {
  const Bytes b = encode({Op::Noop, 0, 0, {}}, 5);
  EXPECT_EQ(decode_error(b, 6), "MLINK NOOP frame: bad header check");
}

TEST(MlinkFrame, BadOperationsAreRefusedNamingTheField) {
  EXPECT_EQ(error_of({static_cast<Op>(9), 0, 0, {}}),
            "MLINK opcode 9: not READ (1), WRITE (2), RESET (3), NOOP (4) or ROP (5)");
  EXPECT_EQ(error_of({Op::Write, 0, 0, {}}), "MLINK WRITE len = 0: must be 1..255 double-words (one byte)");
  EXPECT_EQ(error_of({Op::Read, 256, 0, {}}), "MLINK READ len = 256: must be 1..255 double-words (one byte)");
  EXPECT_EQ(error_of({Op::Write, 2, 0, Bytes(15, 0)}),
            "MLINK WRITE of len 2: 15 data bytes, expected 16 (8 per double-word)");
  EXPECT_EQ(error_of({Op::Read, 1, 0x0c, {}}), "MLINK READ address 0xc: not double-word aligned");
  EXPECT_EQ(error_of({Op::Rop, 1, 0x1000000, Bytes(8, 0)}),
            "MLINK ROP address 0x1000000: beyond the 24-bit ADDR field");
  EXPECT_EQ(error_of({Op::Noop, 1, 0, {}}), "MLINK NOOP: carries no length, address or data");
  EXPECT_EQ(error_of({Op::Rop, 0, 0x123, {}}), "");  // an active message may carry only its address
}

TEST(MlinkFrame, BadFramesAreRefusedWhenRead) {
  EXPECT_EQ(decode_error({0x07, 0x00, 0x00}, 0),
            "MLINK frame: opcode 7 is not READ (1), WRITE (2), RESET (3), NOOP (4) or ROP (5)");
  Bytes write = encode({Op::Write, 1, 0, Bytes(8, 0xff)}, 3);
  Bytes shorter(write.begin(), write.end() - 1);
  EXPECT_EQ(decode_error(shorter, 3), "MLINK frame: 16 bytes, but WRITE of len 1 is 17 bytes");
  Bytes longer = write;
  longer.push_back(0);
  EXPECT_EQ(decode_error(longer, 3), "MLINK frame: 18 bytes, but WRITE of len 1 is 17 bytes");
  Bytes bad_payload = write;
  bad_payload[9] ^= 0x10;
  EXPECT_EQ(decode_error(bad_payload, 3), "MLINK WRITE frame: bad payload check");
  Bytes bad_header = write;
  bad_header[4] ^= 0x08;
  EXPECT_EQ(decode_error(bad_header, 3), "MLINK WRITE frame: bad header check");
}

TEST(MlinkFrame, TheReaderGivesNoDataAfterABadHeader) {
  // The header check guards the address, so that a WRITE streams into memory only once it matched.
  Bytes write = encode({Op::Write, 1, 0x10, Bytes(8, 0x5a)}, 2);
  write[3] ^= 1;
  FrameReader r(2);
  int data = 0;
  for (const std::uint8_t b : write) data += r.feed(b) == FrameReader::Event::Data ? 1 : 0;
  EXPECT_EQ(data, 0);
  EXPECT_EQ(r.status(), Status::BadHeader);
}

}  // namespace
}  // namespace mppnet::machines::metro::mlink::mlink_frame_test
