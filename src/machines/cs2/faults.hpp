// machines/cs2/faults.hpp: the links of a CS-2 layer that [faults] names (a link with byte errors, a
// failed link), what a route crosses of them, and routes rebuilt around a failed link.
//
// Source: Meiko, "CS-2 Communications Network Overview" (1993), L94-L97 and L378-L381 (a CRC on each
// link, checked at each switch; on a failure the message is aborted, an error count incremented and the
// packet negatively acknowledged; failed transmissions are not committed but resent; defective links can
// be removed from service) and reference note 003 §2.11, §4.4, §5 R13, §6 #13 and #21. A link is named by its
// switch end as Meiko names the switch (naming.hpp): [layer, stage, network identifier, plane, port].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cs2/config.hpp"
#include "machines/cs2/elite_topology.hpp"
#include "machines/cs2/routes.hpp"
#include "topo/graph.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {

// One link of a layer, both directions. Inputs are indexed as net::Network::input_errors() counts them.
struct LinkRef {
  int layer = -1;  // -1: no link
  RouterId router = -1;
  PortId port = -1;
  std::int32_t out_down = -1;  // global port of the named switch's output on the link
  std::int32_t out_back = -1;  // global port of the peer switch's output on it, or -1 if the peer is a PE
  NodeId pe = -1;              // the PE at the other end, or -1
  std::int32_t in_far = -1;    // the input that receives what the named switch sends on the link
  std::int32_t in_near = -1;   // the named switch's input on the link
  bool valid() const { return layer >= 0; }
};

// "" when `v` is empty or names a link that exists in a layer of `c`, else why not.
std::string link_problem(const Cs2Config& c, const LayerShape& shape, const topo::Graph& g,
                         const std::vector<int>& v);
// The link `v` names, or an invalid LinkRef for an empty `v`. REQUIRES: link_problem(...) == "".
LinkRef resolve_link(const LayerShape& shape, const topo::Graph& g, const std::vector<int>& v);

// The [faults] checks of check_cs2: each link exists; a byte error rate has a link to act on; a failed
// PE link leaves the PE another layer.
void check_faults(const Cs2Config& c, const LayerShape& shape);

// Refuses the [faults] keys that `command` cannot honour: byte errors when `resend_hint` is not null (it
// says why nothing resends, and how to make something resend), and, when the command's senders pick
// their layer themselves (`picks_layers`), a failed PE link, which would leave a PE without a route on
// the layer it picks.
void refuse_unsupported_faults(const Cs2Config& c, const char* command, bool picks_layers,
                               const char* resend_hint);

// The input that first receives a byte of `route` from src after it crossed `link` (either direction),
// or -1 when the route does not cross it. The PE's own link counts: src's first, the destination's last.
std::int32_t crossing_input(const topo::Graph& g, NodeId src, const topo::SourceRoute& route,
                            const LinkRef& link);

// A route x -> d in one layer that does not cross `failed`: the first of the up-port choices, counted
// from DEST's choices shifted by `alt` in the lowest digit, whose route avoids it (note 003 §4.4: the Elan's
// tables are rewritten around a failed link; the switches hold no tables, L387-L390). Length 0
// when none does: the failed link is x's or d's own.
topo::SourceRoute route_avoiding(const LayerShape& shape, const topo::Graph& g, NodeId x, NodeId d, Turn turn,
                                 int alt, const LinkRef& failed);

}  // namespace mppnet::machines::cs2
