// machines/metro/completeness.hpp: incremental completeness of a network as faults accumulate.
//
// A network is complete when every ordered pair (x, y), x = y included, has a path through fault-free
// parts (note 004a §4.9 and §7 item 9). Instead of a graph search per fault, the tracker keeps, for every
// router u and every destination y that u's class can reach, the number of u's live output wires toward
// y that lead to a router still good for y, and for every node x and destination y the number of x's
// live input links into a stage-1 router good for y. A fault turns (router, destination) states from
// good to bad and the change propagates backwards along live wires; x is cut off from y when its count
// for y reaches 0. Each state goes bad at most once, so a whole trial costs no more than one pass over
// the states, and reset() is one copy of the fault-free counts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "machines/metro/metro_ids.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro {

// The tracker keeps about 1.5 * N^2 one-byte counters (per node and destination): 25 MB at 4096 nodes.
constexpr int kMaxTrackedNodes = 4096;

// The fault unit of a yield or harvest study (§2.1.1; note 004a §4.9 models whole packages).
enum class FaultUnit {
  Package,  // a whole package: one dilated router, or a pair of final-stage routers
  Router,   // one router
  Link,     // one wire: node -> stage 1, stage -> stage, or final stage -> node
};
const std::vector<std::string>& fault_unit_names();

// One fault of `unit` on a tracker (CompletenessTracker, GraphCompletenessTracker): a package fails every
// router it holds. `index` is a PackageId, RouterId or LinkId, as `unit` says.
template <class Tracker>
void apply_fault(Tracker& tracker, const std::vector<std::vector<RouterId>>& package_routers, FaultUnit unit,
                 int index) {
  switch (unit) {
    case FaultUnit::Package:
      for (RouterId u : package_routers[index]) tracker.fail_router(u);
      return;
    case FaultUnit::Router:
      tracker.fail_router(index);
      return;
    case FaultUnit::Link:
      tracker.fail_link(index);
      return;
  }
}

// The k-th fault of a trial (k = 0, 1, ...), uniform among the units not yet faulty: one step of a partial
// Fisher-Yates shuffle of `order`, which holds 0..units-1 (in any order) when the trial starts. Yield,
// harvest and the faulty networks of `mppnet run` all draw their faults this way, so one (seed, trial)
// stream gives the same fault sequence in each.
inline int draw_fault(core::RandomStream& rng, std::vector<int>& order, int k) {
  const int units = static_cast<int>(order.size());
  const int pick = k + static_cast<int>(rng.below(static_cast<std::uint32_t>(units - k)));
  std::swap(order[k], order[pick]);
  return order[k];
}

// Links are numbered: node input links first (x*ni + q), then every router output in router order
// (out_first[u] + port), final-stage outputs included.
int link_count(const Multibutterfly& net);
// Number of fault units of `unit` in `net`.
int fault_unit_count(const Multibutterfly& net, FaultUnit unit);

// The reference the tracker is tested against: a graph search from every node that ignores directions
// and dilation, so it also answers for the same graph relabelled as an extra-stage network of radix-r*d
// dilation-1 routers (§3.5.4, note 004a §4.8 and R7). Costs one search per node: for tests only.
bool complete_by_search(const Multibutterfly& net, const std::vector<std::uint8_t>& faulty_router,
                        const std::vector<std::uint8_t>& dead_link);

class CompletenessTracker {
 public:
  // `net` must outlive the tracker. REQUIRES: net.nodes <= kMaxTrackedNodes.
  explicit CompletenessTracker(const Multibutterfly& net);

  void reset();  // back to fault-free
  bool complete() const { return cut_pairs_ == 0; }
  long long cut_pairs() const { return cut_pairs_; }  // ordered pairs (x, y) with no path

  void fail_router(RouterId router);
  void fail_link(LinkId link);
  void fail(FaultUnit unit, int index);  // index in [0, fault_unit_count(net, unit))

 private:
  struct Pending {
    RouterId router;
    int dest;  // local index within the router's reach (not a NodeId)
  };
  void propagate();
  void mark_bad(RouterId router, int dest);

  const Multibutterfly& net_;
  int ni_;
  std::vector<int> state_first_;                // per router: offset of its per-destination counts
  std::vector<int> stage_;                      // per router
  std::vector<int> direction_;                  // per router: the direction its predecessors use to reach it
  std::vector<LinkId> link_in_;                 // per router input slot: the wire into it
  std::vector<std::uint8_t> count0_, count_;    // per (router, destination): live good wires
  std::vector<std::uint8_t> source0_, source_;  // per (node, destination): live good input links
  std::vector<std::uint8_t> faulty_;
  std::vector<std::uint8_t> dead_;  // per link
  std::vector<Pending> work_;
  long long cut_pairs_ = 0;
};

}  // namespace mppnet::machines::metro
