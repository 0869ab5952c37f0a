// workload/apps/phases.hpp: where an application's simulated time goes, phase by phase and node by node,
// and the progress of a long run.
//
// Each node's program says when it enters a phase; the time from one mark to the next is that node's time
// in the phase, so a node's phases add up to its program's end. The report gives, per phase, the slowest
// node's time (the node whose program ended last) and the mean over nodes: the slowest node's column adds
// up to the run's end, and a phase whose time is zero there costs nothing charged (local computation is
// not charged unless a program calls compute(); docs/am.md).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "am/node.hpp"
#include "core/types.hpp"

namespace mppnet::workload::apps {

// What a running application has reached: called now and then (every few thousand marks and ticks), so
// that a caller can print a progress line every few seconds of wall time. Never part of the results.
struct Progress {
  Picoseconds simulated_ps = 0;  // the latest time a node has reached
  std::string phase;             // the phase most nodes are in
  int nodes_in_phase = 0;
  int nodes = 0;
  int nodes_ended = 0;
  std::int64_t messages = 0;  // requests and replies sent so far, by all nodes
};
using ProgressSink = std::function<void(const Progress&)>;

struct PhaseTime {
  std::string name;
  Picoseconds slowest_node_ps = 0;  // the slowest node's time in this phase
  Picoseconds mean_ps = 0;          // the mean over nodes
  Picoseconds max_ps = 0;           // the longest any node spent in it
};

struct NodeEnds {
  NodeId slowest = -1;  // the node whose program ended last (the lowest id among ties)
  Picoseconds slowest_ps = 0, fastest_ps = 0, mean_ps = 0;
};

class PhaseTimer {
 public:
  // `names`: the phases in the order programs enter them. `progress` may be empty.
  PhaseTimer(int nodes, std::vector<std::string> names, const ProgressSink& progress);

  // Node `node` enters phase `phase` now (an index into names); its time since the last mark goes to the
  // phase it was in. A phase may be entered again (a loop of passes): its times add up.
  void enter(const am::Node& node, int phase);
  // Node `node`'s program ends now.
  void end(const am::Node& node);
  // Inside a long phase: lets the progress sink hear of the run. Cheap: a counter, mostly.
  void tick(const am::Node& node);

  std::vector<PhaseTime> phases() const;
  NodeEnds ends() const;

 private:
  void maybe_report(const am::Node& node);

  std::vector<std::string> names_;
  const ProgressSink& progress_;
  int nodes_;
  std::vector<Picoseconds> spent_;  // node * phases + phase
  std::vector<int> current_;        // each node's phase; -1 before its first mark, -2 once ended
  std::vector<Picoseconds> since_, end_;
  Picoseconds latest_ = 0;
  std::uint32_t calls_ = 0;
};

}  // namespace mppnet::workload::apps
