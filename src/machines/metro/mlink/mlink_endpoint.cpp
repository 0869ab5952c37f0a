// machines/metro/mlink/mlink_endpoint.cpp: the runtime's packets as MLINK ROPs on the MBTA.
#include "machines/metro/mlink/mlink_endpoint.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::metro::mlink {

MlinkEndpoint::MlinkEndpoint(mrp::MrpNetwork& net, int radix, const MlinkParams& p, std::uint64_t seed,
                             core::Scheduler& scheduler, core::DomainId domain,
                             const MlinkEndpointOptions& options)
    : net_(net),
      mlink_(net, radix, p, *this, seed),
      scheduler_(scheduler),
      options_(options),
      period_ps_(scheduler.period_ps(domain)),
      domain_(domain),
      id_(scheduler.add(domain, *this, false)),  // asleep until the first packet
      // A DROP crosses every router of a path and its pipeline both ways before the ports are free.
      settle_cycles_(2 * (net.stages() + 1) * (mrp::kMaxDps + 1)) {
  MPPNET_ASSERT(options.vnets == 1 || options.vnets == 2, "requests and replies: one or two networks");
  MPPNET_ASSERT(p.queue_capacity == options.send_queue_packets, "MLINK's queue is the runtime's send queue");
  const auto n = static_cast<std::size_t>(net.nodes() * options.vnets);
  held_.assign(n, 0);
  zeros_.assign(kMaxDataBytes, 0);
}

bool MlinkEndpoint::tick(Cycle cycle) {
  offset_ = cycle - net_.cycle();
  mlink_.tick();
  net_.step();
  ++cycles_run_;
  if (handler_ != nullptr) handler_->after_cycle(cycle * period_ps_);
  quiet_ = mlink_.idle() ? quiet_ + 1 : 0;
  return quiet_ <= settle_cycles_;
}

net::PacketId MlinkEndpoint::try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) {
  // Replies take class 1, so that MLINK never tries a request while a reply of the same node waits.
  const int priority = options_.vnets == 2 ? vnet : 0;
  if (mlink_.room(src, priority) == 0) return net::kNoPacket;
  net::PacketId id;
  if (free_.empty()) {
    id = static_cast<net::PacketId>(packets_.size());
    packets_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  net::Packet& p = packets_[id];
  p = net::Packet{};
  p.src = src;
  p.dest = dest;
  p.flits = flits;
  p.tag = tag;
  p.vnet = vnet;
  p.created = net_.cycle();
  const std::int64_t bytes = static_cast<std::int64_t>(flits) * options_.flit_bytes;
  const int len = static_cast<int>((bytes + kUnitBytes - 1) / kUnitBytes);
  if (len > kMaxLen)
    throw std::invalid_argument(
        fmt::format("a packet of {} bytes exceeds MLINK's largest ROP ({} bytes)", bytes, kMaxDataBytes));
  // The ROP's address is the handler's; the runtime keeps the message itself (am/message.hpp), as the
  // packet network does, so the address field carries the packet's slot.
  const Operation op{Op::Rop, dest, len, id & (kAddressLimit - 1), 0, id, priority};
  mlink_.launch(src, op, {zeros_.data(), static_cast<std::size_t>(kUnitBytes * len)});
  ++in_mlink_;
  last_progress_ = net_.cycle();
  scheduler_.activate(id_);
  return id;
}

std::int64_t MlinkEndpoint::space_to_send(NodeId src, int vnet) const {
  return mlink_.room(src, options_.vnets == 2 ? vnet : 0);
}

void MlinkEndpoint::hold_ejection(NodeId v, int vnet, bool hold) {
  held_[static_cast<std::size_t>(v * options_.vnets + vnet)] = hold ? 1 : 0;
}

bool MlinkEndpoint::rop(NodeId v, NodeId, std::uint32_t, std::span<const std::uint8_t>, std::uint64_t tag,
                        std::int64_t cycle) {
  net::Packet& p = packets_[static_cast<std::size_t>(tag)];
  if (held_[static_cast<std::size_t>(v * options_.vnets + p.vnet)]) return false;  // queue full: NACK
  p.delivered = cycle;
  p.hops = net_.stages();
  if (handler_ != nullptr) handler_->on_delivery(static_cast<net::PacketId>(tag), p, time_of(cycle));
  last_progress_ = cycle;
  return true;
}

void MlinkEndpoint::done(NodeId v, std::uint64_t tag, const OperationResult& r) {
  const net::Packet& p = packets_[static_cast<std::size_t>(tag)];
  if (!r.delivered)
    throw std::runtime_error(
        fmt::format("MLINK: a packet from node {} to node {} failed after {} trials ({}); "
                    "metro.mlink.max_trials = 0 retries without limit",
                    v, p.dest, r.trials, status_name(r.status)));
  --in_mlink_;
  free_.push_back(static_cast<net::PacketId>(tag));
  last_progress_ = r.done;
}

net::EndpointActivity MlinkEndpoint::activity() const {
  net::EndpointActivity a;
  a.flits_in_network = in_mlink_;
  a.queued_packets = 0;
  // Retries keep words moving on a circuit-switched network even when nothing can be delivered: what
  // counts as progress is an operation queued or completed.
  a.cycles_without_progress = net_.cycle() - last_progress_;
  return a;
}

}  // namespace mppnet::machines::metro::mlink
