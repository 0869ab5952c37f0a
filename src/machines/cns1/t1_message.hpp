// machines/cns1/t1_message.hpp: the T1's architectural message (note 002 §3.6), as the NI hands it to
// the network and takes it back.
#pragma once

#include <array>
#include <cstdint>

namespace mppnet::machines::cns1 {

// The two logically separate networks: requests go low, replies high (note 002 §2.2, §3.9).
enum class Priority : std::uint8_t { Low = 0, High = 1 };

constexpr std::size_t index(Priority p) {
  return static_cast<std::size_t>(p);
}

inline constexpr unsigned kMaxScalarWords = 5;   // $4, $5, $6, $7, $29 (note 002 §3.5.4)
inline constexpr unsigned kMaxVectorWords = 32;  // one vector register, vlr <= 32
// The data registers in message order: scalar word i comes from, and lands in, kDataRegisters[i].
inline constexpr std::array<unsigned, kMaxScalarWords> kDataRegisters = {4, 5, 6, 7, 29};
// Node identifiers are niid's bits 10-0; the destination register's upper bits are ignored (A28).
inline constexpr std::uint32_t kNodeIdMask = 0x7FF;

// What a SEND or MCST puts on the network. The document defines no wire format (it is micro-architecture),
// only these fields; every one is visible at the receiver except the destination and the source.
struct T1Message {
  std::uint32_t destination = 0;  // GPR[rd] as the sender gave it (route with & kNodeIdMask)
  std::uint32_t handler = 0;      // GPR[rt]: the receiver's PC when ame = 1, its inh always
  bool kernel = false;            // the sender's KU_c: the handler runs in the sender's mode (§3.11)
  Priority priority = Priority::Low;
  bool multicast = false;          // MCST: a copy at every node on the path (§3.13); nistat.mcst
  std::uint8_t scalar_count = 0;   // n, 0..5: nistat.slen
  std::uint8_t vector_length = 0;  // vlr of a .V form, 0..32: nistat.vlen
  std::array<std::uint32_t, kMaxScalarWords> scalars{};
  std::array<std::uint32_t, kMaxVectorWords> vector{};
  // Not architectural (A39: the source is not in the message): kept for traces and tests only.
  std::uint32_t source = 0;
};

}  // namespace mppnet::machines::cns1
