// machines/metro/completeness.cpp: the incremental completeness tracker and its label-free reference.
#include "machines/metro/completeness.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::metro {

const std::vector<std::string>& fault_unit_names() {
  static const std::vector<std::string> names = {"package", "router", "link"};
  return names;
}

int link_count(const Multibutterfly& net) {
  return net.nodes * net.params.node_inputs + static_cast<int>(net.out.size());
}

int fault_unit_count(const Multibutterfly& net, FaultUnit unit) {
  switch (unit) {
    case FaultUnit::Package:
      return net.packages();
    case FaultUnit::Router:
      return net.routers();
    case FaultUnit::Link:
      return link_count(net);
  }
  return 0;
}

CompletenessTracker::CompletenessTracker(const Multibutterfly& net) : net_(net), ni_(net.params.node_inputs) {
  MPPNET_ASSERT(net.nodes <= kMaxTrackedNodes, "completeness tracker on more nodes than kMaxTrackedNodes");
  const int R = net.routers(), N = net.nodes;
  stage_.resize(R);
  direction_.resize(R);
  for (RouterId u = 0; u < R; ++u) {
    stage_[u] = net.stage_of(u);
    direction_[u] = net.class_of(u) % net.params.radix;
  }
  // Fault-free counts: the live good wires per direction (d; r*d at an extra stage, whose one direction
  // reaches every node; d_S per node at the final stage); ni per node.
  for (RouterId u = 0; u < R; ++u) {
    state_first_.push_back(static_cast<int>(count0_.size()));
    const int span = net.reach_span(stage_[u]);
    count0_.resize(count0_.size() + span, static_cast<std::uint8_t>(net.copies[stage_[u]]));
  }
  state_first_.push_back(static_cast<int>(count0_.size()));
  source0_.assign(static_cast<std::size_t>(N) * N, static_cast<std::uint8_t>(ni_));

  // The link id of the wire into every router input slot. No two wires join the same pair of parts, so
  // the port is found by its target alone.
  link_in_.assign(net.in.size(), -1);
  for (RouterId v = 0; v < R; ++v) {
    for (int slot = net.in_first[v]; slot < net.in_first[v + 1]; ++slot) {
      const WireEnd src = net.in[slot];
      if (is_node_source(src)) {
        const NodeId x = source_node(src);
        for (int q = 0; q < ni_; ++q)
          if (net.node_in[static_cast<std::size_t>(x) * ni_ + q] == v) link_in_[slot] = x * ni_ + q;
      } else {
        for (int o = net.out_first[src]; o < net.out_first[src + 1]; ++o)
          if (net.out[o] == v) link_in_[slot] = N * ni_ + o;
      }
      MPPNET_ASSERT(link_in_[slot] >= 0, "router input with no matching output");
    }
  }
  work_.reserve(count0_.size());
  reset();
}

void CompletenessTracker::reset() {
  count_ = count0_;
  source_ = source0_;
  faulty_.assign(net_.routers(), 0);
  dead_.assign(link_count(net_), 0);
  cut_pairs_ = 0;
}

void CompletenessTracker::mark_bad(RouterId router, int dest) {
  work_.push_back({router, dest});
}

void CompletenessTracker::propagate() {
  const int N = net_.nodes;
  while (!work_.empty()) {
    const Pending w = work_.back();
    work_.pop_back();
    const RouterId v = w.router;
    const int span_v = net_.reach_span(stage_[v]);
    for (int slot = net_.in_first[v]; slot < net_.in_first[v + 1]; ++slot) {
      if (dead_[link_in_[slot]]) continue;
      const WireEnd src = net_.in[slot];
      if (is_node_source(src)) {
        // Stage 1 reaches every node: the local index is the destination itself.
        if (--source_[static_cast<std::size_t>(source_node(src)) * N + w.dest] == 0) ++cut_pairs_;
        continue;
      }
      const int q = direction_[v] * span_v + w.dest;
      if (--count_[state_first_[src] + q] == 0 && !faulty_[src]) mark_bad(src, q);
    }
  }
}

void CompletenessTracker::fail_router(RouterId router) {
  if (faulty_[router]) return;
  faulty_[router] = 1;
  for (int q = 0, n = state_first_[router + 1] - state_first_[router]; q < n; ++q)
    if (count_[state_first_[router] + q] > 0) mark_bad(router, q);
  propagate();
}

void CompletenessTracker::fail_link(LinkId link) {
  if (dead_[link]) return;
  dead_[link] = 1;
  const int N = net_.nodes;
  if (link < N * ni_) {
    const NodeId x = link / ni_;
    const RouterId v = net_.node_in[link];
    if (faulty_[v]) return;
    for (NodeId y = 0; y < N; ++y)
      if (count_[state_first_[v] + y] > 0 && --source_[static_cast<std::size_t>(x) * N + y] == 0)
        ++cut_pairs_;
    return;
  }
  const int o = link - N * ni_;
  const RouterId u = static_cast<RouterId>(std::upper_bound(net_.out_first.begin(), net_.out_first.end(), o) -
                                           net_.out_first.begin()) -
                     1;
  const PortId port = o - net_.out_first[u];
  if (stage_[u] == net_.stages() - 1) {
    // Output t*d_S + k feeds the router's t-th node.
    const int t = port / net_.copies[stage_[u]];
    std::uint8_t& c = count_[state_first_[u] + t];
    if (c > 0 && --c == 0 && !faulty_[u]) mark_bad(u, t);
  } else {
    const RouterId v = net_.out[o];
    const int j = port / net_.copies[stage_[u]], span_v = net_.reach_span(stage_[v]);
    if (!faulty_[v]) {
      for (int q = 0; q < span_v; ++q) {
        if (count_[state_first_[v] + q] == 0) continue;
        const int qu = j * span_v + q;
        if (--count_[state_first_[u] + qu] == 0 && !faulty_[u]) mark_bad(u, qu);
      }
    }
  }
  propagate();
}

void CompletenessTracker::fail(FaultUnit unit, int index) {
  apply_fault(*this, net_.package_routers, unit, index);
}

bool complete_by_search(const Multibutterfly& net, const std::vector<std::uint8_t>& faulty_router,
                        const std::vector<std::uint8_t>& dead_link) {
  const int N = net.nodes, ni = net.params.node_inputs, R = net.routers();
  std::vector<std::uint8_t> seen(R);
  std::vector<std::uint8_t> arrived(N);
  std::vector<RouterId> stack;
  for (NodeId x = 0; x < N; ++x) {
    std::fill(seen.begin(), seen.end(), 0);
    std::fill(arrived.begin(), arrived.end(), 0);
    stack.clear();
    for (int q = 0; q < ni; ++q) {
      const LinkId link = x * ni + q;
      const RouterId v = net.node_in[link];
      if (dead_link[link] || faulty_router[v] || seen[v]) continue;
      seen[v] = 1;
      stack.push_back(v);
    }
    while (!stack.empty()) {
      const RouterId u = stack.back();
      stack.pop_back();
      const bool last = net.stage_of(u) == net.stages() - 1;
      for (int o = net.out_first[u]; o < net.out_first[u + 1]; ++o) {
        if (dead_link[N * ni + o]) continue;
        const RouterId t = net.out[o];  // a NodeId at the final stage
        if (last) {
          arrived[t] = 1;
        } else if (!faulty_router[t] && !seen[t]) {
          seen[t] = 1;
          stack.push_back(t);
        }
      }
    }
    if (std::find(arrived.begin(), arrived.end(), 0) != arrived.end()) return false;
  }
  return true;
}

}  // namespace mppnet::machines::metro
