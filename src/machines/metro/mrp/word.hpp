// machines/metro/mrp/word.hpp: the link words of the METRO Routing Protocol (DeHon 1993, §4.5.1, Table 4.1).
//
// A link carries w data bits plus one control bit (L1376-1387). The control field is the low c bits of
// the data word, c = max(2, ceil(log2 max(r, d))): Table 4.1 asks for log2(max(r, d)) bits, but control-bit-0
// words need three distinct codes (IDLE/DROP all zeros, TURN all ones, DATA-IDLE a hold pattern), so the
// field has at least 2 bits (note 004b §6 item 2). Control-bit-1 words (ROUTE, DATA, STATUS, CHECKSUM) are
// told apart by their position in the stream, not by their bits (note 004b §2.2).
#pragma once

#include <cstdint>

namespace mppnet::machines::metro::mrp {

// What a word is, for traces and tests only. Routers never read it: they decide from the control bit,
// the data bits and their own state, as the hardware does. Endpoints and routers set it on the words they
// make so that a trace can print "S3" or "D2" (the note's notation), and routers pass it along unchanged.
enum class Tag : std::uint8_t { Idle, Drop, Route, Data, Reply, Turn, DataIdle, Status, Checksum };

struct Word {
  std::uint32_t data = 0;
  std::uint8_t control = 0;  // the out-of-band control bit
  Tag tag = Tag::Idle;
  std::uint8_t index = 0;  // the word's number in its stream (D1, D2), or the stage of a STATUS/CHECKSUM
};

// How a control-bit-0 word reads at a port (note 004b §2.3): Z idle or drop, T turn, H data-idle,
// X an illegal code; D is any control-bit-1 word.
enum class Kind : std::uint8_t { Z, T, H, X, D };

// The word layout of one network: w data bits, a c-bit control field in the low bits.
struct WordFormat {
  int width = 8;       // w, 1..32
  int field_bits = 2;  // c

  constexpr std::uint32_t all_ones() const {
    return width == 32 ? 0xffffffffU : (std::uint32_t{1} << width) - 1;
  }
  constexpr std::uint32_t field_mask() const { return (std::uint32_t{1} << field_bits) - 1; }
  constexpr std::uint32_t field(Word w) const { return w.data & field_mask(); }

  constexpr Kind classify(Word w) const {
    if (w.control) return Kind::D;
    if (w.data == 0) return Kind::Z;
    if (w.data == all_ones()) return Kind::T;
    if (w.data == kHoldPattern) return Kind::H;
    return Kind::X;
  }

  // Between stages the datapath bits are permuted so that each router finds a fresh direction in its
  // fixed field (§4.6, L1447-1451). mppnet's permutation is a rotation by c bits: a forward word moves
  // right by c (the next router reads the next field), and a reverse word, crossing the same wire the other
  // way, moves back. Only control-bit-1 words are permuted: routers regenerate the control-bit-0 codes,
  // since a hold pattern is not invariant under a permutation (note 004b §6 item 3, choice (a)).
  constexpr Word downstream(Word w) const { return downstream(w, field_bits); }
  constexpr Word upstream(Word w) const { return upstream(w, field_bits); }
  // The same for a wire that rotates by `by` bits (the last wire of a path restores the source's order).
  constexpr Word downstream(Word w, int by) const {
    if (w.control) w.data = rotate_right(w.data, by);
    return w;
  }
  constexpr Word upstream(Word w, int by) const {
    if (w.control) w.data = rotate_right(w.data, width - by % width);
    return w;
  }
  constexpr std::uint32_t rotate_right(std::uint32_t x, int by) const {
    by %= width;
    if (by == 0) return x;
    return ((x >> by) | (x << (width - by))) & all_ones();
  }

  // The DATA-IDLE hold pattern: field value 1, distinct from all zeros and, since c >= 2, all ones.
  static constexpr std::uint32_t kHoldPattern = 1;

  constexpr Word idle() const { return {0, 0, Tag::Idle, 0}; }
  constexpr Word drop() const { return {0, 0, Tag::Drop, 0}; }
  constexpr Word turn() const { return {all_ones(), 0, Tag::Turn, 0}; }
  constexpr Word data_idle() const { return {kHoldPattern, 0, Tag::DataIdle, 0}; }
  constexpr Word payload(std::uint32_t bits, Tag tag, int index) const {
    return {bits & all_ones(), 1, tag, static_cast<std::uint8_t>(index)};
  }
  // STATUS: the field names which of the equivalent backward ports the connection took; the bit above it
  // says "blocked" (note 004b §6 item 7: with d = 2^c no field code is left over for it).
  constexpr Word status(int port_in_direction, bool blocked, int stage) const {
    return {(static_cast<std::uint32_t>(port_in_direction) | (blocked ? std::uint32_t{1} << field_bits : 0)) &
                all_ones(),
            1, Tag::Status, static_cast<std::uint8_t>(stage)};
  }
  constexpr bool status_blocked(Word w) const { return (w.data >> field_bits) & 1; }
  constexpr Word checksum(std::uint32_t lrc, int stage) const {
    return {lrc & all_ones(), 1, Tag::Checksum, static_cast<std::uint8_t>(stage)};
  }
};

// c for radix r and dilation d (note 004b §6 item 2).
constexpr int field_bits_for(int radix, int dilation) {
  const int m = radix > dilation ? radix : dilation;
  int c = 0;
  while ((1 << c) < m) ++c;
  return c < 2 ? 2 : c;
}

}  // namespace mppnet::machines::metro::mrp
