// machines/cm1/patterns.hpp: the message set of one routing instruction, as a destination per source VP.
//
// Virtual processors are numbered vp = bank * processors + processor, and a processor is numbered
// chip * procs_per_chip + local, so the chip address is the processor's high bits (note §2.4: 12 chip bits
// then 4 processor bits). The bit patterns act on the processor address and keep the VP bank, so each
// bank maps onto itself; the random patterns draw from every VP.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cm1/params.hpp"

namespace mppnet::machines::cm1 {

inline constexpr std::uint32_t kNoMessage = 0xffffffffu;

// A pattern file: one message per line, "source_vp destination_vp" (decimal); blank lines and text after
// '#' are ignored; a VP sends at most once. Throws core::ConfigError "file:line: reason" for an unreadable
// file, a malformed line, a VP outside [0, vps) or a second message from one VP.
std::vector<std::uint32_t> read_pattern_file(const std::string& path, std::uint32_t vps);

// dst[s] for every source VP s, or kNoMessage when s sends nothing (send_fraction < 1). Deterministic in
// seed. REQUIRES: the config passed check_cm1.
std::vector<std::uint32_t> make_destinations(const MachineParams& m, const TrafficParams& t,
                                             std::int64_t seed);

}  // namespace mppnet::machines::cm1
