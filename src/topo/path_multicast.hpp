// topo/path_multicast.hpp: path multicast on meshes, cylinders and tori (topology.path_multicast): a
// packet that asks for it leaves a copy at every router it passes on its dimension-order path.
//
// This is the T1's MCST on the CNS-1 (reference note 002 §3.13, §5.8): "a copy of the message is
// delivered at every node the packet passes through, from source to destination. The source itself gets
// no copy; the destination does." Between nodes of one row or column the path is the straight, shortest
// line; round a ring it takes the shorter way (a tie goes +1), so it covers at most half the ring
// (B23). Between nodes that differ in several dimensions the document leaves the copies unspecified
// (A31); here they follow the whole dimension-order path, turn included.
//
// A packet asks by its routing word: injected with kPathMulticast it is a path multicast, with 0 a
// unicast. At every router after the source whose route goes on, the route is a multicast set of two
// branches, on along the path and down to the router's node, which the network replicates (both
// branches move in lockstep, net/multicast.cpp); at the destination it is the node port alone. Unicast
// routes, VC classes and hence deadlock freedom are dimension order's: the extra branch is always an
// ejection, which drains.
#pragma once

#include <cstdint>
#include <utility>

#include "topo/k_ary_n_cube.hpp"
#include "topo/routing.hpp"

namespace mppnet::topo {

// The routing word of a path multicast (net::Network::inject's route_header).
inline constexpr std::uint64_t kPathMulticast = 1;

class PathMulticastRouting {
 public:
  static constexpr bool kNeedsHeader = true;
  static constexpr bool kMayMulticast = true;

  explicit PathMulticastRouting(DimensionOrderRouting dor)
      : dor_(std::move(dor)), node_port_(cube_node_port(dor_.dimensions())) {}

  RouteSet route(RouterId router, PortId in_port, VcId in_vc, PacketHead& head) const noexcept {
    RouteSet rs = dor_.route(router, in_port, in_vc, head);
    // The source router (the packet came from its node) gives no copy, and the destination's route is
    // its node port already.
    if (head.header != kPathMulticast || in_port == node_port_ || rs.ports[0] == node_port_) return rs;
    // Node ports come after the dimension ports, so the branches are in increasing port order; the node
    // takes the onward hop's VC range, which its ejection channel offers in full.
    rs.ports[1] = static_cast<std::int16_t>(node_port_);
    rs.count = 2;
    rs.multicast = true;
    return rs;
  }
  int router_hops(NodeId src, NodeId dest) const { return dor_.router_hops(src, dest); }
  bool uses_input_vc() const { return dor_.uses_input_vc(); }

 private:
  DimensionOrderRouting dor_;
  PortId node_port_;
};

}  // namespace mppnet::topo
