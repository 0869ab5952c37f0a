// machines/cm5/network_interface.cpp: address translation, sends split into messages, and deliveries
// announced to node programs.
#include "machines/cm5/network_interface.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {

AddressMap::AddressMap(NodeId base, int size, const std::vector<NodeId>& mapped_out)
    : base_(base), relative_(size, -1) {
  for (NodeId phys = base; phys < base + size; ++phys) {
    if (std::find(mapped_out.begin(), mapped_out.end(), phys) != mapped_out.end()) continue;
    relative_[phys - base] = static_cast<NodeId>(physical_.size());
    physical_.push_back(phys);
  }
}

std::optional<NodeId> AddressMap::translate(std::int64_t rel, bool privileged) const {
  if (privileged) return static_cast<NodeId>(rel);
  if (rel < 0 || rel >= size()) return std::nullopt;
  return physical_[rel];
}

NodeId AddressMap::relative(NodeId phys) const {
  const std::int64_t i = static_cast<std::int64_t>(phys) - base_;
  return i < 0 || i >= static_cast<std::int64_t>(relative_.size()) ? -1 : relative_[i];
}

NetworkInterfaces::NetworkInterfaces(DataNetwork& network, core::Scheduler& scheduler, core::DomainId domain,
                                     AddressMap map, int vnets, const InterfaceParams& params)
    : network_(network),
      scheduler_(scheduler),
      domain_(domain),
      id_(scheduler.add(domain, *this, false)),
      period_ps_(scheduler.period_ps(domain)),
      map_(std::move(map)),
      vnets_(vnets),
      params_(params),
      next_side_(static_cast<std::size_t>(map_.size()) * 3, 0) {
  network_.set_observer(this);
}

int NetworkInterfaces::side_of(NodeId v, int vnet) {
  const Sides use = sides_for(vnet);
  if (use != Sides::Both) return use == Sides::Left ? 0 : 1;
  // The software writes to whichever send FIFO has more room (a send that is not accepted on one side
  // is retried on the other), alternating between equals: a blocked side never holds a message back
  // while the other side takes it.
  const NodeId phys = map_.physical(v);
  const std::int64_t left = network_.queued(phys, 0);
  const std::int64_t right = network_.queued(phys, 1);
  if (left != right) return left < right ? 0 : 1;
  std::uint8_t& next = next_side_[static_cast<std::size_t>(v) * 3 + vnet];
  next ^= 1;
  return next ^ 1;
}

Sides NetworkInterfaces::sides_for(int vnet) const {
  if (vnets_ == 1) return Sides::Left;
  return vnet == 0 ? params_.requests : vnet == 1 ? params_.replies : params_.one_way;
}

int NetworkInterfaces::roomiest_side(NodeId v, int vnet) const {
  const Sides use = sides_for(vnet);
  if (use != Sides::Both) return use == Sides::Left ? 0 : 1;
  const NodeId phys = map_.physical(v);
  return network_.queued(phys, 0) <= network_.queued(phys, 1) ? 0 : 1;
}

bool NetworkInterfaces::tick(Cycle cycle) {
  network_.run_until(cycle);
  ++cycles_run_;
  if (handler_ != nullptr) handler_->after_cycle(cycle * period_ps_);
  return network_.busy();
}

net::PacketId NetworkInterfaces::try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) {
  const NodeId from = map_.physical(src);
  const int parts = (flits + kMaxWords - 1) / kMaxWords;
  MPPNET_ASSERT(parts <= kMaxPartsPerPacket, "an am packet of at most 10 words");
  if (network_.queued(from, roomiest_side(src, vnet)) + parts > params_.send_fifo_messages)
    return net::kNoPacket;
  const int side = side_of(src, vnet);
  // The network has run every edge before now; the message enters at the first edge at or after now.
  const Picoseconds now = scheduler_.now();
  network_.run_until(now % period_ps_ == 0 ? now / period_ps_ - 1 : now / period_ps_);
  const std::uint32_t id = packets_.allocate();
  packets_[id] = Packet{.src = src,
                        .dest = dest,
                        .words = flits,
                        .vnet = vnet,
                        .parts_left = parts,
                        .created = network_.now(),
                        .tag = tag};
  for (int left = flits; left > 0; left -= kMaxWords) {
    network_.send(from, map_.physical(dest), std::min(left, kMaxWords), vnet, side, id);
  }
  scheduler_.activate(id_);
  return id;
}

std::int64_t NetworkInterfaces::space_to_send(NodeId src, int vnet) const {
  // In packets of the largest size, so that a place am holds for a send is always there.
  const std::int64_t free =
      params_.send_fifo_messages - network_.queued(map_.physical(src), roomiest_side(src, vnet));
  return std::max<std::int64_t>(0, free / kMaxPartsPerPacket);
}

void NetworkInterfaces::hold_ejection(NodeId v, int vnet, bool hold) {
  // Messages of one virtual network arrive on the sides it sends on; hold every side it may use.
  const Sides use = sides_for(vnet);
  if (use != Sides::Right) network_.hold_receive(map_.physical(v), 0, hold);
  if (use != Sides::Left) network_.hold_receive(map_.physical(v), 1, hold);
  if (!hold) scheduler_.activate(id_);
}

void NetworkInterfaces::on_queue_space(NodeId v, int) {
  const NodeId rel = map_.relative(v);
  if (handler_ != nullptr && rel >= 0 && params_.report_room) handler_->on_space(rel);
}

void NetworkInterfaces::on_delivery(MessageId, const Message& m) {
  const auto id = static_cast<std::uint32_t>(m.label);
  Packet& p = packets_[id];
  if (--p.parts_left > 0) return;
  if (handler_ != nullptr) {
    net::Packet announced;
    announced.src = p.src;
    announced.dest = p.dest;
    announced.flits = p.words;
    announced.created = p.created;
    announced.delivered = m.delivered;
    announced.tag = p.tag;
    announced.vnet = p.vnet;
    handler_->on_delivery(id, announced, m.delivered * period_ps_);
  }
  packets_.release(id);
}

net::EndpointActivity NetworkInterfaces::activity() const {
  return {.flits_in_network = network_.in_network(),
          .queued_packets = network_.queued_total(),
          .cycles_without_progress = network_.now() - network_.last_progress()};
}

std::string NetworkInterfaces::describe_blocked() const {
  if (network_.in_network() == 0) return "";
  return fmt::format("{} messages in the data network or in held receive FIFOs, {} in send FIFOs\n",
                     network_.in_network(), network_.queued_total());
}

}  // namespace mppnet::machines::cm5
