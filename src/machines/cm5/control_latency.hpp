// machines/cm5/control_latency.hpp: the control network's unloaded latencies, measured by running the model
// (issue 13, "Validation: report latencies").
//
// Every operation starts with its pushes at cycle 0 on an idle network and ends when its result reaches
// the last leaf's NI: a barrier (a synchronous OR pushed by every leaf), a one-word user broadcast from
// leaf 0, and a 32-bit signed-add reduction over every leaf. Unloaded, each takes
// 2 * height * level_delay_cycles (height = ceil(log2 leaves)): nothing waits anywhere.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "machines/cm5/control_network.hpp"

namespace mppnet::machines::cm5 {

inline constexpr double kControlClockMhz = 40.0;  // the control network's clock (cycles per microsecond)

struct ControlLatency {
  int leaves = 0;
  int height = 0;
  int level_delay_cycles = 0;
  Cycle barrier_cycles = 0;    // synchronous OR from every leaf
  Cycle broadcast_cycles = 0;  // one-word user broadcast from leaf 0
  Cycle reduce_cycles = 0;     // 32-bit signed add over every leaf
  static double us(Cycle cycles) { return static_cast<double>(cycles) / kControlClockMhz; }
  double barrier_us() const { return us(barrier_cycles); }
  double broadcast_us() const { return us(broadcast_cycles); }
  double reduce_us() const { return us(reduce_cycles); }
};

// The three latencies on a partition of `leaves` leaves, the other parameters from `params` (its
// `leaves` is ignored). Throws std::invalid_argument as ControlNetwork does, std::logic_error if a
// result never arrives.
ControlLatency control_latency(const ControlNetworkParams& params, int leaves);

// The leaf counts of the table.
inline constexpr int kLatencyLeafCounts[] = {32, 128, 1024, 16384};

// One row per leaf count, for each of `level_delays` (params.level_delay_cycles replaced), in that order.
std::vector<ControlLatency> control_latency_table(const ControlNetworkParams& params,
                                                  std::span<const int> leaf_counts,
                                                  std::span<const int> level_delays);

// The rows as a markdown table: leaves, height, level delay, then cycles and microseconds of each.
std::string control_latency_markdown(std::span<const ControlLatency> rows);

}  // namespace mppnet::machines::cm5
