// machines/cs2/validation_patterns.cpp: the simulated halves of R8 and R10 (note 003 §5): under DEST
// routing, shifts and XOR permutations go through a layer without blocking; with rearranged tables
// (rearrange.hpp) so does any permutation. Either way every flow gets what it offers.
//
// The document says so of the Omega-like routing it describes: one route per pair, "shifts and FFT
// butterflies" without blocking (L198-L201), the down half "guaranteed non-blocking" (L417-L427). The
// static cases of R8 count channel loads; these run the traffic through the Elite's wormhole switches
// and flow control (cs2_run.hpp) and measure the slowest PE's delivered bytes over its offered bytes. A
// behaviour of the machine the document reports, measured on the simulated machine: behaviour cases.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_run.hpp"
#include "machines/cs2/validation.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

constexpr const char* kSource =
    "Meiko, CS-2 Communications Network Overview (1993), ch. 2, L198-L201 and ch. 3, L417-L427; N §2.4.6, "
    "§5 R8";

// The traffic of the cases: both layers, DEST (alternative 0 of every table entry), 90% of each link
// offered in 32-byte packets, 40,000 measured cycles.
Cs2Config pattern_machine(int pes, Pattern pattern, int shift) {
  Cs2Config c;
  c.machine.pes = pes;
  c.routing.alternatives = 1;
  c.traffic.pattern = pattern;
  c.traffic.shift = shift;
  c.traffic.load = 0.9;
  c.run.warmup_cycles = 2000;
  c.run.cycles = 40000;
  return c;
}

// The slowest flow of the worst of the given shifts.
double slowest_flow(int pes, const std::vector<int>& shifts) {
  double slowest = 1;
  for (const int s : shifts)
    slowest = std::min(slowest, run_traffic(pattern_machine(pes, Pattern::Shift, s)).slowest_source_fraction);
  return slowest;
}

constexpr const char* kOrigin =
    "the window's edges: a PE's bytes queued or in flight when the measured cycles start and end count "
    "on one side only; at 90% load a PE's queue holds a few 32-byte packets (M/D/1: 0.9^2 / (2 x 0.1) = 4 "
    "on average) against the ~1,100 it creates in 40,000 cycles, so -3% is the edges' share with margin; a "
    "flow that shares a channel gets at most half (the unit test's random-route control: 2%)";

}  // namespace

std::vector<ValidationCase> pattern_cases() {
  std::vector<ValidationCase> cases;
  for (const int pes : {64, 256}) {
    const std::vector<int> shifts = {1, 5, pes / 4, pes / 2 + 1};
    cases.push_back(
        {.id = fmt::format("cs2.r8.shifts_dest_slowest_flow_{}", pes),
         .source = kSource,
         .setup = fmt::format("{} PEs, 2 layers, DEST routes, shifts x -> x + c for c = {}; every PE offers "
                              "90% of its links in 32-byte packets; 40,000 cycles measured",
                              pes, fmt::join(shifts, ", ")),
         .quantity = "the least, over shifts and PEs, of bytes delivered / bytes offered",
         .expected = 1,
         .tolerance = Tolerance::absolute_band(0.03, 0.03),
         .slow = pes > 64,
         .measure = [pes, shifts] { return slowest_flow(pes, shifts); },
         .evidence = Evidence::Behaviour,
         .tolerance_origin = kOrigin});
    cases.push_back(
        {.id = fmt::format("cs2.r8.xor_dest_slowest_flow_{}", pes),
         .source = kSource,
         .setup =
             fmt::format("{} PEs, 2 layers, DEST routes, bit complement x -> x XOR {} (an FFT butterfly's "
                         "widest exchange); every PE offers 90% of its links in 32-byte packets; 40,000 "
                         "cycles measured",
                         pes, pes - 1),
         .quantity = "the least, over PEs, of bytes delivered / bytes offered",
         .expected = 1,
         .tolerance = Tolerance::absolute_band(0.03, 0.03),
         .slow = pes > 64,
         .measure =
             [pes] {
               return run_traffic(pattern_machine(pes, Pattern::BitComplement, 0)).slowest_source_fraction;
             },
         .evidence = Evidence::Behaviour,
         .tolerance_origin = kOrigin});
  }
  // R10: bit reversal and transpose put 4 to 16 flows on a channel under DEST (the static cases
  // cs2.r10.*_max_load_*); loaded with rearranged routes, a layer carries them like a crossbar ("a full
  // crosspoint", L400-L402; n transfers at full bandwidth, L46-L48).
  for (const int pes : {64, 256}) {
    cases.push_back(
        {.id = fmt::format("cs2.r10.rearranged_slowest_flow_{}", pes),
         .source =
             std::string("Meiko, CS-2 Communications Network Overview (1993), ch. 1, L46-L48 and ch. 3, "
                         "L400-L402; N §4.6, §5 R10"),
         .setup = fmt::format("{} PEs, 2 layers, tables loaded with rearranged routes, bit reversal and "
                              "transpose; every PE offers 90% of its links in 32-byte packets; 40,000 cycles "
                              "measured",
                              pes),
         .quantity = "the least, over both permutations and PEs, of bytes delivered / bytes offered",
         .expected = 1,
         .tolerance = Tolerance::absolute_band(0.03, 0.03),
         .slow = pes > 64,
         .measure =
             [pes] {
               double slowest = 1;
               for (const Pattern p : {Pattern::BitReversal, Pattern::Transpose}) {
                 Cs2Config c = pattern_machine(pes, p, 0);
                 c.routing.rearranged = true;
                 slowest = std::min(slowest, run_traffic(c).slowest_source_fraction);
               }
               return slowest;
             },
         .evidence = Evidence::Behaviour,
         .tolerance_origin = kOrigin});
  }
  return cases;
}

}  // namespace mppnet::machines::cs2
