// machines/metro/network_graph.hpp: a METRO network as a plain router graph with a routing rule per wire.
//
// The multibutterfly (multibutterfly.hpp) has strict stages and classes; the fat trees of §3.5.6-3.5.7
// (fat_tree.hpp) do not. Both can be written as this graph: routers, wires between routers, node ports
// into routers and router outputs into nodes, plus, for every router output, the destinations a router
// may send along it (its logical direction). The routing rule must be loop-free for every destination:
// following only wires that serve y never returns to a router (the builders guarantee it; a cluster's
// first stage, for instance, sends up into the tree only for destinations outside the cluster).
// Completeness (graph_completeness.hpp), path counts and hop counts (below) work on any such graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/metro/completeness.hpp"
#include "machines/metro/metro_ids.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro {

// The destinations a wire serves: y with lo <= y < hi, or, when `outside`, every other y.
struct DestRange {
  NodeId lo = 0;
  NodeId hi = 0;
  bool outside = false;
  bool serves(NodeId y) const { return (lo <= y && y < hi) != outside; }
};

struct NetworkGraph {
  int nodes = 0;        // N
  int node_inputs = 0;  // ni: ports per node into the network
  // node_in[x*ni + q]: the router that node x's port q feeds (ports of one node may share a router).
  std::vector<RouterId> node_in;
  // Router u's outputs: out[out_first[u] + port] is a router, or node_source(y) for delivery to node y;
  // serve[...] the destinations routed along it.
  std::vector<int> out_first;
  std::vector<WireEnd> out;
  std::vector<DestRange> serve;
  // Router u's inputs: in[in_first[u] + slot] is a router or node_source(x); in_link[...] the link id
  // of that wire (see link numbering below).
  std::vector<int> in_first;
  std::vector<WireEnd> in;
  std::vector<LinkId> in_link;
  // Destinations router u serves at all: [reach_lo[u], reach_hi[u]), the union of its outputs' ranges.
  std::vector<NodeId> reach_lo, reach_hi;
  // A label per router ("up level 1", "down height 2", ...) for component counts: an index into role_names.
  std::vector<int> role;
  std::vector<std::string> role_names;
  // Packages (the fault unit).
  std::vector<PackageId> package_of;
  std::vector<std::vector<RouterId>> package_routers;

  int routers() const { return static_cast<int>(out_first.size()) - 1; }
  int packages() const { return static_cast<int>(package_routers.size()); }
  // Links: node input links first (x*ni + q), then every router output in order (N*ni + out index).
  int links() const { return nodes * node_inputs + static_cast<int>(out.size()); }
  // Routers with role `name`; 0 if there is no such role.
  int count_role(const std::string& name) const;
};

// Incrementally built: add routers, then wires, then finish() fills inputs, link ids and reach.
class GraphBuilder {
 public:
  GraphBuilder(int nodes, int node_inputs);
  RouterId add_router(int role, int outputs, int inputs);
  int add_role(std::string name);  // returns the role's index
  // Output `port` of router `from` goes to input `slot` of router `to`, serving `range`.
  void wire(RouterId from, PortId port, RouterId to, PortId slot, DestRange range);
  void deliver(RouterId from, PortId port, NodeId node);  // output to node, serving just that node
  void node_port(NodeId node, PortId q, RouterId to, PortId slot);
  // Each router its own package.
  NetworkGraph finish();

 private:
  NetworkGraph g_;
  std::vector<int> in_count_;
};

// The multibutterfly as a graph: a router serves its class's destinations, its packages are kept. Used to
// check the graph tracker against the multibutterfly tracker.
NetworkGraph to_graph(const Multibutterfly& net);

int fault_unit_count(const NetworkGraph& g, FaultUnit unit);

// Reference completeness: for every destination, the routers that still reach it by serving wires
// (a fixpoint), then every node's ports. For tests only.
bool complete_by_search(const NetworkGraph& g, const std::vector<std::uint8_t>& faulty_router,
                        const std::vector<std::uint8_t>& dead_link);

// Paths per ordered pair (x, y), x = y included, counted along serving wires: all routes, and the
// shortest ones (fewest routers). `dest_stride` > 1 looks only at destinations 0, stride, 2*stride, ...
struct GraphPaths {
  long long pairs = 0;
  long long min_paths = 0, max_paths = 0;        // all routes
  int min_hops = 0, max_hops = 0;                // routers on a shortest route
  long long min_shortest = 0, max_shortest = 0;  // number of shortest routes
  std::vector<long long> pairs_by_hops;          // index h: pairs whose shortest route has h routers
};
GraphPaths graph_paths(const NetworkGraph& g, int dest_stride = 1);

// Paths, hops and shortest routes of one pair (for tests).
struct PairPaths {
  long long paths = 0;
  int hops = 0;
  long long shortest = 0;
};
PairPaths pair_paths(const NetworkGraph& g, NodeId x, NodeId y);

}  // namespace mppnet::machines::metro
