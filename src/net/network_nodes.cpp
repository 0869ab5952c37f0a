// net/network_nodes.cpp: the nodes' side of the network: source queues, starting packets on free
// links, sending a flit per link per cycle, and draining arrived flits at the ejection rate.
#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "net/network.hpp"

namespace mppnet::net {

PacketId Network::inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                         std::uint64_t route_header) {
  MPPNET_ASSERT(src >= 0 && src < graph_.num_nodes && dest >= 0 && dest < graph_.num_nodes,
                "node out of range");
  MPPNET_ASSERT(flits >= 1 && flits <= 0xffff, "packet length outside 1..65535 flits");
  MPPNET_ASSERT(vnet >= 0 && vnet < vnets_, "virtual network out of range");
  MPPNET_ASSERT(route_header == 0 || route_header_, "a routing word for a routing that reads none");
  PacketId id = packets_.allocate();
  if (route_header_) packets_.route_header(id) = route_header;
  Packet& p = packets_[id];
  p.src = src;
  p.dest = dest;
  p.flits = flits;
  p.created = now_;
  p.tag = tag;
  p.vnet = vnet;
  const int q = src * vnets_ + vnet;
  if (queue_tail_[q] == kNoPacket) {
    queue_head_[q] = id;
  } else {
    packets_[queue_tail_[q]].next = id;
  }
  queue_tail_[q] = id;
  ++queue_length_[q];
  ++queued_packets_;
  ++node_packets_[src];
  set_bit(sending_bits_, src);
  return id;
}

PacketId Network::inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                         const topo::SourceRoute& route) {
  MPPNET_ASSERT(source_routes_, "a source route for a routing that steers by none");
  if (const std::string problem = topo::source_route_problem(route); !problem.empty())
    throw std::invalid_argument(problem);
  const PacketId id = inject(src, dest, flits, tag, vnet, 0);  // cursor 0: the first byte
  packets_.source_route(id) = route;
  return id;
}

void Network::hold_ejection(NodeId v, int vnet, bool hold) {
  MPPNET_ASSERT(v >= 0 && v < graph_.num_nodes && vnet >= 0 && vnet < vnets_, "node or network out of range");
  eject_hold_[v * vnets_ + vnet] = hold ? 1 : 0;
  const std::uint64_t vnet_vcs = (~std::uint64_t{0} >> (64 - vcs_per_vnet_)) << (vnet * vcs_per_vnet_);
  for (int l = 0; l < graph_.links_per_node; ++l) {
    std::uint64_t& blocked = eject_blocked_[v * graph_.links_per_node + l];
    blocked = hold ? blocked | vnet_vcs : blocked & ~vnet_vcs;
  }
  if (!hold && node_eject_flits_[v] > 0) set_bit(ejecting_bits_, v);  // flits may be waiting
}

std::int64_t Network::source_queue_length(NodeId v) const {
  std::int64_t total = 0;
  for (int vn = 0; vn < vnets_; ++vn) total += queue_length_[v * vnets_ + vn];
  return total;
}

void Network::eject(NodeId v) {
  const int links = graph_.links_per_node;
  const int vcs = vcs_;
  const std::uint32_t cap = std::max(kTokenOne, eject_per_cycle_);
  const bool one_per_cycle = eject_per_cycle_ == kTokenOne;  // the default: no bucket to keep
  for (int l = 0; l < links; ++l) {
    const int nl = v * links + l;
    // VCs holding flits that the node is willing to take.
    std::uint64_t ready = eject_occupied_[nl] & ~eject_blocked_[nl];
    if (ready == 0) continue;
    const std::int32_t ivc0 = router_ivcs_ + nl * vcs;
    // A lazy token bucket: it fills at the ejection rate since it was last looked at, up to one cycle's
    // worth, so a link that has been idle drains its next flit at once. At one flit per cycle it is
    // always full when looked at (once a cycle), so the link drains one flit.
    std::uint32_t tokens = kTokenOne;
    if (!one_per_cycle) {
      const std::uint64_t filled = eject_tokens_[nl] + static_cast<std::uint64_t>(eject_per_cycle_) *
                                                           static_cast<std::uint64_t>(now_ - eject_time_[nl]);
      tokens = static_cast<std::uint32_t>(std::min<std::uint64_t>(filled, cap));
      eject_time_[nl] = now_;
    }
    int rr = eject_rr_[nl];
    for (; tokens >= kTokenOne && ready != 0; tokens -= kTokenOne) {
      // Round robin: the first ready VC at or after rr.
      const std::uint64_t after = ready & (~std::uint64_t{0} << rr);
      const int chosen = std::countr_zero(after != 0 ? after : ready);
      rr = chosen + 1 == vcs ? 0 : chosen + 1;
      const Flit f = pop_input(ivc0 + chosen);
      if (ivc_[ivc0 + chosen].count == 0) {
        ready &= ~(std::uint64_t{1} << chosen);
        eject_occupied_[nl] &= ~(std::uint64_t{1} << chosen);
      }
      return_credit(link_end_[nl].vc_base + chosen, link_end_[nl].router);
      --node_eject_flits_[v];
      ++counters_.flits_ejected;
      last_progress_ = now_;
      packets_[f.packet].hops = packets_.hops(f.packet);  // final since the head got here
      if (f.tail && packets_[f.packet].corrupt_at >= 0) [[unlikely]] {
        abort_packet(f.packet, now_);
      } else if (f.tail) {
        packets_[f.packet].dest = v;  // a multicast copy's own destination (a unicast's is v already)
        packets_[f.packet].delivered = now_;
        ++counters_.packets_delivered;
        delivered_.push_back(f.packet);
        if (acks_.enabled()) acks_.post(f.packet, packets_[f.packet], now_, nack_[v] != 0);
      }
    }
    eject_rr_[nl] = static_cast<std::uint16_t>(rr);
    if (!one_per_cycle) eject_tokens_[nl] = tokens;
  }
}

