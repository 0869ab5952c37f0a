// machines/cm1/operations.hpp: a read with CM-2 combining and the software fetch-and-add, on the router.
//
// Paper L320 (seed 001): the CM-2 router combines messages for the same virtual processor, "for both reads
// and writes, but not for operations such as fetch-and-add", which is done in software "using sort, send,
// and scan". A read is a request phase routed as a send (combining as configured) plus a reply phase that
// retraces the combining tree; the fetch-and-add is a radix sort (one routed permutation per key bit),
// segmented scans, one message per distinct target, a reply and a routed return. The choices the paper
// leaves open are listed in docs/cm1.md "Operations".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "machines/cm1/params.hpp"
#include "machines/cm1/router.hpp"

namespace mppnet::machines::cm1 {

inline constexpr std::uint64_t kNoValue = ~std::uint64_t{0};

// The value that VP t holds before an instruction (a fixed function, so replies can be checked).
constexpr std::uint64_t memory_value(std::uint32_t t) {
  return (std::uint64_t{t} * 2654435761u) & 0xffffffffu;
}

struct ReadResult {
  RoutingStats request;                          // the request phase (combined messages count in .combined)
  std::int64_t arrivals = 0;                     // request messages that reached a target (carriers)
  std::int64_t reply_messages = 0;               // one per requester
  std::int64_t reply_petit_cycles = 0;           // all reply rounds
  int reply_rounds = 0;                          // depth of the deepest combining tree + 1
  std::vector<std::int64_t> round_petit_cycles;  // per reply round
  std::int64_t answered = 0;                     // requesters whose reply arrived
  bool terminated = true;                        // both phases delivered everything
  std::vector<std::uint64_t> value;              // per VP: the value it read, or kNoValue
  std::int64_t petit_cycles() const { return request.petit_cycles + reply_petit_cycles; }
};

// Every VP s with dst[s] != kNoMessage reads memory_value(dst[s]). Request phase: `router` params as given
// (combining on or off). Reply phase: round k sends the replies of the requests folded at depth k of the
// combining tree, from the chip where they were folded (depth 0: from the target), without combining.
// REQUIRES: parameters that passed check_cm1; dst.size() == vp count.
ReadResult run_read(const MachineParams& machine, const RouterParams& router, int vp_ratio,
                    std::span<const std::uint32_t> dst);

struct FetchAddResult {
  std::int64_t requests = 0;
  std::int64_t targets = 0;                      // distinct targets = messages of the send step
  int sort_passes = 0;                           // radix passes = key bits
  std::int64_t sort_petit_cycles = 0;            // the routed permutations of the sort
  std::vector<std::int64_t> phase_petit_cycles;  // every routing instruction, in order
  std::int64_t send_petit_cycles = 0;            // segment ends to targets
  std::int64_t reply_petit_cycles = 0;           // targets' old values back to the segment ends
  std::int64_t return_petit_cycles = 0;          // results from sorted position back to each requester
  int scans = 0;                                 // scans: 2 per sort pass + segmented add + segmented copy
  std::int64_t scan_bit_times = 0;               // all scans, by the arithmetic of docs/cm1.md
  int routing_instructions = 0;
  bool terminated = true;
  std::vector<std::uint64_t> old_value;    // per requester VP: the value fetched, or kNoValue
  std::vector<std::uint64_t> final_value;  // per VP: memory after the instruction
  std::int64_t petit_cycles() const {
    return sort_petit_cycles + send_petit_cycles + reply_petit_cycles + return_petit_cycles;
  }
};

// The increment VP s adds (positive, so the fetched values at one target are distinct).
constexpr std::uint64_t increment_of(std::uint32_t s) {
  return 1 + s % 5;
}

// Every VP s with dst[s] != kNoMessage adds increment_of(s) to VP dst[s] and gets its old value plus the
// increments ordered before it. Routed without combining (the router cannot combine adds).
// REQUIRES: parameters that passed check_cm1; dst.size() == vp count.
FetchAddResult run_fetch_and_add(const MachineParams& machine, const RouterParams& router, int vp_ratio,
                                 std::span<const std::uint32_t> dst);

// Bit-times of one scan over vps values on 2^proc_bits processors with d-bit data (docs/cm1.md).
std::int64_t scan_bit_times(int proc_bits, int vp_ratio, int data_bits);

}  // namespace mppnet::machines::cm1
