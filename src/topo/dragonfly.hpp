// topo/dragonfly.hpp: the dragonfly (Kim, Dally, Scott, Abts, "Technology-Driven, Highly-Scalable
// Dragonfly Topology", ISCA 2008): parameters, wiring, minimal and Valiant routing, and the registration
// (kDragonflyTopology).
//
// p nodes per router, a routers per group, h global links per router, and g = a * h + 1 groups: the
// maximal dragonfly, one global link between each pair of groups (§3.1). Smaller g would need parallel
// links between some pairs of groups and a rule to spread them; we require the maximal g.
//
// Ids: router r = G * a + i (group G, index i in the group); node v = r * p + j on router port j.
// Ports of every router: [0, p) its nodes; [p, p + a - 1) local links to the other routers of its group
// (the one to router j at p + j for j < i, p + j - 1 for j > i); [p + a - 1, p + a - 1 + h) its global
// links. Global links are arranged "absolutely" (consecutively): group G numbers its a * h global links
// t = i * h + c (router i, its c-th global port), and link t goes to group t if t < G, else t + 1. So
// the routers of a group reach the other groups in increasing order, and group G reaches group G' on
// link t = G' - (G' > G), which G' reaches back on link G - (G > G').
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "topo/graph.hpp"
#include "topo/problem.hpp"
#include "topo/routing.hpp"
#include "topo/topology.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

// How a dragonfly routes (Kim, Dally, Scott, Abts, ISCA 2008, §4).
enum class DragonflyRouting {
  Minimal,  // local hop, global hop, local hop
  Valiant,  // minimal to a random intermediate group, then minimal to the destination
};

struct DragonflyParams {
  int p = 2;                                             // nodes per router (topology.dragonfly_p)
  int a = 4;                                             // routers per group (topology.dragonfly_a)
  int h = 2;                                             // global links per router (topology.dragonfly_h)
  DragonflyRouting routing = DragonflyRouting::Minimal;  // topology.dragonfly_routing

  int groups() const { return a * h + 1; }
  int routers() const { return a * groups(); }
  int nodes() const { return p * routers(); }
  int ports() const { return p + a - 1 + h; }
  int group_of(RouterId r) const { return r / a; }
  int index_of(RouterId r) const { return r % a; }
  PortId local_port(int from, int to) const { return p + (to < from ? to : to - 1); }
  PortId global_port(int c) const { return p + a - 1 + c; }
  // The global link index (t = i * h + c) of group `from` that leads to group `to`. REQUIRES: from != to.
  int link_to(int from, int to) const { return to - (to > from ? 1 : 0); }
};
DragonflyParams dragonfly_params(const TopologyParams& p);
TopologyParams topology_of(const DragonflyParams& p);

// REQUIRES: the parameters pass check_dragonfly.
Graph build_dragonfly(const DragonflyParams& p);

// Routers on the minimal route from router `from` to router `to`: 1 (same router), 2 (same group), 3 or 4
// (another group: one more when the global link is not on the source router, one more when it does not
// land on the destination router).
int dragonfly_minimal_routers(const DragonflyParams& p, RouterId from, RouterId to);

// Routers on the route from router `from` to router `to` through group `via` (a Valiant route; minimal
// when `via` is either end's group), found by following the graph's own global links rather than the
// arrangement's formulas: the reference that tests and validation compare the routing with.
int dragonfly_routers_via(const Graph& g, const DragonflyParams& p, RouterId from, RouterId to, int via);

// Channel loads under uniform traffic (each node sends to the N - 1 others equally), per unit injection
// rate, on the busiest channel of each kind; the throughput bound is 1 / the largest (Dally & Towles 2004
// §3.3). Derivation in docs/validation.md, "Dragonfly saturation bound".
struct DragonflyUniformLoad {
  double terminal = 1;  // injection and ejection channels
  double local = 0;
  double global = 0;
  double bound() const;  // flits/node/cycle
};
DragonflyUniformLoad dragonfly_uniform_load(const DragonflyParams& p);

// p, a and h each at most this: a router's ports (p + a - 1 + h) stay below net's 8-bit port numbers.
constexpr int kMaxDragonflyParam = 64;

