// machines/metro/network_graph.cpp: building router graphs, and searches and path counts on them.
#include "machines/metro/network_graph.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/error.hpp"

namespace mppnet::machines::metro {

int NetworkGraph::count_role(const std::string& name) const {
  const auto it = std::find(role_names.begin(), role_names.end(), name);
  if (it == role_names.end()) return 0;
  return static_cast<int>(std::count(role.begin(), role.end(), static_cast<int>(it - role_names.begin())));
}

GraphBuilder::GraphBuilder(int nodes, int node_inputs) {
  g_.nodes = nodes;
  g_.node_inputs = node_inputs;
  g_.node_in.assign(static_cast<std::size_t>(nodes) * node_inputs, -1);
  g_.out_first.push_back(0);
  g_.in_first.push_back(0);
}

int GraphBuilder::add_role(std::string name) {
  g_.role_names.push_back(std::move(name));
  return static_cast<int>(g_.role_names.size()) - 1;
}

RouterId GraphBuilder::add_router(int role, int outputs, int inputs) {
  g_.role.push_back(role);
  g_.out.resize(g_.out.size() + outputs, kUnwired);
  g_.serve.resize(g_.out.size());
  g_.out_first.push_back(static_cast<int>(g_.out.size()));
  g_.in.resize(g_.in.size() + inputs, kUnwired);
  g_.in_link.resize(g_.in.size(), -1);
  g_.in_first.push_back(static_cast<int>(g_.in.size()));
  return g_.routers() - 1;
}

void GraphBuilder::wire(RouterId from, PortId port, RouterId to, PortId slot, DestRange range) {
  MPPNET_ASSERT(port < g_.out_first[from + 1] - g_.out_first[from], "wire from a port the router lacks");
  MPPNET_ASSERT(slot < g_.in_first[to + 1] - g_.in_first[to], "wire into a slot the router lacks");
  const int o = g_.out_first[from] + port, i = g_.in_first[to] + slot;
  MPPNET_ASSERT(g_.out[o] == kUnwired && g_.in[i] == kUnwired, "two wires on one port");
  g_.out[o] = to;
  g_.serve[o] = range;
  g_.in[i] = from;
  g_.in_link[i] = g_.nodes * g_.node_inputs + o;
}

void GraphBuilder::deliver(RouterId from, PortId port, NodeId node) {
  const int o = g_.out_first[from] + port;
  MPPNET_ASSERT(g_.out[o] == kUnwired, "two wires on one port");
  g_.out[o] = node_source(node);
  g_.serve[o] = {node, node + 1, false};
}

void GraphBuilder::node_port(NodeId node, PortId q, RouterId to, PortId slot) {
  const int i = g_.in_first[to] + slot;
  const LinkId link = node * g_.node_inputs + q;
  MPPNET_ASSERT(g_.in[i] == kUnwired && g_.node_in[link] == -1, "two wires on one port");
  g_.in[i] = node_source(node);
  g_.in_link[i] = link;
  g_.node_in[link] = to;
}

NetworkGraph GraphBuilder::finish() {
  NetworkGraph g = std::move(g_);
  MPPNET_ASSERT(std::find(g.out.begin(), g.out.end(), kUnwired) == g.out.end(), "a router output unwired");
  MPPNET_ASSERT(std::find(g.in.begin(), g.in.end(), kUnwired) == g.in.end(), "a router input unwired");
  MPPNET_ASSERT(std::find(g.node_in.begin(), g.node_in.end(), -1) == g.node_in.end(), "a node port unwired");
  const int R = g.routers();
  g.reach_lo.assign(R, g.nodes);
  g.reach_hi.assign(R, 0);
  for (RouterId u = 0; u < R; ++u) {
    for (int o = g.out_first[u]; o < g.out_first[u + 1]; ++o) {
      const DestRange& s = g.serve[o];
      g.reach_lo[u] = std::min(g.reach_lo[u], s.outside ? 0 : s.lo);
      g.reach_hi[u] = std::max(g.reach_hi[u], s.outside ? g.nodes : s.hi);
    }
  }
  if (g.package_routers.empty()) {
    for (RouterId u = 0; u < R; ++u) {
      g.package_of.push_back(u);
      g.package_routers.push_back({u});
    }
  }
  return g;
}

NetworkGraph to_graph(const Multibutterfly& net) {
  GraphBuilder b(net.nodes, net.params.node_inputs);
  for (int s = 0; s < net.stages(); ++s) b.add_role("stage " + std::to_string(s + 1));
  const int R = net.routers();
  for (RouterId u = 0; u < R; ++u) {
    const int s = net.stage_of(u);
    b.add_router(s, net.out_first[u + 1] - net.out_first[u], net.inputs_per_router[s]);
  }
  auto reach = [&](RouterId u) {
    const int span = net.reach_span(net.stage_of(u));
    const int lo = net.stage_of(u) < net.params.extra_stages ? 0 : net.class_of(u) * span;
    return DestRange{lo, lo + span, false};
  };
  for (RouterId u = 0; u < R; ++u) {
    const bool last = net.stage_of(u) == net.stages() - 1;
    for (int o = net.out_first[u]; o < net.out_first[u + 1]; ++o) {
      const PortId port = o - net.out_first[u];
      if (last) {
        b.deliver(u, port, net.out[o]);
        continue;
      }
      const RouterId v = net.out[o];
      int slot = net.in_first[v];
      while (net.in[slot] != u) ++slot;  // no parallel wires between two routers
      b.wire(u, port, v, slot - net.in_first[v], reach(v));
    }
  }
  const int ni = net.params.node_inputs;
  for (NodeId x = 0; x < net.nodes; ++x) {
    for (int q = 0; q < ni; ++q) {
      const RouterId v = net.node_in[static_cast<std::size_t>(x) * ni + q];
      int slot = net.in_first[v];
      while (net.in[slot] != node_source(x)) ++slot;
      b.node_port(x, q, v, slot - net.in_first[v]);
    }
  }
  NetworkGraph g = b.finish();
  g.package_of = net.package_of;
  g.package_routers = net.package_routers;
  return g;
}

int fault_unit_count(const NetworkGraph& g, FaultUnit unit) {
  switch (unit) {
    case FaultUnit::Package:
      return g.packages();
    case FaultUnit::Router:
      return g.routers();
    case FaultUnit::Link:
      return g.links();
  }
  return 0;
}

bool complete_by_search(const NetworkGraph& g, const std::vector<std::uint8_t>& faulty_router,
                        const std::vector<std::uint8_t>& dead_link) {
  const int N = g.nodes, R = g.routers(), ni = g.node_inputs;
  std::vector<std::uint8_t> good(R);
  for (NodeId y = 0; y < N; ++y) {
    std::fill(good.begin(), good.end(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (RouterId u = 0; u < R; ++u) {
        if (good[u] || faulty_router[u]) continue;
        for (int o = g.out_first[u]; o < g.out_first[u + 1] && !good[u]; ++o) {
          if (dead_link[N * ni + o] || !g.serve[o].serves(y)) continue;
          const WireEnd t = g.out[o];
          good[u] = is_node_source(t) ? source_node(t) == y : good[t];
        }
        changed = changed || good[u];
      }
    }
    for (NodeId x = 0; x < N; ++x) {
      bool any = false;
      for (int q = 0; q < ni && !any; ++q) any = !dead_link[x * ni + q] && good[g.node_in[x * ni + q]];
      if (!any) return false;
    }
  }
  return true;
}

namespace {

// Per destination: for every router, the routes to y (all, and the shortest), by memoised search along
// serving wires. Loop-free routing makes the recursion terminate within a path's length.
struct RouteCounter {
  const NetworkGraph& g;
  NodeId y = 0;
  std::vector<int> stamp;
  std::vector<long long> paths, shortest;
  std::vector<int> hops;
  int now = 0;

  explicit RouteCounter(const NetworkGraph& net)
      : g(net),
        stamp(net.routers(), -1),
        paths(net.routers()),
        shortest(net.routers()),
        hops(net.routers()) {}

  void visit(RouterId u) {
    if (stamp[u] == now) return;
    stamp[u] = now;
    long long all = 0, best_count = 0;
    int best = std::numeric_limits<int>::max();
    for (int o = g.out_first[u]; o < g.out_first[u + 1]; ++o) {
      if (!g.serve[o].serves(y)) continue;
      const WireEnd t = g.out[o];
      long long p = 0, s = 0;
      int h = 0;
      if (is_node_source(t)) {
        if (source_node(t) != y) continue;
        p = s = 1;
      } else {
        visit(t);
        if (paths[t] == 0) continue;
        p = paths[t], s = shortest[t], h = hops[t];
      }
      all += p;
      if (h < best) best = h, best_count = 0;
      if (h == best) best_count += s;
    }
    paths[u] = all;
    shortest[u] = best_count;
    hops[u] = all > 0 ? best + 1 : 0;
  }

  PairPaths from(NodeId x) {
    PairPaths pp{0, std::numeric_limits<int>::max(), 0};
    for (int q = 0; q < g.node_inputs; ++q) {
      const RouterId v = g.node_in[static_cast<std::size_t>(x) * g.node_inputs + q];
      visit(v);
      if (paths[v] == 0) continue;
      pp.paths += paths[v];
      if (hops[v] < pp.hops) pp.hops = hops[v], pp.shortest = 0;
      if (hops[v] == pp.hops) pp.shortest += shortest[v];
    }
    if (pp.paths == 0) pp.hops = 0;
    return pp;
  }
};

}  // namespace

PairPaths pair_paths(const NetworkGraph& g, NodeId x, NodeId y) {
  RouteCounter rc(g);
  rc.y = y;
  rc.now = 0;
  return rc.from(x);
}

GraphPaths graph_paths(const NetworkGraph& g, int dest_stride) {
  GraphPaths gp;
  gp.min_paths = gp.min_shortest = std::numeric_limits<long long>::max();
  gp.min_hops = std::numeric_limits<int>::max();
  RouteCounter rc(g);
  for (NodeId y = 0; y < g.nodes; y += std::max(1, dest_stride)) {
    rc.y = y;
    ++rc.now;
    for (NodeId x = 0; x < g.nodes; ++x) {
      const PairPaths pp = rc.from(x);
      ++gp.pairs;
      gp.min_paths = std::min(gp.min_paths, pp.paths);
      gp.max_paths = std::max(gp.max_paths, pp.paths);
      gp.min_hops = std::min(gp.min_hops, pp.hops);
      gp.max_hops = std::max(gp.max_hops, pp.hops);
      gp.min_shortest = std::min(gp.min_shortest, pp.shortest);
      gp.max_shortest = std::max(gp.max_shortest, pp.shortest);
      if (static_cast<int>(gp.pairs_by_hops.size()) <= pp.hops) gp.pairs_by_hops.resize(pp.hops + 1, 0);
      ++gp.pairs_by_hops[pp.hops];
    }
  }
  return gp;
}

}  // namespace mppnet::machines::metro
