// machines/cns1/ni_registers.hpp: the numbers of the NI control registers and the bit layout of nistat
// (note 002 §3.3, §3.4, §8), in one place so that a recovered original figure can replace the layout.
#pragma once

#include <cstdint>

namespace mppnet::machines::cns1 {

// CFC2 / CTC2 register numbers (Table 1, L551-L565).
enum NiRegister : unsigned {
  kTimeh = 6,
  kTimec = 7,
  kCount = 9,
  kEnable = 18,
  kNistat = 19,
  kLpepc = 20,
  kHpepc = 21,
  kNiid = 22,
  kDmh = 23,
  kOuth = 24,
  kInh = 25,
};

constexpr bool is_defined_register(unsigned reg) {
  return reg == kTimeh || reg == kTimec || reg == kCount || (reg >= kEnable && reg <= kInh);
}

// nistat bits. The figures that gave the positions are missing from the document; this is the note's
// recommended layout (A2): lpa at bit 17 is the one position the text pins down (Fig. 18 shifts it into
// the sign bit with SLL 14), and pend at bit 31 makes "CFC2; slot; BLTZ" a one-test poll.
namespace nistat {
inline constexpr std::uint32_t kPend = 1u << 31;
inline constexpr std::uint32_t kNicond = 1u << 30;
inline constexpr std::uint32_t kOnicond = 1u << 29;
inline constexpr std::uint32_t kHpmp = 1u << 28;  // EP, in event-priority order
inline constexpr std::uint32_t kLpmp = 1u << 27;
inline constexpr std::uint32_t kTp = 1u << 26;
inline constexpr std::uint32_t kOp = 1u << 25;
inline constexpr std::uint32_t kHpmm = 1u << 24;  // EM, in the same order
inline constexpr std::uint32_t kLpmm = 1u << 23;
inline constexpr std::uint32_t kTm = 1u << 22;
inline constexpr std::uint32_t kOm = 1u << 21;
inline constexpr std::uint32_t kEe = 1u << 20;  // the same bit as enable[0] (A3)
inline constexpr std::uint32_t kLpee = 1u << 19;
inline constexpr std::uint32_t kAme = 1u << 18;
inline constexpr std::uint32_t kLpa = 1u << 17;
inline constexpr std::uint32_t kHpa = 1u << 16;
// Bits 15-0 describe the message being handled (valid only inside a message handler).
inline constexpr std::uint32_t kPri = 1u << 15;
inline constexpr std::uint32_t kMcst = 1u << 14;
inline constexpr unsigned kSlenShift = 8;  // bits 10-8
inline constexpr std::uint32_t kSlenMask = 7u << kSlenShift;
inline constexpr std::uint32_t kVlenMask = 0x3F;  // bits 5-0 (0..32)
// What CTC2 may change; writes to the other bits are ignored (§3.4).
inline constexpr std::uint32_t kWritable =
    kNicond | kOnicond | kHpmm | kLpmm | kTm | kOm | kEe | kLpee | kAme;
}  // namespace nistat

// enable has one active bit, EE, at bit 0 (A4: Fig. 8's EXIT_CRIT writes 1).
inline constexpr std::uint32_t kEnableEe = 1;

}  // namespace mppnet::machines::cns1
