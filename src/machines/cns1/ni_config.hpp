// machines/cns1/ni_config.hpp: what a T1 network interface can be told: its node id, its in-queues, its
// timer, its hazard checking and its cycle costs, each with where the value comes from.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mppnet::machines::cns1 {

// Cycles beyond the one every instruction takes. The document gives estimates only (note 002 §4); these
// are the note's recommended defaults (§6.1), which meet C5-C8: a SEND issues in 1 cycle and its vector
// is streamed in the background, so the sender's overhead does not grow with the message (L154, L428);
// dispatch takes 3 cycles (the low end of "3-5 cycles", L371); HRET takes 1 cycle plus a refetch bubble.
struct NiTiming {
  std::uint32_t send_extra_cycles = 0;
  std::uint32_t dispatch_cycles = 3;
  std::uint32_t hret_extra_cycles = 1;
};

// Which copy of the banked registers the program sees (A5). The appendix ties it to EE and LPEE alone
// (A.10), so normal code that clears EE for a critical section sees the HP bank: that is the default.
// HandlerLevel, an experiment the note suggests, shows the bank of the handler level being run instead
// (normal code always sees its own registers), whatever EE and LPEE hold.
enum class Visibility : std::uint8_t { EnableBits, HandlerLevel };

struct NiConfig {
  std::uint32_t node_id = 0;  // niid bits 10-0 (bits 31-11 read 0)
  // Whole messages the NI holds per priority before the network must keep the next (A35: 2 per
  // priority; A40: a message is received whole before its event can fire).
  std::size_t in_queue_messages = 2;
  // Count advances once every count_divider processor cycles (A25: implementation-defined rate, 1).
  std::uint32_t count_divider = 1;
  // A6: the outlet's op is lpa (the text says so twice, with "iff"); true makes it lpa and hpa (A.2.6).
  bool op_requires_hpa = false;
  // A26: by default NI registers are bypassed (no hazards). Strict mode records every instruction that
  // violates the A.10 spacing (§3.16) without changing what it does.
  bool strict_hazards = false;
  // A15: the data registers and $vr1 words a message does not fill (all of them for an outlet or a
  // timelet, whose contents the document calls unpredictable) keep their old values; true fills them
  // with kPoison instead, to catch a handler that relies on them.
  bool poison_unfilled = false;
  // A22: after an HRET, the interrupted code runs at least this many instructions before the next event
  // (0: events are checked at every boundary, right after HRET too), to study starvation.
  std::uint32_t min_instructions_between_events = 0;
  Visibility visibility = Visibility::EnableBits;
  NiTiming timing;
};

inline constexpr std::uint32_t kPoison = 0xDEADBEEF;

}  // namespace mppnet::machines::cns1
