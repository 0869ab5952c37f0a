// machines/metro/mrp/validation_mrp.cpp: the MRP cases V1-V4 of note 004b §5.
//
// Figs 4.5-4.10 are cycle-by-cycle pictures whose bodies the transcription lost; note 004b rebuilds their
// link traces from the prose (§4.5.3, §4.8.2) with its timing model (one stage per clock, W = 1, P = 0).
// A case comparing with such a trace or count is Independent evidence: a derivation, not a number the
// thesis prints. The counts the thesis states in words ((STATUS CHECKSUM)^s DROP for a block at stage s,
// L1478; the third-stage block of Fig 4.6, L1574) are Behaviour. All are exact: the protocol is
// synchronous and a connection has one trace, so any difference is a wrong word or a wrong cycle.
#include "machines/metro/mrp/validation_mrp.hpp"

#include <string>

#include "machines/metro/mrp/scenarios.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

constexpr const char* kMrpThesis = "DeHon 1993 (MIT AI TR-1445)";
constexpr const char* kMrpExact =
    "exact: a synchronous protocol gives one trace per connection, word by word";
constexpr std::uint64_t kMrpSeed = 1;

std::string setup(const char* what) {
  return std::string(
             "Fig 4.4's 16-node multibutterfly (r = d = 2, 4 stages, ni = no = 2, deterministic), "
             "byte-wide words, one connection from input 6 to output 16 (nodes 5 -> 15): ") +
         what;
}

std::string source(const char* thesis_part, const char* note_part) {
  return std::string(kMrpThesis) + " " + thesis_part + "; note 004b §5 " + note_part;
}

}  // namespace

