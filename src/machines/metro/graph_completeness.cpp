// machines/metro/graph_completeness.cpp: the graph completeness tracker.
#include "machines/metro/graph_completeness.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::metro {

GraphCompletenessTracker::GraphCompletenessTracker(const NetworkGraph& g) : g_(g) {
  MPPNET_ASSERT(g.nodes <= kMaxTrackedNodes, "graph tracker on more nodes than kMaxTrackedNodes");
  const int R = g.routers(), N = g.nodes, ni = g.node_inputs;
  for (RouterId u = 0; u < R; ++u) {
    MPPNET_ASSERT(g.out_first[u + 1] - g.out_first[u] <= 255, "more outputs than a byte counter holds");
    state_first_.push_back(static_cast<int>(count0_.size()));
    count0_.resize(count0_.size() + std::max(0, g.reach_hi[u] - g.reach_lo[u]), 0);
  }
  state_first_.push_back(static_cast<int>(count0_.size()));
  // Fault-free: every state in a router's reach is good (each builder routes every destination it
  // claims), so a wire counts toward y when it serves y and its target reaches y.
  for (RouterId u = 0; u < R; ++u) {
    for (int o = g.out_first[u]; o < g.out_first[u + 1]; ++o) {
      const WireEnd t = g.out[o];
      const DestRange& s = g.serve[o];
      for (NodeId y = g.reach_lo[u]; y < g.reach_hi[u]; ++y) {
        if (!s.serves(y)) continue;
        if (is_node_source(t) ? source_node(t) == y : in_reach(t, y))
          ++count0_[state_first_[u] + y - g.reach_lo[u]];
      }
    }
    for (NodeId y = g.reach_lo[u]; y < g.reach_hi[u]; ++y)
      MPPNET_ASSERT(count0_[state_first_[u] + y - g.reach_lo[u]] > 0,
                    "a router cannot route a destination in its reach");
  }
  source0_.assign(static_cast<std::size_t>(N) * N, 0);
  for (NodeId x = 0; x < N; ++x)
    for (int q = 0; q < ni; ++q) {
      const RouterId v = g.node_in[static_cast<std::size_t>(x) * ni + q];
      for (NodeId y = g.reach_lo[v]; y < g.reach_hi[v]; ++y) ++source0_[static_cast<std::size_t>(x) * N + y];
    }
  out_of_link_.assign(g.in.size(), -1);
  for (std::size_t i = 0; i < g.in.size(); ++i)
    if (!is_node_source(g.in[i])) out_of_link_[i] = g.in_link[i] - N * ni;
  work_.reserve(count0_.size());
  reset();
  MPPNET_ASSERT(cut_pairs_ == 0, "the fault-free graph is not complete");
}

void GraphCompletenessTracker::reset() {
  count_ = count0_;
  source_ = source0_;
  faulty_.assign(g_.routers(), 0);
  dead_.assign(g_.links(), 0);
  cut_pairs_ = 0;
  for (std::uint8_t c : source_) cut_pairs_ += c == 0 ? 1 : 0;
}

void GraphCompletenessTracker::propagate() {
  const int N = g_.nodes;
  while (!work_.empty()) {
    const Pending w = work_.back();
    work_.pop_back();
    const RouterId v = w.router;
    const NodeId y = w.dest;
    for (int i = g_.in_first[v]; i < g_.in_first[v + 1]; ++i) {
      if (dead_[g_.in_link[i]]) continue;
      const WireEnd src = g_.in[i];
      if (is_node_source(src)) {
        if (--source_[static_cast<std::size_t>(source_node(src)) * N + y] == 0) ++cut_pairs_;
        continue;
      }
      if (!g_.serve[out_of_link_[i]].serves(y)) continue;
      if (--count(src, y) == 0 && !faulty_[src]) work_.push_back({src, y});
    }
  }
}

void GraphCompletenessTracker::fail_router(RouterId router) {
  if (faulty_[router]) return;
  for (NodeId y = g_.reach_lo[router]; y < g_.reach_hi[router]; ++y)
    if (count(router, y) > 0) work_.push_back({router, y});
  faulty_[router] = 1;
  propagate();
}

void GraphCompletenessTracker::fail_link(LinkId link) {
  if (dead_[link]) return;
  dead_[link] = 1;
  const int N = g_.nodes, ni = g_.node_inputs;
  if (link < N * ni) {
    const NodeId x = link / ni;
    const RouterId v = g_.node_in[link];
    for (NodeId y = g_.reach_lo[v]; y < g_.reach_hi[v]; ++y)
      if (good(v, y) && --source_[static_cast<std::size_t>(x) * N + y] == 0) ++cut_pairs_;
    return;
  }
  const int o = link - N * ni;
  const RouterId u = static_cast<RouterId>(std::upper_bound(g_.out_first.begin(), g_.out_first.end(), o) -
                                           g_.out_first.begin()) -
                     1;
  const WireEnd t = g_.out[o];
  const DestRange& s = g_.serve[o];
  for (NodeId y = g_.reach_lo[u]; y < g_.reach_hi[u]; ++y) {
    if (!s.serves(y) || count(u, y) == 0) continue;
    if (is_node_source(t) ? source_node(t) != y : !good(t, y)) continue;
    if (--count(u, y) == 0 && !faulty_[u]) work_.push_back({u, y});
  }
  propagate();
}

void GraphCompletenessTracker::fail(FaultUnit unit, int index) {
  apply_fault(*this, g_.package_routers, unit, index);
}

}  // namespace mppnet::machines::metro