void Network::send(NodeId v) {
  const int links = graph_.links_per_node;
  for (int vn = 0; vn < vnets_; ++vn)
    if (queue_head_[v * vnets_ + vn] != kNoPacket) start_packets(v, vn);
  // Every link sends one flit per cycle if it has one with a credit; the virtual networks take turns.
  for (int l = 0; l < links; ++l) {
    const int nl = v * links + l;
    Injection* in = nullptr;
    for (int k = 0; k < vnets_; ++k) {
      const int vn = inj_vnet_rr_[nl] + k < vnets_ ? inj_vnet_rr_[nl] + k : inj_vnet_rr_[nl] + k - vnets_;
      Injection& cand = inj_[nl * vnets_ + vn];
      if (cand.packet == kNoPacket || ovc_[router_ivcs_ + nl * vcs_ + cand.next.vc].credits == 0) continue;
      in = &cand;
      if (vnets_ > 1) inj_vnet_rr_[nl] = static_cast<std::uint8_t>(vn + 1 == vnets_ ? 0 : vn + 1);
      break;
    }
    if (in == nullptr) continue;
    Flit f = in->next;
    const int vc = static_cast<int>(f.vc);
    f.tail = in->left == 1;
    --ovc_[router_ivcs_ + nl * vcs_ + vc].credits;
    *inject_out_++ = {link_end_[nl].vc_base + vc, link_end_[nl].router, f};
    ++counters_.flits_injected;
    last_progress_ = now_;
    if (f.head) {
      packets_[f.packet].injected = now_;
      ++counters_.packets_injected;
      in->next.head = 0;
    }
    if (--in->left == 0) {
      in->packet = kNoPacket;
      inj_vc_busy_[nl * vcs_ + vc] = 0;
      const int lo = vc - vc % vcs_per_vnet_;
      in->next.vc = static_cast<std::uint32_t>(vc + 1 == lo + vcs_per_vnet_ ? lo : vc + 1);
      --node_packets_[v];
    }
  }
}

void Network::start_packets(NodeId v, int vn) {
  const int links = graph_.links_per_node;
  const int q = v * vnets_ + vn;
  const int lo = vn * vcs_per_vnet_;
  // Queued packets go to links free in their network (chosen at random among them, as the CM-5's
  // interface does with its two links).
  const int window = acks_.params().window;
  while (queue_head_[q] != kNoPacket) {
    if (window > 0 && unacked_[q] >= window) break;  // until an ack comes back
    int free_links = 0;
    for (int l = 0; l < links; ++l) free_links += inj_[(v * links + l) * vnets_ + vn].packet == kNoPacket;
    if (free_links == 0) break;
    int pick = free_links > 1 ? static_cast<int>(node_rng_[v].below(free_links)) : 0;
    int nl = -1;
    for (int l = 0; l < links; ++l) {
      if (inj_[(v * links + l) * vnets_ + vn].packet != kNoPacket) continue;
      if (pick-- == 0) {
        nl = v * links + l;
        break;
      }
    }
    Injection& in = inj_[nl * vnets_ + vn];
    const PacketId id = queue_head_[q];
    const Packet& p = packets_[id];
    // A free VC of the packet's network, trying the one after the last used first: not carrying another
    // packet's flits from this source, and for cut-through with room for the whole packet.
    const bool whole = params_.switching != Switching::Wormhole;
    int vc = -1;
    // In order (RouterParams::in_order): always the network's first VC, so that no packet of this
    // source can pass another of its network on a VC of its own.
    const int tries = params_.in_order ? 1 : vcs_per_vnet_;
    if (params_.in_order) in.next.vc = static_cast<std::uint32_t>(lo);
    for (int k = 0; k < tries; ++k) {
      const int rel = static_cast<int>(in.next.vc) - lo + k;
      const int c = lo + (rel < vcs_per_vnet_ ? rel : rel - vcs_per_vnet_);
      if (inj_vc_busy_[nl * vcs_ + c]) continue;
      if (whole && ovc_[router_ivcs_ + nl * vcs_ + c].credits < p.flits) continue;
      vc = c;
      break;
    }
    if (vc < 0) break;
    queue_head_[q] = p.next;
    if (queue_head_[q] == kNoPacket) queue_tail_[q] = kNoPacket;
    --queue_length_[q];
    --queued_packets_;
    if (window > 0) ++unacked_[q];
    in.packet = id;
    in.left = p.flits;
    in.next.packet = id;
    in.next.dest = static_cast<std::uint32_t>(p.dest);
    in.next.vc = static_cast<std::uint32_t>(vc);
    in.next.head = 1;
    in.next.tail = 0;
    inj_vc_busy_[nl * vcs_ + vc] = 1;
  }
}

void Network::mark_corrupt(PacketId id, std::int32_t input) {
  MPPNET_ASSERT(input >= 0 && input < input_count(), "an error counted at an input that does not exist");
  MPPNET_ASSERT(packets_[id].ack_group < 0, "byte errors are modelled on unicast packets only");
  if (input_errors_.empty()) input_errors_.assign(static_cast<std::size_t>(input_count()), 0);
  packets_[id].corrupt_at = input;
}

void Network::abort_packet(PacketId id, Cycle now) {
  const Packet& p = packets_[id];
  ++input_errors_[static_cast<std::size_t>(p.corrupt_at)];
  ++packets_aborted_;
  if (acks_.enabled()) acks_.post(id, p, now, true);
  packets_.release(id);
}

}  // namespace mppnet::net
