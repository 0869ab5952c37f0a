// machines/cm1/validation_heart.cpp: cases E3 (the heart's three cases, Fig. 9, and the complement pattern
// of Fig. 10(a)), E9 (rows: termination with 7, livelock with 1, 7 against 2 candidates per wire) and E12
// (the router's invariants).
//
// The Fig. 9 cases are hand-worked on a 2-cube: the expected values are derived from the paper's rules
// (sec. 3.4.1, L133-L147) and the injector's fixed priority (docs/cm1.md, assumption A3), not measured.
#include <cstdint>
#include <limits>
#include <vector>

#include "machines/cm1/patterns.hpp"
#include "machines/cm1/router.hpp"
#include "machines/cm1/run.hpp"
#include "machines/cm1/validation_parts.hpp"

namespace mppnet::machines::cm1::detail {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

// 2-cube with `procs` processors per chip (VP = chip * procs + processor); processors 0..n-1 of chip 0
// send to processor k of chip 2 (relative address 10: only dimension 1 is wanted).
struct TwoCube {
  MachineParams machine;
  std::vector<std::uint32_t> dst;
  TwoCube(int procs, int n) : dst(static_cast<std::size_t>(4 * procs), kNoMessage) {
    machine.dims = 2;
    machine.procs_per_chip = procs;
    for (int k = 0; k < n; ++k) dst[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(2 * procs + k);
  }
};

// Case 1: processors 0..3 of chip 0 send to chip 1 (relative address 01). They enter rows 0..3; in column 0
// the lowest row that wants dimension 0 crosses, so processor k crosses (and is delivered) in petit cycle
// k + 1. Returns the messages delivered in another petit cycle.
double case_a_mismatches() {
  MachineParams m;
  m.dims = 2;
  m.procs_per_chip = 4;
  std::vector<std::uint32_t> dst(16, kNoMessage);
  for (std::uint32_t k = 0; k < 4; ++k) dst[k] = 4 + k;
  Router r(m, RouterParams{}, 1);
  r.route(dst);
  int bad = 0;
  for (std::uint32_t k = 0; k < 4; ++k) bad += r.delivered_at()[k] != static_cast<std::int32_t>(k) + 1;
  return bad;
}

// Case 2: six messages, none wants dimension 0 and fewer than 7 rows are full, so nothing crosses in
// column 0; column 1 sends row 0 and the rest pack into rows 0..4. Returns desperation hops + rows of chip
// 0 after petit cycle 1 that differ from {1, 2, 3, 4, 5, -, -} + messages delivered other than at k + 1.
double case_b_mismatches() {
  const TwoCube t(8, 6);
  Router r(t.machine, RouterParams{}, 1);
  std::vector<std::int64_t> rows;
  r.set_observer([&](const Router& rt, std::int64_t pc) {
    if (pc == 1) rows = rt.rows_of(0);
  });
  const auto st = r.route(t.dst);
  const std::vector<std::int64_t> packed{1, 2, 3, 4, 5, -1, -1};
  int bad = static_cast<int>(st.desperation);
  for (std::size_t k = 0; k < packed.size(); ++k) bad += k >= rows.size() || rows[k] != packed[k];
  for (std::uint32_t k = 0; k < 6; ++k) bad += r.delivered_at()[k] != static_cast<std::int32_t>(k) + 1;
  return bad;
}

// Case 3: seven messages fill every row and none wants dimension 0, so the highest row (processor 6's
// message) is desperation-routed: it is the only message with a detour (3 hops for a distance of 1).
// Returns that processor, or -1 unless exactly one desperation hop happened.
double case_c_desperation_row() {
  const TwoCube t(8, 7);
  Router r(t.machine, RouterParams{}, 1);
  const auto st = r.route(t.dst);
  if (st.desperation != 1) return -1;
  for (std::uint32_t k = 0; k < 7; ++k)
    if (r.hops()[k] == 3) return k;
  return -1;
}

// With one row, the row is always full, so every message crosses every dimension on every pass and leaves
// the heart with its relative address complemented: only addresses 0 and all-ones can ever reach zero.
// Returns 1 if the instruction terminated + the delivered messages with any other chip distance.
double one_row_impossible_deliveries() {
  Cm1Config c;
  c.cm1.rows = 1;
  c.cm1.timeout_petit_cycles = 60;
  const auto dst = make_destinations(c.machine, c.traffic, 1);
  Router r(c.machine, c.cm1, 1);
  const auto st = r.route(dst);
  int bad = st.terminated ? 1 : 0;
  for (std::uint32_t s = 0; s < dst.size(); ++s) {
    const std::uint32_t distance = (s >> 4) ^ (dst[s] >> 4);
    bad += r.delivered_at()[s] > 0 && distance != 0 && distance != 0xfff;
  }
  return bad;
}

}  // namespace

void add_heart_cases(std::vector<ValidationCase>& cases) {
  constexpr const char* kCount = "exact: a count";
  // --- E3: the three cases of Fig. 9 and the complement pattern of Fig. 10(a) ---
  cases.push_back({.id = "cm1.e3.case_a_lowest_row_crosses",
                   .source = paper("sec. 3.4.1, L137 and L143 (case 1, Fig. 9(a))"),
                   .setup = "2-cube, 4 processors per chip: processors 0-3 of chip 0 send to chip 1",
                   .quantity = "messages not delivered in petit cycle k + 1 (row k = processor k)",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .measure = case_a_mismatches,
                   .evidence = Evidence::Independent,
                   .tolerance_origin = kCount});
  cases.push_back({.id = "cm1.e3.case_b_no_crossing_below_seven",
                   .source = paper("sec. 3.4.1, L135 and L144 (case 2, Fig. 9(b))"),
                   .setup = "2-cube, 8 processors per chip: processors 0-5 of chip 0 send to chip 2",
                   .quantity = "desperation hops + rows not packed after petit cycle 1 + late deliveries",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .measure = case_b_mismatches,
                   .evidence = Evidence::Independent,
                   .tolerance_origin = kCount});
  cases.push_back({.id = "cm1.e3.case_c_highest_row_desperation",
                   .source = paper("sec. 3.4.1, L139 and L145 (case 3, labelled Part (b) in the OCR)"),
                   .setup = "2-cube, 8 processors per chip: processors 0-6 of chip 0 send to chip 2",
                   .quantity = "injector row (= processor) of the one desperation-routed message",
                   .expected = 6,
                   .tolerance = Tolerance::exact(),
                   .measure = case_c_desperation_row,
                   .evidence = Evidence::Independent,
                   .tolerance_origin = "exact: a row number"});
  const auto complement = [](bool productive) {
    Cm1Config c;
    c.traffic.pattern = Pattern::Complement;
    const auto r = run_routing(c);
    return productive ? r.productive_fraction : static_cast<double>(r.stats.petit_cycles);
  };
  // Every message needs all 12 dimensions and every chip holds 16: 16 x 12 crossings over 12 wires, one
  // message per wire per petit cycle, so at least 16 petit cycles, and exactly 16 when every column sends
  // its lowest row (Fig. 10(a): "every message wants to cross every cube wire").
  cases.push_back({.id = "cm1.e3.complement_petit_cycles",
                   .source = paper("sec. 3.4.1, Fig. 10(a) caption (L171); p = 16v derived in docs/cm1.md"),
                   .setup = "64K processors, complement of the processor address, VP ratio 1",
                   .quantity = "petit cycles",
                   .expected = 16,
                   .tolerance = Tolerance::exact(),
                   .measure = [=] { return complement(false); },
                   .evidence = Evidence::Independent,
                   .tolerance_origin = kCount});
  cases.push_back({.id = "cm1.e3.complement_productive_use",
                   .source = paper("sec. 3.4.1, Fig. 10(a) caption (L171); derivation in docs/cm1.md"),
                   .setup = "64K processors, complement of the processor address, VP ratio 1",
                   .quantity = "channel-slots carrying a productive crossing",
                   .expected = 1.0,
                   .tolerance = Tolerance::exact(),
                   .measure = [=] { return complement(true); },
                   .evidence = Evidence::Independent,
                   .tolerance_origin = "exact: 786,432 crossings in as many channel-slots"});

  // --- E9: rows ---
  cases.push_back({.id = "cm1.e9.seven_rows_terminate",
                   .source = paper("sec. 3.4.1, L149 (never found a pattern that fails to terminate)"),
                   .setup = "B = 7, VP ratio 1: 64K for random function and permutation, complement, bit "
                            "reversal, transpose, shift, hot spot; a 256-chip machine for all-to-one",
                   .quantity = "patterns that time out",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .slow = true,
                   .measure =
                       [] {
                         int failed = 0;
                         for (const auto p : {Pattern::RandomFunction, Pattern::RandomPermutation,
                                              Pattern::Complement, Pattern::BitReversal, Pattern::Transpose,
                                              Pattern::Shift, Pattern::HotSpot, Pattern::AllToOne}) {
                           Cm1Config c;
                           c.traffic.pattern = p;
                           if (p == Pattern::AllToOne) {
                             c.machine.dims =
                                 8;  // 4096 messages into one chip's 8 wires: >= 512 petit cycles
                             c.cm1.timeout_petit_cycles = 20000;
                           }
                           failed += !run_routing(c).stats.terminated;
                         }
                         return failed;
                       },
                   .evidence = Evidence::Behaviour,
                   .tolerance_origin = kCount});
  cases.push_back({.id = "cm1.e9.one_row_livelocks",
                   .source = paper("sec. 3.4.1, L139-L149 (row six always freed; fewer than seven rows can "
                                   "fail); the one-row consequence derived in docs/cm1.md"),
                   .setup = "64K, random function, VP ratio 1, seed 1, B = 1, timeout 60 petit cycles",
                   .quantity = "1 if it terminated + messages delivered whose chip distance is not 0 or 4095",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .measure = one_row_impossible_deliveries,
                   .evidence = Evidence::Independent,
                   .tolerance_origin = kCount});
  // Wire use by the measure of L278: petit cycles for a pattern against its lower bound. For one pattern
  // the bound is the same at B = 2 and B = 7, so the ratio of wire use is the inverse ratio of petit cycles.
  cases.push_back(
      {.id = "cm1.e9.seven_vs_two_rows_wire_use",
       .source = paper("sec. 4.2, L296 (7 messages to pick from give much higher wire utilization than the "
                       "multistage cube's 2), with wire use measured as in sec. 4.1, L278"),
       .setup = "64K, random function, VP ratio 1, seed 1: B = 2 (the two-candidate analogue) against B = 7",
       .quantity = "wire use, B = 7 / B = 2 (= petit cycles, B = 2 / B = 7)",
       .expected = 2,
       .tolerance = Tolerance::absolute_band(0, std::numeric_limits<double>::infinity()),
       .measure =
           [] {
             Cm1Config c;
             const auto seven = static_cast<double>(run_routing(c).stats.petit_cycles);
             c.cm1.rows = 2;
             return static_cast<double>(run_routing(c).stats.petit_cycles) / seven;
           },
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "one-sided: the paper gives no figure; 'much higher' read as at least twice"});

  // --- E12: invariants after every column and petit cycle ---
  cases.push_back({.id = "cm1.e12.invariant_violations",
                   .source = paper("sec. 3.1-3.4.1, L70, L91, L99, L135-L147"),
                   .setup = "64K, random function, VP ratio 2, seed 1, checks on",
                   .quantity = "violations + undelivered messages",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .measure =
                       [] {
                         Cm1Config c;
                         c.traffic.vp_ratio = 2;
                         c.cm1.check_invariants = true;
                         const auto r = run_routing(c);
                         return static_cast<double>(r.stats.invariant_violations +
                                                    (r.stats.delivered != r.stats.messages));
                       },
                   .evidence = Evidence::SelfConsistency,
                   .tolerance_origin = kCount});
}

}  // namespace mppnet::machines::cm1::detail
