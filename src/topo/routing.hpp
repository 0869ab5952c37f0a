// topo/routing.hpp: the routing seam: what a route function sees and returns, and the Routing handle
// that binds one topology's routing policy with static dispatch.
//
// Contract: route() is called once per packet per router, when the head flit reaches the front of an
// input VC. It returns the candidate output ports (more than one only where the topology offers a free
// choice, e.g. fat-tree parents) and the range of output VCs the packet may use. The router picks among
// candidates (randomly among free ones, see net/); the topology decides only what is legal.
//
// A policy sees the packet's head (PacketHead): its destination and a per-packet routing
// word that it may set at the first router and read or rewrite at later ones (a source route consumed hop
// by hop, Valiant's intermediate group), plus a random value drawn for this packet at this router. The
// network fetches the word (and the source) only for policies that declare kNeedsHeader, so the others
// pay nothing for it.
//
// A RouteSet may say `multicast`: the packet goes out on *all* its ports, not one of them, and the router
// replicates it (net/router.cpp: all branches' VCs at once, every flit in lockstep). A policy that can
// return one declares kMayMulticast = true; the network then uses its general router.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <memory>
#include <utility>

#include "core/error.hpp"
#include "core/types.hpp"
#include "topo/graph.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

constexpr int kMaxRouteCandidates = 8;

struct SourceRoute;  // topo/source_route.hpp

// How the router chooses among several candidate ports of a route (a multicast takes them all).
enum class PortSelection {
  RandomFree,   // at random among the candidates with a usable output VC
  MostCredits,  // the candidate with a usable output VC whose channel has the most credits over the
                // route's VCs; ties at random
};

struct RouteSet {
  std::array<std::int16_t, kMaxRouteCandidates> ports{};
  std::uint8_t count = 0;
  std::uint8_t vc_lo = 0;  // allowed output VCs: [vc_lo, vc_hi]
  std::uint8_t vc_hi = 0;
  // All of `ports` at once (a multicast), not one of them; ports in increasing order, VCs [vc_lo, vc_hi]
  // on each. Only from a policy that declares kMayMulticast (docs/design.md, "Multicast").
  bool multicast = false;
};
static_assert(sizeof(RouteSet) == 20, "a RouteSet is kept per input VC by the general router");

// The common route: one port, output VCs [vc_lo, vc_hi].
inline RouteSet one_port(PortId port, int vc_lo, int vc_hi) noexcept {
  RouteSet rs;
  rs.ports[0] = static_cast<std::int16_t>(port);
  rs.count = 1;
  rs.vc_lo = static_cast<std::uint8_t>(vc_lo);
  rs.vc_hi = static_cast<std::uint8_t>(vc_hi);
  return rs;
}

// What a route function sees of the packet whose head it routes.
struct PacketHead {
  NodeId dest = -1;
  // The packet's routing word: 0 when the packet enters the network; what route() leaves here is what
  // the next router's route() sees. Only for policies with kNeedsHeader (others see 0).
  std::uint64_t header = 0;
  // A random value for this packet at this router: a hash of (run seed, packet, router, cycle), so it
  // does not depend on the order routers are visited. Only for policies with kNeedsHeader.
  std::uint64_t random = 0;
  // The packet's route bytes (topo/source_route.hpp), for policies with kNeedsSourceRoute; the header
  // word is then their cursor. Null for every other policy.
  const SourceRoute* source_route = nullptr;
};

// A routing policy: a value type with
//   static constexpr bool kNeedsHeader;   // whether route() reads or writes PacketHead::header/random
//   static constexpr bool kMayMulticast;  // optional (false if absent): whether route() may multicast
//   static constexpr bool kNeedsSourceRoute;  // optional (false if absent): whether route() reads
//                                             // PacketHead::source_route (requires kNeedsHeader)
//   PortSelection port_selection() const;  // optional (RandomFree if absent): how candidates are chosen
//   RouteSet route(RouterId, PortId in_port, VcId in_vc, PacketHead&) const noexcept;
//   int router_hops(NodeId src, NodeId dest) const;  // routers on the route (minimal choice)
//   bool uses_input_vc() const;  // whether route() depends on in_vc (else the network may memoise it)
template <class P>
concept RoutingPolicy = requires(const P& p, RouterId r, PortId port, VcId vc, PacketHead& head, NodeId v) {
  { P::kNeedsHeader } -> std::convertible_to<bool>;
  { p.route(r, port, vc, head) }
  noexcept->std::same_as<RouteSet>;
  { p.router_hops(v, v) } -> std::same_as<int>;
  { p.uses_input_vc() } -> std::same_as<bool>;
};

