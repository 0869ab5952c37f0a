// machines/cs2/validation_latency.cpp: R5, the latency through a switch (note 003 §5 R5), measured on
// simulated packets of the traffic network (cs2_network.hpp).
//
// The document gives the latency per switch twice: "7 cycles for data" at the 70 MHz link clock (ch. 3,
// L386-L387) and, in the overview, "less than 200 ns" per switch (ch. 1, L66-L67, an OCR reading, note
// §2.2). The first is an input of the model (elite.data_cycles), so its check is a self-check: the
// simulated packets must take exactly data_cycles + wire_cycles more for every switch more. The second is
// a bound on the simulated machine that the model does not take as input: a behaviour case.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/validation.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

constexpr const char* kLatencySource =
    "Meiko, CS-2 Communications Network Overview (1993), ch. 1, L66-L67 and ch. 3, L386-L387; N §2.2, "
    "§6 #25, §5 R5";
constexpr int kLatencyBytes = 32;

// The default machine at 4,096 PEs: 6 stages, so routes of 1, 3, .., 11 switches (0 -> 4^(j-1) turns at
// stage j), and its back-to-back odd sizes for 2, 4, .., 10 switches (0 -> half of 2^(2j+1) PEs crosses
// the halves: 2j switches).
Cs2Config machine(int pes, Doubling d) {
  Cs2Config c;
  c.machine.pes = pes;
  c.machine.doubling = d;
  c.machine.layers = 1;
  return c;
}

// Zero-load latency in cycles for h = 1..11 switches, index h.
std::vector<Probe> probes() {
  std::vector<Probe> out(12);
  {
    Cs2Network net(machine(4096, Doubling::EightWayTop));
    for (int j = 1; j <= 6; ++j) out[2 * j - 1] = probe_latency(net, 0, 1 << (2 * (j - 1)), kLatencyBytes);
  }
  for (int j = 1; j <= 5; ++j) {
    const int pes = 1 << (2 * j + 1);
    Cs2Network net(machine(pes, Doubling::BackToBack));
    out[2 * j] = probe_latency(net, 0, pes / 2, kLatencyBytes);
  }
  return out;
}

}  // namespace

std::vector<ValidationCase> latency_cases() {
  std::vector<ValidationCase> cases;
  const EliteParams e;
  const std::string setup = fmt::format(
      "one {}-byte packet on an idle layer, DEST routes of h = 1..11 switches (4,096 PEs for odd h, "
      "back-to-back 8..2,048 PEs for even h), default [elite] timing ({} + {} cycles per switch at {} ps)",
      kLatencyBytes, e.data_cycles, e.wire_cycles, e.clock_ps);
  cases.push_back(
      {.id = "cs2.r5.cycles_per_switch",
       .source = kLatencySource,
       .setup = setup,
       .quantity = "simulated cycles added per switch, (latency(11) - latency(1)) / 10",
       .expected = static_cast<double>(e.data_cycles + e.wire_cycles),
       .tolerance = Tolerance::exact(),
       .measure =
           [] {
             const auto p = probes();
             return static_cast<double>(p[11].cycles - p[1].cycles) / 10;
           },
       .evidence = Evidence::SelfConsistency,
       .tolerance_origin = "exact: the model's timing is deterministic; data_cycles is the model's input"});
  cases.push_back(
      {.id = "cs2.r5.closed_form_misses",
       .source = kLatencySource,
       .setup = setup,
       .quantity = "switch counts h = 1..11 whose simulated latency differs from zero_load_cycles(h)",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure =
           [e] {
             const auto p = probes();
             int misses = 0;
             for (int h = 1; h <= 11; ++h)
               if (p[h].switches != h || p[h].cycles != zero_load_cycles(e, h, kLatencyBytes)) ++misses;
             return static_cast<double>(misses);
           },
       .evidence = Evidence::SelfConsistency,
       .tolerance_origin = "exact: every latency is a deterministic count of cycles"});
  cases.push_back(
      {.id = "cs2.r5.ns_per_switch_below_200",
       .source = kLatencySource,
       .setup = setup,
       .quantity = "largest simulated latency added per switch in ns, (latency(h+1) - latency(h)) x clock",
       .expected = 200,
       // One-sided: "less than 200 ns"; the lower edge 0 is no claim.
       .tolerance = Tolerance::absolute_band(200, 0),
       .measure =
           [e] {
             const auto p = probes();
             std::int64_t worst = 0;
             for (int h = 1; h < 11; ++h) worst = std::max(worst, p[h + 1].cycles - p[h].cycles);
             return static_cast<double>(worst) * e.clock_ps / 1000;
           },
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "one-sided: the document's 'less than 200 ns' per switch; 0 is no claim"});
  return cases;
}

}  // namespace mppnet::machines::cs2
