// machines/metro/graph_completeness.hpp: incremental completeness on any METRO router graph.
//
// The multibutterfly tracker (completeness.hpp) relies on strict stages and classes; this one needs only
// the routing rule of network_graph.hpp. For every router u and destination y in u's reach it counts
// u's live outputs that serve y and lead to node y or to a router still good for y; for every node x
// and destination y, x's live ports into a router good for y. A fault turns (router, y) states bad and
// the change propagates backwards along live wires that serve y. Loop-free routing per destination makes
// this exact (a state cannot be kept good by a cycle of its own support), and each state goes bad at
// most once per trial. Used for the fat trees; checked against complete_by_search and, on
// multibutterflies, against CompletenessTracker.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/metro/completeness.hpp"
#include "machines/metro/network_graph.hpp"

namespace mppnet::machines::metro {

class GraphCompletenessTracker {
 public:
  // `g` must outlive the tracker. REQUIRES: g.nodes <= kMaxTrackedNodes, at most 255 outputs per router.
  explicit GraphCompletenessTracker(const NetworkGraph& g);

  void reset();
  bool complete() const { return cut_pairs_ == 0; }
  long long cut_pairs() const { return cut_pairs_; }

  void fail_router(RouterId router);
  void fail_link(LinkId link);
  void fail(FaultUnit unit, int index);  // index: a PackageId, RouterId or LinkId, as `unit` says

 private:
  struct Pending {
    RouterId router;
    NodeId dest;
  };
  bool in_reach(RouterId u, NodeId y) const { return g_.reach_lo[u] <= y && y < g_.reach_hi[u]; }
  std::uint8_t& count(RouterId u, NodeId y) { return count_[state_first_[u] + y - g_.reach_lo[u]]; }
  bool good(RouterId u, NodeId y) const {
    return !faulty_[u] && in_reach(u, y) && count_[state_first_[u] + y - g_.reach_lo[u]] > 0;
  }
  void propagate();

  const NetworkGraph& g_;
  std::vector<int> state_first_;
  std::vector<int> out_of_link_;  // per router-input slot: the output index feeding it, -1 for a node
  std::vector<std::uint8_t> count0_, count_;
  std::vector<std::uint8_t> source0_, source_;
  std::vector<std::uint8_t> faulty_, dead_;
  std::vector<Pending> work_;
  long long cut_pairs_ = 0;
};

}  // namespace mppnet::machines::metro