// A bound routing policy. Copying shares the policy (it is immutable once built).
class Routing {
 public:
  // The routing of `params`'s topology kind (topo/registry.cpp).
  // REQUIRES: check(params, vcs) is empty and `graph` was built from `params`. `vcs` is the VCs per port.
  Routing(const TopologyParams& params, const Graph& graph, int vcs);

  // Any policy, bound with static dispatch: route() is one call through a function pointer to
  // call_route<P>, in which P::route is inlined; no virtual call and no allocation per packet.
  template <RoutingPolicy P>
  static Routing bind(P policy, int vcs) {
    Routing r;
    auto owned = std::make_shared<const P>(std::move(policy));
    r.self_ = owned.get();
    r.owner_ = std::move(owned);
    r.route_ = &call_route<P>;
    r.hops_ = &call_hops<P>;
    r.vcs_ = vcs;
    r.needs_header_ = P::kNeedsHeader;
    if constexpr (requires { P::kMayMulticast; }) r.may_multicast_ = P::kMayMulticast;
    if constexpr (requires { P::kNeedsSourceRoute; }) {
      static_assert(!P::kNeedsSourceRoute || P::kNeedsHeader, "a source route's cursor is the header word");
      r.needs_source_route_ = P::kNeedsSourceRoute;
    }
    if constexpr (requires(const P& p) { p.port_selection(); })
      r.port_selection_ = static_cast<const P*>(r.self_)->port_selection();
    r.uses_input_vc_ = static_cast<const P*>(r.self_)->uses_input_vc();
    return r;
  }

  // Route the packet `head` that arrived at `router` on input port `in_port` and VC `in_vc`. A packet
  // entering from its node arrives on the port its node link attaches to.
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept {
    return route_(self_, router, in_port, in_vc, head);
  }
  // The same for a policy that reads no header. REQUIRES: !needs_header().
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, NodeId dest) const noexcept {
    MPPNET_ASSERT(!needs_header_, "this routing reads the packet header: call route() with a PacketHead");
    PacketHead head{.dest = dest};
    return route_(self_, router, in_port, in_vc, head);
  }

  int vcs() const { return vcs_; }  // the VCs per port this routing was built for
  // Whether route() reads or writes the packet's header (then the network passes it, and does not
  // memoise routes).
  bool needs_header() const { return needs_header_; }
  // Whether route() reads the packet's route bytes (then the network keeps a SourceRoute per packet and
  // packets are injected with one).
  bool needs_source_route() const { return needs_source_route_; }
  // Whether route() may return a multicast set (then the network replicates, on its general router).
  bool may_multicast() const { return may_multicast_; }
  // How the router chooses among a route's candidate ports.
  PortSelection port_selection() const { return port_selection_; }
  // Whether route() depends on the input VC (a torus's dateline classes); otherwise a route is a
  // function of (router, input port, destination, header) alone, which callers may remember.
  bool uses_input_vc() const { return uses_input_vc_; }

  // Routers a packet from src to dest passes through under this routing (all choices minimal; a
  // Valiant dragonfly's packets take more, see topo/dragonfly.hpp).
  int router_hops(NodeId src, NodeId dest) const { return hops_(self_, src, dest); }

  // Minimum VCs per port this routing needs to be deadlock-free (2 for a torus: dateline classes).
  static int min_vcs(const TopologyParams& params);

 private:
  using RouteFn = RouteSet (*)(const void*, RouterId, PortId, VcId, PacketHead&) noexcept;
  using HopsFn = int (*)(const void*, NodeId, NodeId);
  Routing() = default;

  template <class P>
  static RouteSet call_route(const void* self, RouterId r, PortId in_port, VcId in_vc,
                             PacketHead& head) noexcept {
    return static_cast<const P*>(self)->route(r, in_port, in_vc, head);
  }
  template <class P>
  static int call_hops(const void* self, NodeId src, NodeId dest) {
    return static_cast<const P*>(self)->router_hops(src, dest);
  }

  std::shared_ptr<const void> owner_;
  const void* self_ = nullptr;
  RouteFn route_ = nullptr;
  HopsFn hops_ = nullptr;
  int vcs_ = 0;
  bool needs_header_ = false;
  bool uses_input_vc_ = false;
  bool may_multicast_ = false;
  bool needs_source_route_ = false;
  PortSelection port_selection_ = PortSelection::RandomFree;
};

}  // namespace mppnet::topo
