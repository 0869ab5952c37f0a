// net/multicast.cpp: the general router's multicast: VC allocation for every branch at once, and the
// switch traversal that copies each flit to all branches in lockstep.
//
// The rules are the Meiko CS-2's (Elite switch, reference note 003, pseudocode: "broadcast: grant
// all-or-nothing", "forward a symbol only when every out has flow-control credit"): a multicast waits
// until it holds an output VC on every branch, and a flit crosses only when every branch can take it,
// so the branches advance together. All-or-nothing allocation keeps a multicast from holding some
// branches while it waits for others, which would let two multicasts block each other; the lockstep
// means that one blocked branch stalls the others (the CS-2 behaves so). Under the separable VC
// allocators a multicast asks for one VC on every branch, with the same round-robin priority at each,
// and whatever it wins is void unless it wins everything; the wavefront allocator takes multicasts
// first and whole (net/vc_alloc.hpp). The VC allocators decide; grant_branches() applies the result.
#include <algorithm>

#include "net/arbiter.hpp"
#include "net/network.hpp"

namespace mppnet::net {

void Network::grant_branches(RouterId r, int i, const vc_alloc::Candidate* branches) {
  const std::int32_t g = graph_.port_base[r] * vcs_ + i;
  const std::size_t b0 = static_cast<std::size_t>(g) * topo::kMaxRouteCandidates;
  for (int c = 0; c < ivc_route_[g].count; ++c) {
    MPPNET_DEBUG_ASSERT(branches[c].port == ivc_route_[g].ports[c],
                        "a multicast's grant is not on its branch ports");
    branch_vc_[b0 + c] = branches[c].vc;
  }
  hold_branches(r, i);
}

void Network::hold_branches(RouterId r, int i) {
  const std::int32_t ivc0 = graph_.port_base[r] * vcs_;
  const std::int32_t g = ivc0 + i;
  const topo::RouteSet& rs = ivc_route_[g];
  const std::size_t b0 = static_cast<std::size_t>(g) * topo::kMaxRouteCandidates;
  for (int c = 0; c < rs.count; ++c)
    ovc_[ivc0 + rs.ports[c] * vcs_ + branch_vc_[b0 + c]].owner = static_cast<std::int16_t>(i);
  InputVc& s = ivc_[g];
  s.out_port = kMulticastPort;
  s.out_vc = branch_vc_[b0];  // marks "holds its output VCs"
}

void Network::take_for_multicasts(RouterId r, const std::int32_t* ready, int count, std::int32_t* outs,
                                  int& out_count, std::int32_t* ins, int& in_count) {
  // Separable allocation would let two multicasts split the outputs they share, each winning some and
  // neither all; with round-robin pointers that do not move unless a flit crosses, they would split them
  // the same way every cycle. Taken first and whole, in an order that rotates, a multicast that can
  // advance always does, and every one gets its turn.
  const std::int32_t g0 = graph_.port_base[r] * vcs_;
  const int n = graph_.num_ports(r) * vcs_;
  const int rr = mc_rr_[r];
  std::int32_t* out_pick = out_pick_.data();
  std::int32_t* out_dist = out_dist_.data();
  std::int32_t* port_pick = port_pick_.data();
  std::int32_t* port_dist = port_dist_.data();
  // The ready multicasts that can advance, nearest after the pointer first.
  std::int32_t* order = mc_order_.data();
  int found = 0;
  for (int k = 0; k < count; ++k)
    if (ivc_[g0 + ready[k]].out_port == kMulticastPort && can_advance(r, ready[k])) order[found++] = ready[k];
  std::sort(order, order + found,
            [&](int a, int b) { return arbiter::rr_distance(a, rr, n) < arbiter::rr_distance(b, rr, n); });
  for (int k = 0; k < found; ++k) {
    const int i = order[k];
    if (port_pick[local_port_[i]] >= 0) continue;
    bool free = true;
    for_each_output(g0 + i, [&](int o) { free &= out_pick[o] < 0; });
    if (!free) continue;
    ins[in_count++] = local_port_[i];
    port_pick[local_port_[i]] = i;
    port_dist[local_port_[i]] = -1;
    for_each_output(g0 + i, [&](int o) {
      outs[out_count++] = o;
      out_pick[o] = i;
      out_dist[o] = -1;
    });
  }
}

PacketId Network::clone_packet(PacketId id) {
  const Packet record = packets_[id];
  // A corrupted packet's error is counted once, at its destination: copies would count it again.
  MPPNET_ASSERT(record.corrupt_at < 0, "byte errors are modelled on unicast packets only");
  const std::uint16_t hops = packets_.hops(id);
  const std::uint64_t header = route_header_ ? packets_.route_header(id) : 0;
  const PacketId copy = packets_.allocate();  // may grow the pool: nothing above is a reference into it
  packets_[copy] = record;
  packets_[copy].next = kNoPacket;
  packets_.hops(copy) = hops;
  if (route_header_) packets_.route_header(copy) = header;
  // Every branch carries the same remaining route bytes (the CS-2's broadcast; docs/design.md).
  if (source_routes_) packets_.source_route(copy) = packets_.source_route(id);
  return copy;
}

int Network::switch_multicast(RouterId r, int i, bool move_pointers) {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t g = base * vcs_ + i;
  const topo::RouteSet& rs = ivc_route_[g];
  std::int32_t* out_pick = out_pick_.data();
  bool won_all = true;
  for (int c = 0; c < rs.count; ++c) won_all &= out_pick[rs.ports[c]] == i;
  for (int c = 0; c < rs.count; ++c)
    if (out_pick[rs.ports[c]] == i) out_pick[rs.ports[c]] = -1;
  if (!won_all) return 0;

  if (move_pointers) {
    const int p = local_port_[i];
    const int ports = graph_.num_ports(r);
    const int n = ports * vcs_;
    const bool input_first = params_.allocator == AllocatorKind::InputFirst;
    port_rr_[base + p].sa_in = static_cast<std::uint16_t>(local_vc_[i] + 1 == vcs_ ? 0 : local_vc_[i] + 1);
    const int next = input_first ? (p + 1 == ports ? 0 : p + 1) : (i + 1 == n ? 0 : i + 1);
    for (int c = 0; c < rs.count; ++c) port_rr_[base + rs.ports[c]].sa_out = static_cast<std::uint16_t>(next);
    mc_rr_[r] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
  }
  cross_multicast(r, i);
  if (ivc_[g].count == 0) set_occupied(r, i, false);
  switched_[i] = 1;
  // One flit left the input buffer; rs.count copies left for the channels or wait in output queues.
  router_flits_[r] += outq_cap_ == 0 ? -1 : rs.count - 1;
  return rs.count;
}

Flit Network::cross_multicast(RouterId r, int i) {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t g = base * vcs_ + i;
  const topo::RouteSet& rs = ivc_route_[g];
  const int p = local_port_[i];
  const Flit f = pop_input(g);
  return_credit(port_[base + p].vc_base + local_vc_[i], credit_owner(port_[base + p]));
  const std::size_t b0 = static_cast<std::size_t>(g) * topo::kMaxRouteCandidates;
  if (f.head) {
    ++packets_.hops(f.packet);
    branch_packet_[b0] = f.packet;
    // The copies answer with one merged ack (net/ack_path.hpp): the merge is opened at the packet's
    // first branching and set before cloning, so every copy, and every copy of a copy, carries it.
    if (acks_.enabled()) {
      Packet& rec = packets_[f.packet];
      if (rec.ack_group < 0) rec.ack_group = acks_.open_merge(f.packet, rec);
      acks_.add_copies(rec.ack_group, rs.count - 1);
    }
    for (int c = 1; c < rs.count; ++c) branch_packet_[b0 + c] = clone_packet(f.packet);
  }
  for (int c = 0; c < rs.count; ++c) {
    const int o = rs.ports[c];
    Flit copy = f;
    copy.packet = branch_packet_[b0 + c];
    copy.vc = static_cast<std::uint32_t>(branch_vc_[b0 + c]);
    OutputVc& ov = ovc_[(base + o) * vcs_ + copy.vc];
    --ov.credits;
    if (f.tail) ov.owner = -1;
    if (outq_cap_ == 0) {
      send_flit(r, o, copy);
    } else {
      push_output_queue(base + o, copy);
    }
  }
  counters_.flit_hops += rs.count;
  counters_.flits_replicated += rs.count - 1;
  last_progress_ = now_;
  if (f.tail) {
    InputVc& s = ivc_[g];
    s.routed = false;
    s.out_port = -1;
    s.out_vc = -1;
  }
  return f;
}

}  // namespace mppnet::net
