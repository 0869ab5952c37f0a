// machines/cs2/validation_load.cpp: the simulated halves of R7 (bisection bandwidth) and R11 (a hot spot)
// of note 003 §5, on traffic through the Elite's wormhole switches with the Elan's acks and window
// (cs2_run.hpp, traffic.acks).
//
// R7: "Usable bandwidth (after protocol overheads) is 50 Mbytes/s/link in each direction. Bisectional
// bandwidth of the CS-2 network increases linearly with the number of PEs. A 1024 PE machine has a
// bisectional bandwidth of over 50 Gbytes/s" (L78-L81). Every PE sends its bit complement, so every
// packet crosses the cut that splits the top address digit, and under DEST no two flows share a channel
// (cs2.r8.xor_*): the payload crossing the cut in one layer, both directions, is what the static case
// cs2.r7.bisection_links_* counts links for.
//
// R11: under DEST "all data for the same destination" takes the same path down, and the network does
// "data distribution, and distributed arbitration" (L417-L423): many sources to one PE keep that PE's
// link busy, the arbitration spread over the switches where their climbs merge.
#include <string>

#include <fmt/format.h>

#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_run.hpp"
#include "machines/cs2/elan.hpp"
#include "machines/cs2/validation.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

// The traffic of both cases: both layers, alternative 0 of DEST, the Elan's acks and window of 2.
Cs2Config protocol_machine(int pes, Pattern pattern) {
  Cs2Config c;
  c.machine.pes = pes;
  c.routing.alternatives = 1;
  c.traffic.pattern = pattern;
  c.traffic.acks = true;
  c.run.warmup_cycles = 2000;
  c.run.cycles = 10000;
  return c;
}

// GB/s of payload crossing the cut in one layer, both directions, when every PE sends its bit
// complement at the full link rate in packets the Elan sizes for the route (L(h), elan.sizing =
// "dynamic"): N PEs x the accepted bytes per PE and layer x the payload share L / (L + overhead).
double bisection_gb_per_s(int pes) {
  Cs2Config c = protocol_machine(pes, Pattern::BitComplement);
  const LayerShape shape = layer_shape(c);
  const int switches = 2 * shape.stages() - 1;  // every route to the complement turns at the top
  const int payload = payload_bytes(c, switches);
  c.traffic.packet_bytes = payload + c.elan.overhead_bytes();
  c.traffic.load = 1;
  const Cs2RunResult r = run_traffic(c);
  const double per_layer_mb_per_s = r.accepted_mb_per_s / c.machine.layers;
  return pes * per_layer_mb_per_s * payload / c.traffic.packet_bytes / 1000;
}

// The hot PE's links' use: the bytes it received over what its links can carry in the measured cycles.
double hot_link_use(int pes, NodeId hot) {
  Cs2Config c = protocol_machine(pes, Pattern::HotSpot);
  c.traffic.hot_pe = hot;
  c.traffic.packet_bytes = 32 + c.elan.overhead_bytes();  // the Elan's smallest packet (Lmin)
  c.traffic.load = 0.1;  // 63 senders offer 6.3 times what the hot PE's links carry
  const Cs2RunResult r = run_traffic(c);
  const double link_mb_per_s = 1e6 / c.elite.clock_ps;
  return r.busiest_destination_mb_per_s / (c.machine.layers * link_mb_per_s);
}

}  // namespace

std::vector<ValidationCase> load_cases() {
  std::vector<ValidationCase> cases;
  for (const int pes : {64, 256, 1024}) {
    const double floor = pes * 0.05, wire = pes * 1e6 / 14286 / 1000;
    cases.push_back(
        {.id = fmt::format("cs2.r7.bisection_gb_per_s_{}", pes),
         .source = "Meiko, CS-2 Communications Network Overview (1993), ch. 1, L78-L81, ch. 2, L145-L148; "
                   "N §5 R7",
         .setup = fmt::format("{} PEs, DEST routes, every PE sends its bit complement at the full link rate "
                              "in packets of the Elan's dynamic size for the route, acks with a window of 2; "
                              "10,000 cycles measured",
                              pes),
         .quantity = "GB/s of payload crossing the balanced cut in one layer, both directions",
         .expected = floor,
         .tolerance = Tolerance::absolute_band(0, wire - floor),
         .slow = pes > 64,
         .measure = [pes] { return bisection_gb_per_s(pes); },
         .evidence = Evidence::Behaviour,
         .tolerance_origin = fmt::format(
             "the document gives a floor, 50 MB/s per link and direction, linear in N (over 50 GB/s at "
             "1,024 PEs); the band's top, {:.2f}, is the raw wire rate of the N links the cut crosses "
             "(70 MB/s each), which no payload can pass",
             wire)});
  }
  cases.push_back(
      {.id = "cs2.r11.hot_spot_link_use_64",
       .source = "Meiko, CS-2 Communications Network Overview (1993), ch. 3, L417-L423; N §5 R11",
       .setup = "64 PEs, DEST routes, every PE sends 45-byte packets (32 payload bytes, the Elan's "
                "smallest) to PE 21 at 10% of its links (6.3 times what PE 21's links carry), acks with "
                "a window of 2; 10,000 cycles measured",
       .quantity = "bytes PE 21 received / what its two links carry in the measured cycles",
       .expected = 1,
       .tolerance = Tolerance::absolute_band(0.01, 0),
       .measure = [] { return hot_link_use(64, 21); },
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "the window's edges: a packet of 45 bytes in flight at each edge of 10,000 "
                           "cycles on each link is under 0.5%; a link cannot carry more than its rate"});
  return cases;
}

}  // namespace mppnet::machines::cs2
