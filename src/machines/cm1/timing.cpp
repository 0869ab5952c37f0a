// machines/cm1/timing.cpp: pipeline figures and the clocked heart site.
#include "machines/cm1/timing.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"

namespace mppnet::machines::cm1 {

namespace {
int log2_exact(int n) {
  return std::countr_zero(static_cast<unsigned>(n));
}
int triangle(int dims) {
  return (dims * dims + 3 * dims) / 2;
}  // sum of (i + 2) for i < c
}  // namespace

int message_bits(int dims, int procs_per_chip, int vp_ratio, int data_bits) {
  MPPNET_ASSERT(std::has_single_bit(static_cast<unsigned>(procs_per_chip)),
                "procs_per_chip not a power of 2");
  MPPNET_ASSERT(vp_ratio >= 1, "vp_ratio below 1");
  const int vp_bits = std::bit_width(static_cast<unsigned>(vp_ratio - 1));  // ceil(log2(v)), 0 for v = 1
  return 1 + dims + log2_exact(procs_per_chip) + vp_bits + data_bits + 1;
}

std::int64_t in_order_storage_bits(int rows, int dims) {
  return std::int64_t{rows} * triangle(dims);
}
int in_order_msgp_delay(int dims) {
  return triangle(dims);
}
int in_order_heart_delay(int length, int dims) {
  return length + triangle(dims);
}
int in_order_petit_period(int length, int dims) {
  return std::max(length, triangle(dims));
}
int in_order_two_batch_period(int length, int dims) {
  return std::max(2 * length, triangle(dims));
}

std::int64_t drop_bits_storage_bits(int rows, int dims) {
  return std::int64_t{2} * rows * dims;
}
int drop_bits_heart_delay(int length, int dims) {
  return (length - dims) + 2 * dims;
}

std::int64_t rotating_storage_bits(int rows, int dims) {
  return std::int64_t{2} * rows * dims;
}
int rotating_heart_delay(int length, int dims) {
  return length + 2 * dims;
}
int rotating_petit_period(int length, int dims) {
  return std::max(length, 2 * dims);
}

std::int64_t delivery_bit_times(Pipeline pipeline, std::int64_t petit_cycles, int length, int dims) {
  MPPNET_ASSERT(petit_cycles >= 1, "a delivery cycle has at least one petit cycle");
  switch (pipeline) {
    case Pipeline::Rotating:
      return (petit_cycles - 1) * rotating_petit_period(length, dims) + rotating_heart_delay(length, dims);
    case Pipeline::InOrder:
      return (petit_cycles - 1) * in_order_petit_period(length, dims) + in_order_heart_delay(length, dims);
    case Pipeline::DropBits:
      // Column 0 is busy for the l bits of a message, so petit cycles follow each other every l (at least
      // 2, one column's delay) bit-times (docs/cm1.md).
      return (petit_cycles - 1) * std::max(length, 2) + drop_bits_heart_delay(length, dims);
  }
  MPPNET_ASSERT(false, "unknown pipeline");
  return 0;
}

namespace {
void put_bits(BitStream& s, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) s.push_back(static_cast<std::uint8_t>((v >> i) & 1));
}
std::uint64_t get_bits(const BitStream& s, std::size_t& at, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t{s[at++]} << i;
  return v;
}
}  // namespace

BitStream encode(const MessageFields& m, const FieldWidths& w) {
  BitStream s;
  s.reserve(static_cast<std::size_t>(w.length()));
  s.push_back(1);
  put_bits(s, m.rel, w.dims);
  put_bits(s, m.proc, w.proc_bits);
  put_bits(s, m.vp, w.vp_bits);
  put_bits(s, m.data, w.data_bits);
  std::uint8_t parity = 0;
  for (std::size_t i = 1; i < s.size(); ++i) parity ^= s[i];
  s.push_back(parity);
  return s;
}

MessageFields decode(const BitStream& s, const FieldWidths& w, bool* parity_ok) {
  MPPNET_ASSERT(s.size() == static_cast<std::size_t>(w.length()), "stream length does not match the fields");
  MessageFields m;
  std::size_t at = 1;
  m.rel = static_cast<std::uint32_t>(get_bits(s, at, w.dims));
  m.proc = static_cast<std::uint32_t>(get_bits(s, at, w.proc_bits));
  m.vp = static_cast<std::uint32_t>(get_bits(s, at, w.vp_bits));
  m.data = get_bits(s, at, w.data_bits);
  std::uint8_t parity = 0;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) parity ^= s[i];
  if (parity_ok) *parity_ok = parity == s.back();
  return m;
}

BitStream clock_heart_site(const BitStream& in, int dims, bool crossed) {
  const int l = static_cast<int>(in.size());
  MPPNET_ASSERT(l >= dims + 2, "a stream carries MSGP, the address and parity");
  BitStream out(static_cast<std::size_t>(l + 2), 0);
  std::uint8_t msgp = 0, held = 0, latch1 = 0, latch2 = 0;  // latch1 = input of t-1, latch2 = of t-2
  for (int t = 0; t < l + 2; ++t) {
    // Drive the output of bit-time t from the registers as they stand at its start.
    std::uint8_t drive = 0;
    if (t == 2) {
      drive = msgp;
    } else if (t >= 3 && t <= dims + 1) {
      drive = latch1;  // the other address bits, one bit-time behind their arrival
    } else if (t == dims + 2) {
      drive = static_cast<std::uint8_t>(held ^ (crossed ? 1 : 0));
    } else if (t >= dims + 3) {
      drive = latch2;                         // the tail, two bit-times behind
      if (t == l + 1 && crossed) drive ^= 1;  // the last bit is PARITY
    }
    out[static_cast<std::size_t>(t)] = drive;
    // Latch the input of bit-time t.
    const std::uint8_t bit = t < l ? in[static_cast<std::size_t>(t)] : 0;
    latch2 = latch1;
    latch1 = bit;
    if (t == 0) msgp = bit;
    if (t == 1) held = bit;  // the routing decision is made at the end of this bit-time
  }
  return out;
}

}  // namespace mppnet::machines::cm1
