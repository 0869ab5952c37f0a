// machines/cs2/channel_load.hpp: static channel loads of a CS-2 layer: routes followed byte by byte on
// the built graph, the load each switch output carries under a traffic permutation and a route choice,
// the destinations each down-channel serves, and the links a bisection cuts.
//
// These are the structural halves of note 003's R7-R10 (Meiko, "CS-2 Communications Network Overview",
// 1993, §2 bisection L80-L81, §3 L400-L427): a channel's load is the number of flows whose route uses it,
// so a permutation with maximum load 1 passes without contention, and a flow's share of a link under
// contention is at best 1 / load.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "machines/cs2/elite_topology.hpp"
#include "machines/cs2/routes.hpp"
#include "topo/graph.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {

// Follows `route` from PE src's link through `g`: each switch takes one byte, which must name one output
// port leading somewhere. Calls on_channel(global port index) for each switch output used. Returns the PE
// reached, or -1 when the route breaks (a range byte, a port to nothing, bytes left over or missing).
template <class OnChannel>
NodeId follow_route(const topo::Graph& g, NodeId src, const topo::SourceRoute& route,
                    OnChannel&& on_channel) {
  RouterId r = g.node_links[src].router;
  for (int i = 0; i < route.length; ++i) {
    const auto b = topo::decode_route_byte(route.bytes[i]);
    if (!b || b->is_range() || b->lo >= g.num_ports(r)) return -1;
    const int channel = g.port_base[r] + b->lo;
    const topo::PortLink& link = g.ports[channel];
    on_channel(channel);
    if (link.kind == topo::PeerKind::Node) return i + 1 == route.length ? link.peer : -1;
    if (link.kind != topo::PeerKind::Router) return -1;
    r = link.peer;
  }
  return -1;
}

struct Flow {
  std::int64_t src = 0;
  std::int64_t dest = 0;
};

enum class Permutation { Shift, Xor, BitReversal, Transpose };

// The flows of a permutation on the complete network's addresses, kept where both ends exist:
// Shift x -> (x + c) mod N, Xor x -> x ^ c, BitReversal (size bits reversed), Transpose (the high and
// low size/2 bits swapped; REQUIRES an even size).
std::vector<Flow> permutation_flows(const LayerShape& shape, Permutation p, std::int64_t c = 0);

// A permutation of all the layer's PEs drawn uniformly from `seed` (Fisher-Yates).
std::vector<Flow> random_permutation_flows(const LayerShape& shape, std::uint64_t seed);

using RouteOf = std::function<topo::SourceRoute(std::int64_t src, std::int64_t dest)>;

// Flows through each switch output (indexed by g.port_base[r] + p). Asserts that every route reaches its
// destination: the routes module and the graph must agree.
std::vector<std::int32_t> channel_loads(const topo::Graph& g, std::span<const Flow> flows,
                                        const RouteOf& route);

// The largest load among `loads`.
std::int32_t max_load(std::span<const std::int32_t> loads);

// The route x -> d under DEST (alternative 0).
RouteOf dest_routes(const LayerShape& shape, Turn turn);

// Over all pairs of existing PEs under DEST: the most distinct destinations any down-channel (a down
// port of a switch, to a switch or a PE) serves. 1 is the Omega property of note §4.5.
int max_destinations_per_down_channel(const LayerShape& shape, const topo::Graph& g, Turn turn);

// Links between switches (or a switch and a PE) that a balanced cut crosses: PEs below the middle of the
// complete network's top address digit on one side (a lower stage switch with its subtree; every top
// switch on the low side, or with its half when back to back). Counted once per link.
std::int64_t bisection_links(const LayerShape& shape, const topo::Graph& g);

const char* permutation_name(Permutation p);

}  // namespace mppnet::machines::cs2
