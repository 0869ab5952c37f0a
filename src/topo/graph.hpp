// topo/graph.hpp: a built network as plain data: routers, their ports, and what each port connects to.
//
// A port is bidirectional: output port p of router r feeds input port `peer_port` of its peer, and the
// peer's output port `peer_port` feeds input port p of r. Nodes (terminals) attach to router ports;
// node v's network links are node_links[v * links_per_node + i].
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace mppnet::topo {

enum class PeerKind : std::uint8_t { None, Router, Node };

struct PortLink {
  PeerKind kind = PeerKind::None;
  std::int32_t peer = -1;       // RouterId or NodeId
  std::int32_t peer_port = -1;  // port on the peer router, or link index on the node
};

struct NodeLink {
  RouterId router = -1;
  PortId port = -1;
};

struct Graph {
  int num_nodes = 0;
  int links_per_node = 1;
  std::vector<std::int32_t> port_base;  // size num_routers + 1; router r owns [port_base[r], port_base[r+1])
  std::vector<PortLink> ports;          // indexed by port_base[r] + p
  std::vector<NodeLink> node_links;     // size num_nodes * links_per_node

  int num_routers() const { return static_cast<int>(port_base.size()) - 1; }
  int num_ports(RouterId r) const { return port_base[r + 1] - port_base[r]; }
  const PortLink& link(RouterId r, PortId p) const { return ports[port_base[r] + p]; }
  int max_ports() const;
  // Number of router-to-router channels counted once per direction.
  int num_router_channels() const;
};

// The frame shared by direct networks (mesh, torus, hypercube): `routers` routers of `ports_per_router`
// ports each, node v attached to router v on its last port; the router-to-router ports are left
// unconnected for the builder to wire.
Graph direct_network(std::int32_t routers, int ports_per_router);

}  // namespace mppnet::topo
