// machines/cns1/mesh_ports.cpp: sends into the mesh, copies out of it, and the NI's backpressure.
#include "machines/cns1/mesh_ports.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"
#include "topo/path_multicast.hpp"

namespace mppnet::machines::cns1 {

BadDestination::BadDestination(NodeId src, std::uint32_t dest, int nodes)
    : std::runtime_error(fmt::format("node {} sent a message to node {} (destination register 0x{:08x}), but "
                                     "the machine has nodes 0 to {}",
                                     src, dest & kNodeIdMask, dest, nodes - 1)),
      source(src),
      destination(dest) {}

int message_flits(const T1Message& m, int flit_bytes) {
  const int bytes = 4 * (kMessageOverheadWords + m.scalar_count + m.vector_length);
  return (bytes + flit_bytes - 1) / flit_bytes;
}

MeshPorts::MeshPorts(net::ClockedNetwork& network, int k, int flit_bytes)
    : network_(network), k_(k), flit_bytes_(flit_bytes), inboxes_(static_cast<std::size_t>(network.nodes())) {
  MPPNET_ASSERT(network.vnets() == 2, "the T1's two priorities are the mesh's two virtual networks");
  MPPNET_ASSERT(k * k == network.nodes(), "a k x k mesh");
  ports_.reserve(inboxes_.size());
  for (NodeId v = 0; v < network.nodes(); ++v) ports_.emplace_back(*this, v);
  network.set_delivery_handler(this);
}

int MeshPorts::copies(NodeId src, NodeId dest, bool multicast) const {
  if (!multicast || src == dest) return 1;
  // Router id = x + k y; x (dimension 0) is open, y (dimension 1) a ring: the path's length in links.
  const int dx = std::abs(src % k_ - dest % k_);
  const int dy = std::abs(src / k_ - dest / k_);
  return dx + std::min(dy, k_ - dy);
}

bool MeshPorts::Port::can_send(Priority priority) const {
  return mesh_->network_.space_to_send(node_, static_cast<int>(index(priority))) > 0;
}

bool MeshPorts::Port::try_send(const T1Message& message) {
  const std::uint32_t dest = message.destination & kNodeIdMask;
  if (dest >= static_cast<std::uint32_t>(mesh_->network_.nodes()))
    throw BadDestination(node_, message.destination, mesh_->network_.nodes());
  MeshPorts& m = *mesh_;
  const std::uint32_t slot = m.in_flight_.allocate();
  InFlight& f = m.in_flight_[slot];
  f.message = message;
  f.message.source = static_cast<std::uint32_t>(node_);
  f.copies_left = m.copies(node_, static_cast<NodeId>(dest), message.multicast);
  const int flits = message_flits(message, m.flit_bytes_);
  const net::PacketId id = m.network_.try_send(node_, static_cast<NodeId>(dest), flits, slot,
                                               static_cast<int>(index(message.priority)),
                                               message.multicast ? topo::kPathMulticast : 0);
  if (id == net::kNoPacket) {
    m.in_flight_.release(slot);
    return false;
  }
  ++m.messages_sent_;
  m.flits_sent_ += flits;
  return true;
}

void MeshPorts::on_delivery(net::PacketId, const net::Packet& p, Picoseconds) {
  const auto slot = static_cast<std::uint32_t>(p.tag);
  InFlight& f = in_flight_[slot];
  deliver(p.dest, f.message);
  ++copies_delivered_;
  if (--f.copies_left == 0) in_flight_.release(slot);
}

void MeshPorts::deliver(NodeId v, const T1Message& m) {
  Inbox& in = inboxes_[static_cast<std::size_t>(v)];
  MPPNET_ASSERT(in.ni != nullptr, "a message for a node without an NI");
  auto& waiting = in.waiting[index(m.priority)];
  if (!waiting.empty() || !in.ni->offer(m)) waiting.push_back(m);
  update_hold(v, m.priority);
}

void MeshPorts::refill(NodeId v) {
  Inbox& in = inboxes_[static_cast<std::size_t>(v)];
  for (const Priority p : {Priority::Low, Priority::High}) {
    auto& waiting = in.waiting[index(p)];
    while (!waiting.empty() && in.ni->offer(waiting.front())) waiting.pop_front();
    update_hold(v, p);
  }
}

void MeshPorts::update_hold(NodeId v, Priority p) {
  Inbox& in = inboxes_[static_cast<std::size_t>(v)];
  const unsigned bit = 1u << index(p);
  const bool hold = !in.waiting[index(p)].empty() || !in.ni->has_room(p);
  if (hold == ((in.holding & bit) != 0)) return;
  in.holding ^= bit;
  network_.hold_ejection(v, static_cast<int>(index(p)), hold);
}

}  // namespace mppnet::machines::cns1
