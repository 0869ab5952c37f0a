// machines/cm1/run.hpp: one routing instruction from a config, its figures, and a short table of them.
//
// This is what `mppnet run configs/cm1.toml --set traffic.vp_ratio=16` calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cm1/operations.hpp"
#include "machines/cm1/params.hpp"
#include "machines/cm1/router.hpp"

namespace mppnet::machines::cm1 {

struct RoutingResult {
  // send: the instruction; read: its request phase (the figures below are the request phase's);
  // fetch_and_add: empty, see fetch_add.
  RoutingStats stats;
  ReadResult read;                      // traffic.operation = "read"
  FetchAddResult fetch_add;             // traffic.operation = "fetch_and_add"
  std::int64_t total_petit_cycles = 0;  // every routing phase of the operation
  std::int64_t total_bit_times = 0;     // every routing phase, plus the scans of a fetch-and-add
  int message_bits = 0;                 // l
  std::int64_t bit_times = 0;           // delivery time of the configured pipeline (0 when nothing was sent)
  double wire_utilisation = 0;          // channel-slots with MSGP = 1 / all channel-slots (note §5 E6 (i))
  double productive_fraction = 0;       // channel-slots with a productive crossing / all (E6 (ii))
  double wire_busy_bits = 0;            // bits carried / (channels x bit_times)
  double lower_bound = 0;               // random-pattern bound (messages / 2) / chips petit cycles: 8v at 64K
  double mean_latency_petit_cycles = 0;
  double messages_per_bit_time = 0;
  double clock_hz = 0;
  double messages_per_second = 0;  // at clock_hz
};

// Builds the message set of c.traffic with c.run.seed and routes it. REQUIRES: check_cm1(c) passed.
RoutingResult run_routing(const Cm1Config& c);

// Fig. 12 of the paper (note §5 E4): petit cycles against VP ratio, averaged over seeds 1..seeds.
struct VpSweepPoint {
  int vp_ratio = 0;
  double mean_petit_cycles = 0;
  std::int64_t min_petit_cycles = 0;
  std::int64_t max_petit_cycles = 0;
  double lower_bound = 0;  // (messages / 2) / chips of the first seed: 8v at 64K
  double wire_utilisation = 0;
  double productive_fraction = 0;
};
// REQUIRES: check_cm1(base) passed, every ratio is a power of two in 1..256, seeds >= 1.
std::vector<VpSweepPoint> vp_sweep(Cm1Config base, const std::vector<int>& vp_ratios, int seeds);
std::string format_vp_sweep(const std::vector<VpSweepPoint>& points);

// A short two-column table: machine, pattern, messages, petit cycles, bit-times, utilisation, rates.
std::string format_result(const Cm1Config& c, const RoutingResult& r);

}  // namespace mppnet::machines::cm1
