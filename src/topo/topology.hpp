// topo/topology.hpp: what one topology registers: its name, keys, check, builder, sizes and routing.
//
// Each topology is one file pair in topo/ (k_ary_n_cube, hypercube, fat_tree, dragonfly) whose header
// defines `inline constexpr TopologyInfo k<Name>Topology`; the build finds those definitions and
// generates the list (CMakeLists.txt, "Topologies"), so registering one edits no other file.
// check(), build(), node_count(), max_router_hops() and Routing's constructor look the kind up by name;
// nothing switches on it. docs/design.md, "Add a topology", walks through adding one.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

struct TopologyKey;

struct TopologyInfo {
  const char* name;     // the config spelling of topology.kind
  const char* summary;  // one line for `mppnet list topologies`: the shape, its routing, its keys
  // The [topology] keys it reads (topo/topology_keys.hpp), with their defaults.
  std::vector<TopologyKey> (*keys)();
  // Appends every reason `p` cannot be built (VC counts aside: the central check() asks min_vcs).
  void (*check)(const TopologyParams& p, std::vector<Problem>& out);
  // REQUIRES: check(p) found nothing.
  Graph (*build)(const TopologyParams& p);
  // Nodes the topology would have; never overflows (saturates at kSaturated, rejected values count as 0).
  long long (*node_count)(const TopologyParams& p);
  // Router ports the topology would have, node ports included (saturating): what sizes the network's
  // buffers, for the memory estimate made before anything is built. REQUIRES: check(p) found nothing.
  long long (*port_count)(const TopologyParams& p);
  // Routers on the longest route. REQUIRES: check(p) found nothing.
  int (*max_router_hops)(const TopologyParams& p);
  // VCs per port the routing needs to be deadlock-free, and why when more than one ("a torus needs at
  // least 2 VCs per port for its dateline classes"; nullptr: the generic "a router needs at least N").
  int (*min_vcs)(const TopologyParams& p);
  const char* (*min_vcs_reason)(const TopologyParams& p);
  // REQUIRES: check(p) found nothing, vcs >= min_vcs(p), `g` was built from `p`.
  Routing (*routing)(const TopologyParams& p, const Graph& g, int vcs);
  // Whether routing(p, ...) may return multicast sets (Routing::may_multicast), known before building
  // it, for the models that cannot replicate; nullptr: never.
  bool (*may_multicast)(const TopologyParams& p) = nullptr;
};

// Every registered topology, by name.
std::span<const TopologyInfo* const> topologies();
// The topology named `name`, or nullptr.
const TopologyInfo* find_topology(std::string_view name);
// REQUIRES: `name` is registered (check_kind_and_keys says so).
const TopologyInfo& topology(std::string_view name);

}  // namespace mppnet::topo