// Minimal routing (§4.1): local hop to the router that owns the global link to the destination group,
// the global hop, a local hop to the destination router. VC classes on local channels: class 0 before
// the global hop, class 1 after it (local ports split their VCs in 2); global channels use every VC.
// A packet's channels then follow local0 -> global -> local1 -> node, which closes no cycle.
class DragonflyMinimalRouting {
 public:
  static constexpr bool kNeedsHeader = false;
  // REQUIRES: vcs >= 2 (the two local classes).
  DragonflyMinimalRouting(const DragonflyParams& p, int vcs) : p_(p), vcs_(vcs) {
    MPPNET_ASSERT(vcs >= 2, "minimal dragonfly routing needs 2 VCs per port");
  }
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept;
  int router_hops(NodeId src, NodeId dest) const {
    return dragonfly_minimal_routers(p_, src / p_.p, dest / p_.p);
  }
  bool uses_input_vc() const { return false; }

 private:
  DragonflyParams p_;
  int vcs_;
};

// Valiant routing (§4.2): at its source router a packet draws an intermediate group I uniformly among all
// g groups (from PacketHead::random, a hash of the run seed, the packet, the router and the cycle) and
// keeps it in its header; it goes minimally to I, then minimally to its destination. When I is its own
// group or the destination's, the route is the minimal one. VC classes: the class of a hop is the number
// of global hops the packet has taken so far (kept in the header): local channels have 3 classes, global
// channels 2. Within one class a packet takes at most one local hop and then a global hop (which raises
// the class) or leaves for its node, so every dependency goes from a class to the same class's global
// channels or to a higher class: no cycle.
class DragonflyValiantRouting {
 public:
  static constexpr bool kNeedsHeader = true;
  // REQUIRES: vcs >= 3 (the three local classes).
  DragonflyValiantRouting(const DragonflyParams& p, int vcs) : p_(p), vcs_(vcs) {
    MPPNET_ASSERT(vcs >= 3, "Valiant dragonfly routing needs 3 VCs per port");
  }
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept;
  // The minimal count; a Valiant route's depends on its intermediate group (dragonfly_routers_via).
  int router_hops(NodeId src, NodeId dest) const {
    return dragonfly_minimal_routers(p_, src / p_.p, dest / p_.p);
  }
  bool uses_input_vc() const { return false; }

 private:
  DragonflyParams p_;
  int vcs_;
};

// The header word of Valiant routing: bits 0-31 the intermediate group + 1 (0: not drawn yet), bit 32 set
// once the packet has reached it, bits 40-47 the global hops taken.
constexpr int valiant_intermediate(std::uint64_t header) {
  return static_cast<int>(header & 0xffffffffu) - 1;
}
constexpr bool valiant_reached(std::uint64_t header) {
  return ((header >> 32) & 1) != 0;
}
constexpr int valiant_global_hops(std::uint64_t header) {
  return static_cast<int>((header >> 40) & 0xff);
}

std::vector<TopologyKey> dragonfly_keys();
void check_dragonfly(const TopologyParams& p, std::vector<Problem>& out);
Graph build_dragonfly_topology(const TopologyParams& p);
long long dragonfly_node_count(const TopologyParams& p);
long long dragonfly_port_count(const TopologyParams& p);
int dragonfly_max_router_hops(const TopologyParams& p);
int dragonfly_min_vcs(const TopologyParams& p);
const char* dragonfly_min_vcs_reason(const TopologyParams& p);
Routing dragonfly_routing(const TopologyParams& p, const Graph& g, int vcs);

inline constexpr TopologyInfo kDragonflyTopology{
    .name = "dragonfly",
    .summary =
        "groups of a fully connected routers, one global link between each pair of a * h + 1 groups; minimal "
        "(2 VCs) or Valiant (3 VCs) routing (topology.dragonfly_*)",
    .keys = dragonfly_keys,
    .check = check_dragonfly,
    .build = build_dragonfly_topology,
    .node_count = dragonfly_node_count,
    .port_count = dragonfly_port_count,
    .max_router_hops = dragonfly_max_router_hops,
    .min_vcs = dragonfly_min_vcs,
    .min_vcs_reason = dragonfly_min_vcs_reason,
    .routing = dragonfly_routing,
};

}  // namespace mppnet::topo
