// net/built_network.hpp: a topology built, routed and wired into a flit-level network, in one object.
//
// Every driver (open-loop experiments, node programs, validation) starts from the same three steps:
// build the graph, build its routing for the VCs of one virtual network, make the network. They are
// written here once, in the order their references require.
#pragma once

#include <cstdint>

#include "net/network.hpp"
#include "net/router_params.hpp"
#include "topo/build.hpp"
#include "topo/graph.hpp"
#include "topo/routing.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::net {

struct BuiltNetwork {
  // REQUIRES: topo::check(topology, router.vcs_per_vnet()) is empty.
  BuiltNetwork(const topo::TopologyParams& topology, const RouterParams& router, std::uint64_t seed)
      : graph(topo::build(topology)),
        routing(topology, graph, router.vcs_per_vnet()),
        network(graph, routing, router, seed) {}
  BuiltNetwork(const BuiltNetwork&) = delete;
  BuiltNetwork& operator=(const BuiltNetwork&) = delete;

  topo::Graph graph;
  topo::Routing routing;
  Network network;
};

}  // namespace mppnet::net