std::vector<core::ValidationCase> mrp_validation_cases() {
  using core::Evidence;
  std::vector<core::ValidationCase> cases;
  auto add = [&](const char* id, std::string src, const char* what, const char* quantity, double expected,
                 std::function<double()> measure, Evidence evidence, bool slow = false) {
    cases.push_back(core::exact_case(id, std::move(src), setup(what), quantity, expected, std::move(measure),
                                     evidence, kMrpExact, slow));
  };
  add(
      "metro.mrp.v1.open_turn_trace",
      source("§4.5.3, §4.8.2, Figs 4.5 and 4.8 (L1415-1433, L1560-1591)",
             "V1 (trace derived from the prose)"),
      "R D1 D2 TURN; the destination replies Y1 Y2 DROP in the cycle it reads the TURN; seed 1",
      "link-cycle cells (L0..L4, 24 cycles) that differ from the note's V1 trace", 0,
      [] {
        return static_cast<double>(trace_mismatches(note_trace_v1(), run_v1_open_and_turn(kMrpSeed).trace));
      },
      Evidence::Independent);
  add(
      "metro.mrp.v1.first_reply_cycle",
      source("§4.7.2 (L1475-1485)", "V1 and §2.10: T + 2(N + 1) = 3 + 10 for the TURN on L0 in cycle 3"),
      "as metro.mrp.v1.open_turn_trace", "cycle in which the source reads the first reply word", 13,
      [] {
        const ConnectionRun run = run_v1_open_and_turn(kMrpSeed);
        return static_cast<double>(
            parse_return(run.format, run.at_source, 0, kExampleStages).first_reply_cycle);
      },
      Evidence::Independent);
  add(
      "metro.mrp.v1.status_pairs", source("§4.7.2 (L1480): (STATUS CHECKSUM)^N before the reply", "V1"),
      "as metro.mrp.v1.open_turn_trace", "STATUS/CHECKSUM pairs the source reads before the reply (N = 4)", 4,
      [] {
        const ConnectionRun run = run_v1_open_and_turn(kMrpSeed);
        return static_cast<double>(parse_return(run.format, run.at_source, 0, kExampleStages).status.size());
      },
      Evidence::Behaviour);
  add(
      "metro.mrp.v2.blocked_turn_trace",
      source("§4.5.3, Figs 4.6 and 4.9 (L1431, L1574, L1601)", "V2 (trace derived from the prose)"),
      "every stage-3 backward port of the route's direction deselected (so all look busy, §4.9.1); R D1 D2 "
      "TURN; seed 1",
      "link-cycle cells (L0..L4, 24 cycles) that differ from the note's V2 trace", 0,
      [] {
        return static_cast<double>(trace_mismatches(note_trace_v2(), run_v2_blocked_turn(kMrpSeed).trace));
      },
      Evidence::Independent);
  add(
      "metro.mrp.v2.blocked_stage",
      source("§4.7.2 (L1478): (STATUS CHECKSUM)^s DROP; Fig 4.6 blocked in the third stage (L1574)", "V2"),
      "as metro.mrp.v2.blocked_turn_trace", "stage whose STATUS word says blocked, as the source parses it",
      3,
      [] {
        const ConnectionRun run = run_v2_blocked_turn(kMrpSeed);
        const ReturnStream r = parse_return(run.format, run.at_source, 0, kExampleStages);
        return r.well_formed ? static_cast<double>(r.blocked_stage) : -1.0;
      },
      Evidence::Behaviour);
  add(
      "metro.mrp.v3.drop_trace",
      source("§4.5.3, Fig 4.7 (L1427, L1570-1582)", "V3: L_k carries Z in cycle 3 + k"),
      "R D1 D2 DROP; seed 1", "link-cycle cells (L0..L4, 24 cycles) that differ from the note's V3 rule", 0,
      [] { return static_cast<double>(trace_mismatches(note_trace_v3(), run_v3_drop(kMrpSeed).trace)); },
      Evidence::Independent);
  add(
      "metro.mrp.v4.reverse_turn_data_idle",
      source("§4.5.3, Fig 4.10 (L1433, L1595, L1613)", "V4: 2 DATA-IDLE per router, 2N at the destination"),
      "R D1 D2 TURN; the destination answers Y1 Y2 TURN, the source D3 D4 TURN, the destination Y3 DROP; "
      "seed 1",
      "DATA-IDLE words the destination reads between its TURN and the source's D3", 8,
      [] {
        const ConnectionRun run = run_v4_reverse_turn(kMrpSeed);
        int count = 0;
        for (std::size_t k = after_turn(run.format, run.at_destination, 1); k < run.at_destination.size();
             ++k) {
          const Kind kind = run.format.classify(run.at_destination[k].word);
          if (kind != Kind::H) return kind == Kind::D ? static_cast<double>(count) : -1.0;
          ++count;
        }
        return -1.0;
      },
      Evidence::Independent);
  add(
      "metro.mrp.v4.second_turn_status_pairs",
      source("§4.5.3 (L1429-1433): a turn in the forward direction returns STATUS and CHECKSUM",
             "V4: a further forward TURN produces STATUS/CHECKSUM again"),
      "as metro.mrp.v4.reverse_turn_data_idle",
      "STATUS/CHECKSUM pairs the source reads after its second TURN", 4,
      [] {
        const ConnectionRun run = run_v4_reverse_turn(kMrpSeed);
        const ReturnStream r =
            parse_return(run.format, run.at_source, after_turn(run.format, run.at_source, 1), kExampleStages);
        return r.well_formed ? static_cast<double>(r.status.size()) : -1.0;
      },
      Evidence::Independent);
  // V6: the MBTA's "one cycle to traverse each router and one cycle to traverse each wire" (L2997), read
  // as W = 1 and one router pipeline stage, P = 1 (mppnet's dps = 2: note 004b §6 item 11, P = dps - 1).
  const char* mbta =
      "the MBTA's 64-node network (r = 4, d = 2, 3 stages, ni = no = 2, deterministic), dps = 2 "
      "(one cycle per router and one per wire), node 0 -> 63, R D1 TURN, reply Y1 DROP, seed 1";
  cases.push_back(core::exact_case(
      "metro.mrp.v6.pipelined_turn_trace_l0",
      source("§4.11.1, Figs 4.14-4.15 (L1667-1681: +2 cycles per turn per extra pipeline stage)",
             "V6 (L0 derived from the prose)"),
      mbta, "cells of L0 (24 cycles) that differ from the note's V6 row: S, C, H, H per router", 0,
      [] {
        PathTrace l0 = run_v6_pipelined(kMrpSeed).trace;
        l0.rows.resize(1);
        l0.off_path_words = 0;
        return static_cast<double>(trace_mismatches(note_trace_v6_l0(), l0));
      },
      Evidence::Independent, kMrpExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v6.mbta_one_way_latency",
      std::string(kMrpThesis) +
          " §10.2 (L2997): T_unloaded = 70 ns at 100 MHz, 10 ns per router and per wire",
      mbta,
      "cycles (10 ns each at 100 MHz) from the ROUTE on the source's link to the destination reading it", 7,
      [] {
        const ConnectionRun run = run_v6_pipelined(kMrpSeed);
        return run.at_destination.empty() ? -1.0 : static_cast<double>(run.at_destination.front().cycle);
      },
      Evidence::Behaviour, kMrpExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v6.turn_round_trip", source("§4.11.1 (L1673)", "V6: 14 cycles from TURN to the first reply"),
      mbta, "cycles from the source's TURN on L0 (cycle 2) to its reading the first reply word", 14,
      [] {
        const ConnectionRun run = run_v6_pipelined(kMrpSeed);
        const ReturnStream r = parse_return(run.format, run.at_source, 0, 3);
        return r.well_formed ? static_cast<double>(r.first_reply_cycle - 2) : -1.0;
      },
      Evidence::Independent, kMrpExact));
  add(
      "metro.mrp.v9.fast_reclaim_trace",
      source("§4.9.2, Figs 4.11-4.12 (L1635-1655)",
             "V9: R3 asserts back-drop in cycle 3, R2 frees in 4, R1 in 5, the source aborts in 6"),
      "fast path reclamation on; stage 3 blocked as in metro.mrp.v2.blocked_turn_trace; R D1..D9 TURN; seed "
      "1",
      "link-cycle cells (L0..L4, 24 cycles; words and back-drop) that differ from the note's V9 timing, plus "
      "1 "
      "if the source did not abort, plus ports still held or not idle at the end",
      0,
      [] {
        const ConnectionRun run = run_v9_fast_reclaim(kMrpSeed);
        return static_cast<double>(trace_mismatches(note_trace_v9(), run.trace) + (run.backdropped ? 0 : 1) +
                                   run.ports_busy);
      },
      Evidence::Independent);
  add(
      "metro.mrp.v11.deselected_port_reports",
      source("§4.9.1 (L1619-1621): a deselected backward port is treated as always busy", "V11"),
      "copy 1 of the route's direction deselected in every stage-2 router; V1's connection over seeds "
      "1..10^4 "
      "(each seed its own random streams)",
      "attempts whose stage-2 STATUS names the deselected copy", 0,
      [] {
        int reported = 0;
        for (std::uint64_t seed = 1; seed <= 10000; ++seed) {
          const ConnectionRun run = run_v11_deselected(seed, 2, 1);
          const ReturnStream r = parse_return(run.format, run.at_source, 0, kExampleStages);
          if (!r.well_formed || r.ports.size() != 4 || r.ports[1] == 1) ++reported;
        }
        return static_cast<double>(reported);
      },
      Evidence::Behaviour, /*slow=*/true);  // 10^4 connections: about 0.6 s in a Release build
  return cases;
}

}  // namespace mppnet::machines::metro::mrp
