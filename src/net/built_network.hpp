// net/built_network.hpp: a topology built, routed and wired into a network model, in one object.
//
// Every driver (open-loop experiments, node programs, validation) starts from the same three steps:
// build the graph, build its routing for the VCs of one virtual network, make the network. They are
// written here once, in the order their references require.
#pragma once

#include <cstdint>

#include <memory>

#include "net/network.hpp"
#include "net/packet_network.hpp"
#include "net/router_params.hpp"
#include "topo/build.hpp"
#include "topo/graph.hpp"
#include "topo/routing.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::net {

struct BuiltNetwork {
  // The model is router.model's: the flit-level Network or the packet-level PacketNetwork.
  // REQUIRES: topo::check(topology, router.vcs_per_vnet()) is empty.
  BuiltNetwork(const topo::TopologyParams& topology, const RouterParams& router, std::uint64_t seed)
      : graph(topo::build(topology)),
        routing(topology, graph, router.vcs_per_vnet()),
        model(make_model(graph, routing, router, seed)),
        network(*model) {}
  BuiltNetwork(const BuiltNetwork&) = delete;
  BuiltNetwork& operator=(const BuiltNetwork&) = delete;

  static std::unique_ptr<NetworkModel> make_model(const topo::Graph& graph, const topo::Routing& routing,
                                                  const RouterParams& router, std::uint64_t seed) {
    if (router.model == NetworkModelKind::Packet)
      return std::make_unique<PacketNetwork>(graph, routing, router, seed);
    return std::make_unique<Network>(graph, routing, router, seed);
  }
  // The flit-level network, for what only it offers (test modes, credit checks). REQUIRES: the model is
  // the flit-level one.
  Network& flit() { return static_cast<Network&>(network); }

  topo::Graph graph;
  topo::Routing routing;
  std::unique_ptr<NetworkModel> model;
  NetworkModel& network;
};

}  // namespace mppnet::net
