// machines/cm1/timing.hpp: message length, the three heart pipelines of the paper, and a bit-level heart
// site.
//
// Source: Kahle, Kuszmaul, Hillis, "The Connection Machine Message Router" (TMC 1989), sec. 3.4.2
// (seed 001 lines 159-252; reference note 001 §2.7 and §4.6). Symbols: c cube dimensions, b heart rows,
// l message length in bits, p petit cycles in a delivery cycle. All times are in bit-times.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/cm1/params.hpp"

namespace mppnet::machines::cm1 {

// Bits of one message: MSGP 1 + CUBE c + PROC log2(P) + VP ceil(log2(v)) + DATA d + PARITY 1 (note §2.4;
// the paper's "6 + c + v + d" for P = 16). A VP ratio that is not a power of two still needs a whole
// number of offset bits, hence the ceiling. REQUIRES: procs_per_chip is a power of two, vp_ratio >= 1.
int message_bits(int dims, int procs_per_chip, int vp_ratio, int data_bits);

// The "wrong" pipeline, address kept in order (paper L175-L196): column i delays i + 2 bit-times.
std::int64_t in_order_storage_bits(int rows, int dims);  // b (c^2 + 3c) / 2
int in_order_msgp_delay(int dims);                       // (c^2 + 3c) / 2: MSGP through the heart
int in_order_heart_delay(int length, int dims);          // l + (c^2 + 3c) / 2
int in_order_petit_period(int length, int dims);         // max(l, (c^2 + 3c) / 2)
int in_order_two_batch_period(int length, int dims);     // max(2l, (c^2 + 3c) / 2): two interleaved batches

// The oblivious pipeline that drops used address bits (paper L198-L226): 2 bit-times per column.
std::int64_t drop_bits_storage_bits(int rows, int dims);  // 2bc
int drop_bits_heart_delay(int length, int dims);          // (l - c) + 2c

// The actual rotating-address heart (paper L228-L252).
std::int64_t rotating_storage_bits(int rows, int dims);  // 2bc
int rotating_heart_delay(int length, int dims);          // l + 2c
int rotating_petit_period(int length, int dims);         // max(l, 2c)

// Bit-times from the first MSGP at column 0 to the last bit out of the heart, for p back-to-back petit
// cycles: (p - 1) * period + heart delay, which for the rotating heart is p l + 2c when 2c <= l, else
// l + 2cp (paper L248). REQUIRES: petit_cycles >= 1.
std::int64_t delivery_bit_times(Pipeline pipeline, std::int64_t petit_cycles, int length, int dims);

// Switch sites: injector B x P (paper L109: 7 x 16 = 112), heart c x B (84).
constexpr int injector_sites(int rows, int procs_per_chip) {
  return rows * procs_per_chip;
}
constexpr int heart_sites(int rows, int dims) {
  return rows * dims;
}

// --- A bit-level model of the rotating heart, for one row (note §4.6, E2) ---

// A message as its bits in transmission order: MSGP, CUBE a0..a(c-1) (low bit first), PROC, VP, DATA
// (each low bit first), PARITY (even over CUBE, PROC, VP and DATA: note §6 A10).
using BitStream = std::vector<std::uint8_t>;

struct MessageFields {
  std::uint32_t rel = 0;  // relative cube address
  std::uint32_t proc = 0;
  std::uint32_t vp = 0;
  std::uint64_t data = 0;
};
struct FieldWidths {
  int dims = 12;
  int proc_bits = 4;
  int vp_bits = 0;
  int data_bits = 32;  // at most 64 here
  int length() const { return 2 + dims + proc_bits + vp_bits + data_bits; }
};

BitStream encode(const MessageFields& m, const FieldWidths& w);
// The fields of a stream whose address is in original order; `parity_ok` says whether the carried
// parity matches the recomputed one.
MessageFields decode(const BitStream& s, const FieldWidths& w, bool* parity_ok);

// One heart site of column `column`, clocked bit by bit: the stream enters at bit-times 0 .. l-1 and the
// result is what the site drives at bit-times 0 .. l+1 (the first two are idle). It latches MSGP, holds
// the next bit (always a_column, because of rotation), passes the other c-1 address bits with a one-bit
// latch, emits the held bit (flipped if `crossed`), then the tail through a two-bit latch, inverting
// PARITY if `crossed`. Storage that the paper counts: MSGP and the held bit, 2 bits.
BitStream clock_heart_site(const BitStream& in, int dims, bool crossed);

}  // namespace mppnet::machines::cm1
