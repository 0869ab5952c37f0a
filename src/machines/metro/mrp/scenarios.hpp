// machines/metro/mrp/scenarios.hpp: the single-connection runs of note 004b §5 (V1-V4), shared by the
// unit tests and the validation cases.
//
// The network is Fig 4.4's 16-node multibutterfly (= Fig 3.11: r = d = 2, 4 stages, ni = no = 2,
// deterministic wiring) with byte-wide words, and the connection runs from input 6 to output 16 as in the
// thesis's examples (L1549-1553): node 5 to node 15 in mppnet's 0-based numbering, network input 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/metro/mrp/endpoint.hpp"
#include "machines/metro/mrp/trace.hpp"

namespace mppnet::machines::metro::mrp {

inline constexpr NodeId kExampleSource = 5;        // "input 6"
inline constexpr NodeId kExampleDestination = 15;  // "output 16"
inline constexpr int kExampleStages = 4;

struct ConnectionRun {
  PathTrace trace;                       // cycles 0..kTraceCycles-1 from the source's first word
  std::vector<Received> at_source;       // what the source read
  std::vector<Received> at_destination;  // what the destination read (empty if it was never reached)
  WordFormat format;
  std::vector<Word> sent;      // the source's control-bit-1 words, in its own frame
  std::vector<LinkWords> raw;  // every non-idle link word, for determinism checks
  bool backdropped = false;    // the source saw back-drop and aborted
  int ports_busy = -1;         // at the end: backward ports held plus forward ports not idle
};

inline constexpr int kTraceCycles = 24;

// Fig 4.4's network as above, and the MBTA's (r = 4, d = 2, 3 stages, ni = no = 2, deterministic).
MultibutterflyParams figure_44_network();
MultibutterflyParams mbta_network();

// V1: R D1 D2 TURN; the destination replies Y1 Y2 DROP in the cycle it sees the TURN.
ConnectionRun run_v1_open_and_turn(std::uint64_t seed);
// V2: as V1, with every stage-3 backward port of the route's direction deselected, so it blocks there.
ConnectionRun run_v2_blocked_turn(std::uint64_t seed);
// V3: R D1 D2 DROP; `block_stage` > 0 blocks it at that stage as V2 does.
ConnectionRun run_v3_drop(std::uint64_t seed, int block_stage = 0);
// V9: fast path reclamation on; R D1..D9 TURN blocked at stage 3 as in V2.
ConnectionRun run_v9_fast_reclaim(std::uint64_t seed);
// V11: as V1, with copy `copy` of the route's direction deselected in every router of stage `stage`.
ConnectionRun run_v11_deselected(std::uint64_t seed, int stage, int copy);
// V6: pipelined routers (dps = 2) on the MBTA's 64-node, 3-stage r = 4, d = 2 network: R D1 TURN from
// node 0 to node 63, reply Y1 DROP.
ConnectionRun run_v6_pipelined(std::uint64_t seed);
// The same connection (R D1 TURN from node 0 to the last node, reply Y1 DROP) on any network and routers,
// e.g. those a config file describes. REQUIRES: check(p, mp) is empty.
ConnectionRun run_pipelined_turn(std::uint64_t seed, const MultibutterflyParams& p, const MrpParams& mp);
// V4: as V1, but the destination answers Y1 Y2 TURN; the source then sends D3 D4 TURN and the
// destination replies Y3 DROP.
ConnectionRun run_v4_reverse_turn(std::uint64_t seed);

// The note's traces, row L0 first, as printed in note 004b §5 (V1, V2) or built from its rule (V3: every
// word advances one link per cycle, so L_k carries the k-th word... in cycle k + i).
std::vector<std::vector<std::string>> note_trace_v1();
std::vector<std::vector<std::string>> note_trace_v2();
std::vector<std::vector<std::string>> note_trace_v3();

std::vector<std::vector<std::string>> note_trace_v9();
// Row L0 of V6 as printed in note 004b §5 (the note gives no other row).
std::vector<std::vector<std::string>> note_trace_v6_l0();

// The index of the first word read after the `n`-th TURN the end read (n from 1), or words.size().
std::size_t after_turn(const WordFormat& format, const std::vector<Received>& words, int n);

}  // namespace mppnet::machines::metro::mrp
