// machines/metro/metro_network.hpp: any METRO network: one of the three topologies' parameter structs.
//
// Each topology has its own parameters (multibutterfly.hpp, fat_tree.hpp); studies that run on all of
// them (yield) take a MetroNetwork and dispatch once, at build time.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "machines/metro/fat_tree.hpp"
#include "machines/metro/multibutterfly.hpp"
#include "machines/metro/network_graph.hpp"

namespace mppnet::machines::metro {

// In the order of Topology, so that index() is the topology.
using MetroNetwork = std::variant<MultibutterflyParams, MetroFatTreeParams, HybridFatTreeParams>;

Topology topology_of(const MetroNetwork& n);

std::vector<Problem> check(const MetroNetwork& n);
long long network_nodes(const MetroNetwork& n);
std::string describe(const MetroNetwork& n);

// Any topology as a graph: the multibutterfly instance (seed, instance) through to_graph(), or the tree
// (trees are deterministic: seed and instance do not matter). REQUIRES: check(n).empty().
NetworkGraph build_network_graph(const MetroNetwork& n, std::uint64_t seed, int instance);

}  // namespace mppnet::machines::metro
