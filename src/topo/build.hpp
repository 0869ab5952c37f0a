// topo/build.hpp: checking and building any registered topology (topo/topology.hpp).
#pragma once

#include <string>
#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

// Limits that check() enforces. Nodes and routers are capped so that every id, port index and port
// count fits an int32 with room to spare (at most 16 ports per fat-tree router: 2^24 * 16 = 2^28).
constexpr long long kMaxNodes = 1LL << 22;
constexpr long long kMaxRouters = 1LL << 24;
constexpr int kMaxHypercubeDimensions = 20;
constexpr int kMaxChildren = 8;     // fat-tree down-links per router
constexpr int kMaxParents = 8;      // fat-tree up-links per router: route() offers all of them at once
constexpr int kMaxLeafLinks = 8;    // network links per fat-tree node
constexpr int kMaxVcsPerPort = 64;  // the network keeps a port's VCs in 64-bit masks (net/network.hpp)

// Every reason `p` cannot be built; empty when it can: an unknown kind, a key the kind does not read,
// the kind's own checks, too few or too many VCs. `vcs` is the router's VCs per port.
std::vector<Problem> check(const TopologyParams& p, int vcs);

// REQUIRES: check(p, vcs).empty().
Graph build(const TopologyParams& p);

// Nodes the topology would have (for checks elsewhere, e.g. traffic patterns that need 2^m nodes).
// Never overflows: a count beyond long long saturates at kSaturated (topo/saturating.hpp), and values
// that check() rejects (k < 0, n < 0) count as 0 routers per dimension / 0 dimensions.
long long node_count(const TopologyParams& p);
// Router ports, node ports included (saturating). REQUIRES: check(p) is empty.
long long port_count(const TopologyParams& p);

// Routers on the longest route (REQUIRES: check(p, ...) is empty): the diameter in routers.
int max_router_hops(const TopologyParams& p);

// Whether the routing of `p` may replicate packets (a path multicast), which the packet-level model
// does not model. REQUIRES: check(p, ...) is empty.
bool may_multicast(const TopologyParams& p);

// For the topologies' own checks: `nodes` as text ("more than ..." once saturated), and a problem on
// `key` when `nodes` exceeds kMaxNodes.
std::string count_text(long long v);
void check_node_count(long long nodes, const char* key, const std::string& what, std::vector<Problem>& out);

}  // namespace mppnet::topo
