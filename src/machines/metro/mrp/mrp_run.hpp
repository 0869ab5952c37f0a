// machines/metro/mrp/mrp_run.hpp: MRP traffic on a METRO multibutterfly under core::Scheduler.
//
// What `mppnet run` does with a METRO config: the FLAT24 load of Appendix A (A.3.5, L3249-3311; note
// 004c §4.4 and §9 items 8, 11-14): every node sends `messages` messages of `message_words` words to
// uniformly random destinations (itself included), a new one with probability `load` per router cycle
// while it holds fewer than `outstanding` (a node with that many stalls, as the thesis's processors do).
// A barrier phase ends when every message of the phase is acknowledged or reported failed; the next
// phase starts in the cycle after (note 004c §9 item 14: each node issues exactly `messages` per phase,
// the phase ends with the last ACK anywhere). The run ends after `phases` phases, or at `max_cycles`.
//
// Package faults (Fig 3.27, L1176-1186; "fault masking" on, L1659): `faulty_packages` whole packages are
// drawn as yield and harvest draw them (completeness.hpp draw_fault, stream (seed, draw, Fault)); only a
// complete network is run ("only complete networks are measured", Fig 3.27's caption), so an incomplete
// draw is drawn again, up to `fault_draws` draws. Every port leading into or out of a faulty router is
// deselected (§4.9.1) and the sources never use an input into one, so MRP routes around the faults.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/metro/mrp/mrp_endpoint.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::mrp {

// The [metro] keys metro.mrp.* (metro_config.cpp declares them; defaults here only).
struct MrpRunParams {
  int width = 8;                    // w: byte-wide routers (RN1, METRO, MBTA)
  int dps = 1;                      // router data latency; the MBTA is 2 (one cycle per router, one per wire)
  std::int64_t period_ps = 10000;   // router clock: METRO/MBTA at 100 MHz
  int message_words = 24;           // FLAT24: 24 bytes forward
  int outstanding = 4;              // Appendix A: 4 threads, one outstanding message each
  int max_attempts = 0;             // 0: retry until delivered (note 004c §9 item 9)
  bool suppress_duplicates = true;  // sequence numbers per (source, destination) pair
  bool fast_reclaim = true;         // Appendix A's data used fast path collapsing (§4.10, L1659)
  double load = 0.04;               // new messages per router cycle per node (FLAT24: 0.04)
  int messages = 400;               // per node: one barrier phase of FLAT24 (10,000 cycles x 0.04)
  int phases = 1;                   // barrier phases, each of `messages` per node
  bool barrier = true;              // false: no synchronisation, phases * messages per node at will
  int faulty_packages = 0;          // whole packages faulty and masked ([faults] packages)
  int fault_draws = 1000;           // fault sets drawn at most until one leaves the network complete
  std::int64_t max_cycles = 10000000;  // the run stops here even if messages are left
};

struct MrpRunResult {
  EndpointStats stats;
  std::int64_t cycles = 0;  // cycles run: the phase's completion time when `completed`
  bool completed = false;   // every message acknowledged or failed before max_cycles
  int nodes = 0, node_outputs = 0;
  double mean_latency_cycles = 0;  // creation to the DROP closing the ACK, over delivered messages
  double retries_per_message = 0;  // attempts beyond the first, per message completed
  double io_utilisation = 0;       // network-output cycles in ACKed connections / (cycles * N * no)
  double delivered_bytes_per_cycle_per_node = 0;  // payload words of delivered messages (w = 8: bytes)
  std::int64_t latency_min = 0;  // the fastest message: the zero-load latency when it met no one
  int ports_held = 0;  // at the end: backward ports held plus forward ports not idle (0: all closed)
  std::vector<std::int64_t> phase_end;  // per finished phase: the cycle its last message completed
  // The faults: the packages drawn (ascending), the draws it took, and whether the network they leave is
  // complete (when it is not, after fault_draws draws, nothing was run).
  std::vector<PackageId> faulty;
  int fault_draws = 0;
  bool network_complete = true;
  int masked_ports = 0;  // router ports deselected plus source inputs masked
};

// The fault set of a run: draw d = 0, 1, ... of `packages` packages from the stream (seed, d, Fault), the
// first that leaves `net` complete, at most `max_draws` draws (the last one, incomplete, if none does).
struct FaultDraw {
  std::vector<PackageId> packages;  // ascending
  int draws = 0;
  bool complete = true;
};
FaultDraw draw_complete_faults(const Multibutterfly& net, int packages, int max_draws, std::uint64_t seed);

// Masks the packages' routers in `net` and `ends`: every backward port whose link leads into a faulty
// router, every port of a faulty router, and every source input into one. Returns the count masked.
int mask_faulty_packages(const Multibutterfly& graph, const std::vector<PackageId>& packages, MrpNetwork& net,
                         MrpEndpoints& ends);

// Builds instance 0 of `net` with `seed`, runs the load and reports. REQUIRES: check_mrp_run(...) empty.
MrpRunResult run_mrp(const MultibutterflyParams& net, const MrpRunParams& p, std::uint64_t seed);

// Every reason the run cannot be built: the router's check (mrp_params.hpp), then the endpoints'.
std::vector<core::Problem> check_mrp_run(const MultibutterflyParams& net, const MrpRunParams& p);

// The endpoint and router parameters the run uses.
EndpointParams endpoint_params(const MrpRunParams& p);
MrpParams router_params(const MrpRunParams& p);

// A short table for the terminal.
std::string format_mrp_result(const MrpRunParams& p, const MrpRunResult& r);

}  // namespace mppnet::machines::metro::mrp
