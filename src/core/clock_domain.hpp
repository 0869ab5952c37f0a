// core/clock_domain.hpp: a clock of fixed period, converting between its cycles and picoseconds.
//
// Each seed machine runs parts at different clocks (the CM-5 data network at 40 MHz = 25,000 ps, its
// processors at 32 MHz = 31,250 ps); keeping time in integer picoseconds keeps every conversion exact.
#pragma once

#include "core/error.hpp"
#include "core/types.hpp"

namespace mppnet::core {

class ClockDomain {
 public:
  // REQUIRES: period_ps > 0.
  constexpr explicit ClockDomain(Picoseconds period_ps) : period_ps_(period_ps) {
    MPPNET_ASSERT(period_ps > 0, "a clock period must be positive");
  }

  constexpr Picoseconds period_ps() const { return period_ps_; }
  constexpr Picoseconds to_ps(Cycle c) const { return c * period_ps_; }
  // The first cycle that starts at or after time t.
  constexpr Cycle cycle_at_or_after(Picoseconds t) const { return (t + period_ps_ - 1) / period_ps_; }
  // Frequency in MHz, for reports.
  constexpr double mhz() const { return 1e6 / static_cast<double>(period_ps_); }

 private:
  Picoseconds period_ps_;
};

}  // namespace mppnet::core
