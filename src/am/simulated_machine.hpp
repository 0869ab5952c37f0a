// am/simulated_machine.hpp: a network built from topology and router params, with its am::Machine.
#pragma once

#include <cstdint>

#include "am/am_params.hpp"
#include "am/machine.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/routing.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::am {

// The router's virtual channels with am's virtual networks set: 2 when requests and replies are
// separate, else 1. The routing sees vcs / vnets VCs per network.
inline net::RouterParams with_vnets(net::RouterParams r, const AmParams& a) {
  r.vnets = a.separate_vnets ? 2 : 1;
  return r;
}

// Owns everything a run needs, built in dependency order. REQUIRES: topo::check(topology, vcs / vnets)
// is empty.
struct SimulatedMachine {
  SimulatedMachine(const topo::TopologyParams& topology, const net::RouterParams& router, const AmParams& am,
                   std::uint64_t seed, std::int64_t watchdog_cycles = 5000)
      : graph(topo::build(topology)),
        router_params(with_vnets(router, am)),
        routing(topology, graph, router_params.vcs / router_params.vnets),
        network(graph, routing, router_params, seed),
        machine(network, am, watchdog_cycles) {}

  topo::Graph graph;
  net::RouterParams router_params;
  topo::Routing routing;
  net::Network network;
  Machine machine;
};

}  // namespace mppnet::am
