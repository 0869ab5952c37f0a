// machines/cm5/control_experiments.hpp: the control network's claims as runs (note 000 §6, V1-V10, V31-V33),
// each against a serial reference computed here on whole operands, not word by word as the tree does.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/cm5/control_network.hpp"

namespace mppnet::machines::cm5 {

// Pushes one combine on every leaf that does not abstain (operands most significant word first) and
// runs until each has its result. Results in leaf order; an abstaining leaf's is empty (count 0).
std::vector<ControlResult> combine_once(ControlNetwork& net, CombineKind kind, Combiner op,
                                        const std::vector<std::vector<std::uint32_t>>& operands,
                                        const std::vector<bool>& segment_starts);

// The serial reference: what leaf i must receive, on operands of up to 3 words.
struct Expected {
  std::vector<std::uint32_t> words;
  bool overflow = false;
};
std::vector<Expected> reference_combine(CombineKind kind, Combiner op,
                                        const std::vector<std::vector<std::uint32_t>>& operands,
                                        const std::vector<bool>& segment_starts,
                                        const std::vector<bool>& present);

// V1/V2: the paper's + scan of (3,2,0,4,2,6,5,8) on 8 leaves, forward or backward.
std::vector<std::int64_t> paper_scan(CombineKind kind);

// V3-V6, V31: `trials` random combines (every kind and operator, random values with many carries and
// overflows, random segments) on `leaves` leaves of `words`-word operands, where a random fraction
// abstains (or is mapped out). The number of leaves whose result or overflow bit differs from the
// reference.
struct RandomCombines {
  int leaves = 64;
  int trials = 200;
  int words = 1;
  double abstain = 0;
  bool map_out = false;  // mapped out instead of abstaining
  bool segments = true;
  std::uint64_t seed = 1;
};
std::int64_t random_combine_errors(const RandomCombines& spec);

// V7: one leaf pushes a forward scan while the others push a reduction: the leaves that see the error
// through the error OR once it has spread (all of them is the paper's claim).
int mismatch_seen_by(int leaves);
// V8: two leaves broadcast in the same slot: broadcast collisions counted.
std::int64_t broadcast_collisions(int leaves, bool same_slot);
// V9: a scan waits at the root's children for a late leaf while a broadcast goes by: whether the
// broadcast reached every leaf before the scan's results, and the scan's wrong results (0).
struct PriorityRun {
  bool broadcast_first = false;
  std::int64_t scan_errors = 0;
};
PriorityRun broadcast_overtakes_scan(int leaves);
// V10: the completion of n back-to-back reductions in slots after the first's latency: n - 1 when fully
// pipelined (n * latency without pipelining).
double pipelined_slots(int leaves, int n);
// A split-phase barrier (L550-560): every leaf enters (pushes a synchronous OR) at cycle 0, works for
// `work` cycles, then exits (pops). Cycles each leaf waits at the exit, at most: the barrier's latency
// less the work, or 0 once the work covers it.
Cycle split_phase_wait(int leaves, Cycle work);
// V32: cycles from one leaf raising its async OR input to the output at every leaf, whether the combine
// running beside it finished as if alone, and how many of the leaves that enabled the interrupt (the
// even ones) took it.
struct AsyncOrRun {
  Cycle delay = 0;     // from the raise to the output's 0 -> 1 at every NI
  Cycle expected = 0;  // the next slot plus 2 * height levels
  bool combine_unchanged = false;
  int interrupted = 0;  // leaves with the interrupt enabled that took exactly one
};
AsyncOrRun async_or_run(int leaves);
// V33: a pipelined sequence of scans flushed in the middle, resumed: leaves whose results differ from an
// uninterrupted run.
std::int64_t flush_resume_differences(int leaves, int scans, Cycle flush_at);

}  // namespace mppnet::machines::cm5
