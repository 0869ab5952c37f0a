// machines/cs2/rearrange.hpp: routes that carry a whole permutation through one CS-2 layer without two
// flows on any channel, the "full crosspoint" the document says the network can match if routes are
// allocated without contention (Meiko, "CS-2 Communications Network Overview", 1993, ch. 3, L400-L402;
// ch. 1, L46-L48: n PEs running n transfers at full bandwidth).
//
// The bottom stage, the four sub-networks above it that its up-ports 0..3 lead into, and the bottom
// stage again (the network folded) form a three-stage Clos network with 4 middle switches and 4 ports
// per edge switch, which is rearrangeable; each sub-network is itself a layer one stage shorter whose
// leaves are the bottom switches (note 003 §4.6, a derivation). So: the flows make a 4-regular bipartite
// multigraph between source and destination bottom switches; split it into 4 perfect matchings
// (augmenting paths; a regular bipartite graph always has one, by Hall's theorem), give the flows of
// matching c up-port c, and do the same inside each sub-network one stage up. Every flow climbs to the
// top (Turn::Top) on the up-ports found.
#pragma once

#include <span>
#include <vector>

#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/elite_topology.hpp"

namespace mppnet::machines::cs2 {

// The up-ports (stages() - 1 of them, each 0..3) of every flow, in the order of `flows`, for routes to
// the top that share no channel. REQUIRES: a complete layer of even size (shape.pes() == capacity(),
// not odd) and `flows` a permutation of all its PEs (throws std::invalid_argument otherwise).
std::vector<std::vector<int>> rearranged_ups(const LayerShape& shape, std::span<const Flow> flows);

// The routes of rearranged_ups as a RouteOf for channel_loads (looks a flow up by its source).
RouteOf rearranged_routes(const LayerShape& shape, std::span<const Flow> flows);

}  // namespace mppnet::machines::cs2
