// topo/routing.hpp: the routing functions of the built-in topologies, one switch on a small enum.
//
// Contract: route() is called once per packet per router, when the head flit reaches the front of an
// input VC. It returns the candidate output ports (more than one only where the topology offers a free
// choice, e.g. fat-tree parents) and the range of output VCs the packet may use. The router picks among
// candidates (randomly among free ones, see net/); the topology decides only what is legal.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "topo/graph.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

constexpr int kMaxRouteCandidates = 8;

struct RouteSet {
  std::array<std::int16_t, kMaxRouteCandidates> ports{};
  std::uint8_t count = 0;
  std::uint8_t vc_lo = 0;  // allowed output VCs: [vc_lo, vc_hi]
  std::uint8_t vc_hi = 0;
};

class Routing {
 public:
  // REQUIRES: check(params) is empty and `graph` was built from `params`. `vcs` is the VCs per port.
  Routing(const TopologyParams& params, const Graph& graph, int vcs);

  // Route a packet for `dest` that arrived at `router` on input port `in_port` and VC `in_vc`.
  // A packet entering from its node arrives on the port its node link attaches to.
  RouteSet route(RouterId router, PortId in_port, VcId in_vc, NodeId dest) const noexcept;

  int vcs() const { return vcs_; }  // the VCs per port this routing was built for
  // Whether route() depends on the input VC (a torus's dateline classes); otherwise a route is a
  // function of (router, input port, destination) alone, which callers may remember.
  bool uses_input_vc() const { return params_.kind == TopologyKind::Torus && params_.dateline; }

  // Routers a packet from src to dest passes through under this routing (all choices minimal).
  int router_hops(NodeId src, NodeId dest) const;

  // Minimum VCs per port this routing needs to be deadlock-free (2 for a torus: dateline classes).
  static int min_vcs(const TopologyParams& params);

 private:
  RouteSet route_k_ary_n_cube(RouterId router, PortId in_port, VcId in_vc, NodeId dest) const noexcept;
  RouteSet route_hypercube(RouterId router, NodeId dest) const noexcept;
  RouteSet route_fat_tree(RouterId router, PortId in_port, NodeId dest) const noexcept;
  RouteSet all_vcs(PortId port) const noexcept;

  TopologyParams params_;
  const Graph* graph_;
  int vcs_;
  std::vector<std::int32_t> level_;         // fat tree: level of each router (1..n)
  std::vector<std::int32_t> subtree_;       // fat tree: index of the level-k subtree the router serves
  std::vector<std::int32_t> pow_children_;  // children^k
  std::vector<std::int32_t> parents_;  // fat tree: P(k), parent links per router at level k (0 at the top)
  int child_shift_ = -1;               // fat tree: log2(children) when children is a power of two
  // Mesh and torus: the n base-k digits of every router (and node) id, so routing divides nothing (a
  // division costs tens of cycles, and every packet is routed at every router).
  std::vector<std::int16_t> digits_;
};

}  // namespace mppnet::topo
