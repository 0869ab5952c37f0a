// machines/metro/mrp/word_test.cpp: Table 4.1's encodings, the control field and the stage permutation.
#include "machines/metro/mrp/word.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::metro::mrp {
namespace {

TEST(MrpWord, FieldIsAtLeastTwoBitsSoThreeControlCodesFit) {
  // Table 4.1 asks for log2(max(r, d)) bits: 1 for r = d = 2, too few for Z, T and H (note 004b §6 item 2).
  EXPECT_EQ(field_bits_for(2, 2), 2);
  EXPECT_EQ(field_bits_for(4, 2), 2);  // RN1: r = 4, d = 2
  EXPECT_EQ(field_bits_for(8, 2), 3);
  EXPECT_EQ(field_bits_for(5, 1), 3);
}

TEST(MrpWord, ControlCodesClassifyAsTable41) {
  const WordFormat f{8, 2};
  EXPECT_EQ(f.classify(f.idle()), Kind::Z);
  EXPECT_EQ(f.classify(f.drop()), Kind::Z);  // IDLE and DROP are one word (Table 4.1)
  EXPECT_EQ(f.classify(f.turn()), Kind::T);
  EXPECT_EQ(f.turn().data, 0xffU);  // all ones across the width
  EXPECT_EQ(f.classify(f.data_idle()), Kind::H);
  EXPECT_EQ(f.classify(Word{0x40, 0, Tag::Idle, 0}), Kind::X);
  // With the control bit set any data is legal, all zeros and all ones included (out-of-band signalling).
  EXPECT_EQ(f.classify(f.payload(0, Tag::Data, 1)), Kind::D);
  EXPECT_EQ(f.classify(f.payload(0xff, Tag::Data, 1)), Kind::D);
}

TEST(MrpWord, PermutationPresentsTheNextFieldAndTheReverseUndoesIt) {
  const WordFormat f{8, 2};
  // Fields 0..3 of 0b11'10'01'00 are 0, 1, 2, 3: after one forward link the router reads field 1.
  const Word route = f.payload(0b11100100, Tag::Route, 0);
  EXPECT_EQ(f.field(route), 0U);
  EXPECT_EQ(f.field(f.downstream(route)), 1U);
  EXPECT_EQ(f.field(f.downstream(f.downstream(route))), 2U);
  EXPECT_EQ(f.upstream(f.downstream(route)).data, route.data);
  // Control-bit-0 words are not permuted: TURN stays all ones, DATA-IDLE keeps its pattern.
  EXPECT_EQ(f.downstream(f.data_idle()).data, f.data_idle().data);
  EXPECT_EQ(f.downstream(f.turn()).data, f.turn().data);
}

TEST(MrpWord, StatusCarriesThePortAndABlockedBitAboveTheField) {
  const WordFormat f{8, 2};
  const Word used = f.status(1, false, 2);
  EXPECT_EQ(used.data, 0b001U);
  EXPECT_FALSE(f.status_blocked(used));
  const Word blocked = f.status(0, true, 3);
  EXPECT_EQ(blocked.data, 0b100U);
  EXPECT_TRUE(f.status_blocked(blocked));
  EXPECT_EQ(f.checksum(0x1ff, 1).data, 0xffU);  // w bits only
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
