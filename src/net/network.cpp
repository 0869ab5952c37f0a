// net/network.cpp: construction, the cycle (latch, nodes, routers), channels and credits. The nodes' side
// (source queues, injection, ejection) is in net/network_nodes.cpp.
#include "net/network.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace mppnet::net {

namespace {

// Visits the components whose bits are set, in increasing order; a visit returns whether its component
// stays on the list (its bit is cleared without a branch otherwise). REQUIRES: visits set no bits.
template <class Visit>
void visit_bits(std::vector<std::uint64_t>& bits, Visit visit) {
  for (std::size_t w = 0; w < bits.size(); ++w) {
    for (std::uint64_t m = bits[w]; m != 0; m &= m - 1) {
      const int b = std::countr_zero(m);
      const bool stays = visit(static_cast<std::int32_t>(w * 64 + b));
      bits[w] &= ~(std::uint64_t{!stays} << b);
    }
  }
}
}  // namespace

Network::Network(const topo::Graph& graph, const topo::Routing& routing, const RouterParams& params,
                 std::uint64_t seed)
    : graph_(graph),
      routing_(routing),
      params_(params),
      vcs_(params.vcs),
      vnets_(params.vnets),
      vcs_per_vnet_(params.vcs_per_vnet()),
      depth_(params.buffer_flits),
      hop_delay_(params.pipeline_cycles + params.channel_latency),
      wheel_size_(std::max(params.pipeline_cycles + params.channel_latency, params.credit_cycles()) + 1),
      shuffle_rng_(seed, 0, core::Stream::Setup) {
  MPPNET_ASSERT(params.channel_latency >= 1 && params.pipeline_cycles >= 1 && params.credit_cycles() >= 1,
                "delays below one cycle");
  MPPNET_ASSERT(params.routing_delay >= 0 && params.head_cycles() >= params.routing_delay,
                "negative head delays");
  MPPNET_ASSERT(depth_ <= 0x7fff && vcs_ <= 64, "buffer or VC count beyond the index widths");
  MPPNET_ASSERT(vnets_ >= 1 && vnets_ <= vcs_ && vcs_ % vnets_ == 0,
                "the VCs of a port do not split evenly among the virtual networks");
  MPPNET_ASSERT(routing.vcs() == vcs_per_vnet_, "the routing was not built for vcs / vnets VCs");
  route_header_ = routing.needs_header();
  if (route_header_) {
    packets_.keep_route_headers();
    route_key_ = core::RandomStream(seed, 2'000'000'000ull, core::Stream::RouteChoice).next_u64();
  }
  source_routes_ = routing.needs_source_route();
  if (source_routes_) packets_.keep_source_routes();
  const int routers = graph.num_routers();
  const int ports = static_cast<int>(graph.ports.size());
  const int node_links = graph.num_nodes * graph.links_per_node;

  router_ivcs_ = ports * vcs_;
  const std::int32_t ivcs = router_ivcs_ + node_links * vcs_;
  buffer_.assign(static_cast<std::size_t>(ivcs) * depth_, Flit{});
  ivc_.assign(ivcs, InputVc{});

  ovc_.assign(ivcs, OutputVc{static_cast<std::int16_t>(depth_), -1});
  port_router_.resize(ports);
  for (RouterId r = 0; r < routers; ++r)
    std::fill(port_router_.begin() + graph.port_base[r], port_router_.begin() + graph.port_base[r + 1], r);
  const int links_per_node = graph.links_per_node;
  port_.assign(ports, PortEnd{});
  port_flits_.assign(ports, 0);
  port_rr_.assign(ports, PortPointers{});
  credit_sink_ = routers;
  for (int gp = 0; gp < ports; ++gp) {
    const topo::PortLink& link = graph.ports[gp];
    switch (link.kind) {
      case topo::PeerKind::None:
        for (int vc = 0; vc < vcs_; ++vc) ovc_[gp * vcs_ + vc].credits = 0;
        break;
      case topo::PeerKind::Router:
        port_[gp] = {(graph.port_base[link.peer] + link.peer_port) * vcs_, link.peer};
        break;
      case topo::PeerKind::Node: {
        const int nl = link.peer * links_per_node + link.peer_port;
        // The node's ejection buffers and its injection credits share its link's index.
        port_[gp] = {router_ivcs_ + nl * vcs_, ~nl};
        break;
      }
    }
  }
  link_end_.resize(node_links);
  for (int nl = 0; nl < node_links; ++nl) {
    const topo::NodeLink& link = graph.node_links[nl];
    link_end_[nl] = {(graph.port_base[link.router] + link.port) * vcs_, link.router};
  }

  if (params.speedup > 1) {
    outq_cap_ = 2 * params.speedup;
    outq_.assign(static_cast<std::size_t>(ports) * outq_cap_, Flit{});
    outq_head_.assign(ports, 0);
    outq_count_.assign(ports, 0);
  }

  int max_ivcs = 0;
  for (RouterId r = 0; r < routers; ++r) max_ivcs = std::max(max_ivcs, graph.num_ports(r) * vcs_);
  MPPNET_ASSERT(max_ivcs <= 0x7fff, "a router with more input VCs than an owner index holds");
  mask_words_ = (max_ivcs + 63) / 64;
  int max_ports = 0;
  for (RouterId r = 0; r < routers; ++r) max_ports = std::max(max_ports, graph.num_ports(r));
  fast_ = mask_words_ == 1 && vcs_ < 64 && max_ports <= 16 && params.switching == Switching::Wormhole &&
          params.speedup == 1 && params.allocator == AllocatorKind::InputFirst &&
          params.allocator_iterations == 1 && params.vc_allocator_kind() == VcAllocatorKind::InputFirst &&
          params.vc_choice == VcChoice::LowestFree && params.head_cycles() == 0;
  // Head delays (routing, VC allocation) are the general router's: a cycle per VC at which its head may
  // take its next stage.
  routing_delay_ = params.routing_delay;
  vc_grant_delay_ = params.head_cycles() - params.routing_delay;
  if (params.head_cycles() > 0) stage_ready_.assign(router_ivcs_, 0);
  occupied_.assign(static_cast<std::size_t>(routers) * mask_words_, 0);  // the general router's
  router_.resize(routers + 1);  // and the credit sink, which never holds a flit
  for (RouterId r = 0; r < routers; ++r) {
    RouterState& s = router_[r];
    s.base = graph.port_base[r];
    s.ports = static_cast<std::uint16_t>(graph.num_ports(r));
    const int n = s.ports * vcs_;
    s.free = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    for (int p = 0; p < s.ports && fast_; ++p) s.sa_in |= std::uint64_t{1} << (p * vcs_ + vcs_ - 1);
  }
  router_flits_.assign(routers + 1, 0);
  multicast_ = routing.may_multicast();
  if (fast_) {
    out_requests_.assign(kMaxRouterPorts, 0);
    route_mask_.assign(router_ivcs_, 0);
    // Worth remembering only while the table stays small (it is 8 bytes per port and destination).
    const std::size_t memo_size = static_cast<std::size_t>(ports) * graph.num_nodes;
    // A route that depends on the input VC or on the packet's header is not a function of (input port,
    // destination), and a multicast's route is kept whole, not as a mask.
    if (!routing.uses_input_vc() && !routing.needs_header() && !multicast_ &&
        memo_size <= (std::size_t{1} << 16))
      route_memo_.assign(memo_size, 0);
    // Multicast fronts keep their routes (branch ports) as the general router does.
    if (multicast_) mc_front_.assign(routers, 0);
  }
  if (!fast_ || multicast_) ivc_route_.assign(router_ivcs_, topo::RouteSet{});
  most_credits_ = routing.port_selection() == topo::PortSelection::MostCredits;
  if (multicast_) {
    branch_vc_.assign(static_cast<std::size_t>(router_ivcs_) * topo::kMaxRouteCandidates, -1);
    branch_packet_.assign(branch_vc_.size(), kNoPacket);
    mc_rr_.assign(routers, 0);
    mc_order_.assign(max_ivcs, 0);
  }
  router_rng_.reserve(routers);
  for (RouterId r = 0; r < routers; ++r)
    router_rng_.emplace_back(seed, 1'000'000'000ull + r, core::Stream::RouteChoice);

  inj_.assign(static_cast<std::size_t>(node_links) * vnets_, Injection{});
  for (std::size_t s = 0; s < inj_.size(); ++s)
    inj_[s].next.vc = static_cast<std::uint32_t>(static_cast<int>(s % vnets_) * vcs_per_vnet_);
  inj_vc_busy_.assign(static_cast<std::size_t>(node_links) * vcs_, 0);
  inj_vnet_rr_.assign(node_links, 0);
  queue_head_.assign(static_cast<std::size_t>(graph.num_nodes) * vnets_, kNoPacket);
  queue_tail_.assign(queue_head_.size(), kNoPacket);
  queue_length_.assign(queue_head_.size(), 0);
  eject_hold_.assign(queue_head_.size(), 0);
  eject_per_cycle_ = std::max<std::uint32_t>(
      1, static_cast<std::uint32_t>(std::lround(params.eject_flits_per_cycle * kTokenOne)));
  eject_tokens_.assign(node_links, std::max(kTokenOne, eject_per_cycle_));
  node_eject_flits_.assign(graph.num_nodes, 0);
  node_packets_.assign(graph.num_nodes, 0);
  nack_.assign(graph.num_nodes, 0);
  eject_time_.assign(node_links, 0);
  eject_rr_.assign(node_links, 0);
  eject_occupied_.assign(node_links, 0);
  eject_blocked_.assign(node_links, 0);
  node_rng_.reserve(graph.num_nodes);
  for (NodeId v = 0; v < graph.num_nodes; ++v) node_rng_.emplace_back(seed, v, core::Stream::RouteChoice);

  flit_wheel_.reset(wheel_size_, ports + node_links);
  // At most one credit per crossbar pass per input port, and one per flit a node link drains.
  const int eject_max = std::max(1, static_cast<int>(std::ceil(params.eject_flits_per_cycle)));
  credit_wheel_.reset(wheel_size_, ports * params.speedup + node_links * eject_max);
  router_active_bits_.assign((routers + 1 + 63) / 64, 0);  // the sink's bit is never set
  visit_.assign(routers, 0);
  // Prefetching pays where the flit buffers alone are larger than a core's L2 cache (1 MiB on the
  // machines measured in docs/performance.md); on smaller networks it only adds instructions.
  prefetch_ = buffer_.size() * sizeof(Flit) > (std::size_t{1} << 20);
  ejecting_bits_.assign((graph.num_nodes + 63) / 64, 0);
  sending_bits_.assign(ejecting_bits_.size(), 0);

  waiting_.assign(max_ivcs, -1);
  ready_.assign(max_ivcs, -1);
  claim_.assign(max_ivcs, -1);
  claim_dist_.assign(max_ivcs, 0);
  touched_.assign(max_ivcs, -1);
  port_pick_.assign(kMaxRouterPorts, -1);
  port_dist_.assign(kMaxRouterPorts, 0);
  out_pick_.assign(kMaxRouterPorts, -1);
  out_dist_.assign(kMaxRouterPorts, 0);
  sa_eligible_.assign(max_ivcs, -1);
  vc_alloc_ = vc_alloc::allocator_for(params.vc_allocator_kind());
  vc_requests_.resize(max_ivcs);
  vc_candidates_.resize(static_cast<std::size_t>(max_ivcs) * topo::kMaxRouteCandidates);
  vc_grants_.resize(max_ivcs);
  if (params.vc_allocator_kind() == VcAllocatorKind::Wavefront) vc_cells_.resize(vc_candidates_.size());
  if (params.vc_choice == VcChoice::RoundRobin) vc_rr_.assign(ports, 0);
  if (params.vc_arbiter == VcArbiter::PerOutputVc)
    va_out_rr_.assign(static_cast<std::size_t>(ports) * static_cast<std::size_t>(vcs_), 0);
  switched_.assign(max_ivcs, 0);
  local_port_.resize(max_ivcs);
  local_vc_.resize(max_ivcs);
  for (int i = 0; i < max_ivcs; ++i) {
    local_port_[i] = static_cast<std::uint8_t>(i / vcs_);
    local_vc_[i] = static_cast<std::uint8_t>(i % vcs_);
  }
  MPPNET_ASSERT(max_ports <= kMaxRouterPorts, "router ports beyond the allocator's width");
}

long long Network::estimated_bytes(long long ports, long long routers, long long nodes, int links_per_node,
                                   const RouterParams& params) {
  // Computed in double: the callers compare it with a memory size, and a saturated topology count
  // (LLONG_MAX) must not overflow.
  const double p = static_cast<double>(ports), r = static_cast<double>(routers);
  const double links = static_cast<double>(nodes) * links_per_node, vcs = params.vcs;
  const double ivcs = (p + links) * vcs;
  const double wheel = std::max(params.pipeline_cycles + params.channel_latency, params.credit_cycles()) + 1;
  double bytes =
      ivcs * (static_cast<double>(params.buffer_flits) * sizeof(Flit) + sizeof(InputVc) + sizeof(OutputVc));
  bytes += p * vcs * static_cast<double>(std::max(sizeof(std::uint64_t), sizeof(topo::RouteSet)));
  bytes += p * (sizeof(PortEnd) + sizeof(std::int64_t) + sizeof(PortPointers) + sizeof(RouterId) +
                sizeof(topo::PortLink));
  bytes += wheel * ((p + links) * sizeof(FlitArrival) + (p * params.speedup + links) * sizeof(CreditArrival));
  bytes += r * (sizeof(RouterState) + sizeof(core::RandomStream) + 2 * sizeof(std::int32_t));
  // Per node and link: source queues' heads, injection state, ejection state, its random stream.
  bytes += static_cast<double>(nodes) * (sizeof(core::RandomStream) + 64) + links * (sizeof(Injection) + 64);
  return bytes >= 9e18 ? std::numeric_limits<long long>::max() : static_cast<long long>(bytes);
}

void Network::use_general_router() {
  MPPNET_ASSERT(now_ == 0, "the router kind changes only before the first cycle");
  fast_ = false;
  ivc_route_.assign(router_ivcs_, topo::RouteSet{});
  route_mask_.clear();
  route_memo_.clear();
}

void Network::enable_acks(const AckParams& p) {
  MPPNET_ASSERT(counters_.packets_injected == 0 && queued_packets_ == 0,
                "acks are enabled before any packet");
  acks_.configure(p);
  unacked_.assign(p.window > 0 ? queue_head_.size() : 0, 0);
}

void Network::step() {
  delivered_.clear();
  // Before this cycle's deliveries post theirs: every ack arrives at least a cycle after its packet.
  if (acks_.enabled()) {
    acks_.collect(now_);
    if (!unacked_.empty())
      for (const Ack& a : acks_.arrived()) --unacked_[static_cast<std::size_t>(a.src) * vnets_ + a.vnet];
  }
  send_slot_ = static_cast<int>((now_ + hop_delay_) % wheel_size_);
  credit_slot_ = static_cast<int>((now_ + params_.credit_cycles()) % wheel_size_);
  inject_slot_ = static_cast<int>((now_ + params_.channel_latency) % wheel_size_);
  latch();
  flit_out_ = flit_wheel_.open(send_slot_);
  inject_out_ = flit_wheel_.open(inject_slot_);
  credit_out_ = credit_wheel_.open(credit_slot_);
  // Nodes in increasing order, so that delivered() has a fixed order. A node leaves a list when its
  // job there is done (cleared without a branch).
  visit_bits(ejecting_bits_, [this](NodeId v) {
    eject(v);
    return node_eject_flits_[v] > 0;
  });
  visit_bits(sending_bits_, [this](NodeId v) {
    send(v);
    return node_packets_[v] > 0;
  });
  if (shuffle_) {
    evaluate_routers_shuffled();
  } else {
    // Increasing router order: memory is walked forward, which the hardware prefetcher rewards on large
    // networks. Any order gives the same result.
    evaluate_routers();
  }
  flit_wheel_.close(send_slot_, flit_out_);
  flit_wheel_.close(inject_slot_, inject_out_);
  credit_wheel_.close(credit_slot_, credit_out_);
  ++now_;
}

void Network::evaluate_routers() {
  if (!prefetch_) {
    if (fast_ && multicast_) {
      visit_bits(router_active_bits_, [this](RouterId r) { return evaluate_router_fast<true>(r); });
    } else if (fast_) {
      visit_bits(router_active_bits_, [this](RouterId r) { return evaluate_router_fast<false>(r); });
    } else {
      visit_bits(router_active_bits_,
                 [this](RouterId r) { return evaluate_router(r) && router_holds_flits(r); });
    }
    return;
  }
  // A network whose state outgrows the caches: the routers to visit are listed first, so that the
  // lines of those a few places ahead can be asked for early: the router's own line, then (once that
  // is in) the records and buffers of its VCs holding flits.
  RouterId* visit = visit_.data();
  int count = 0;
  for (std::size_t w = 0; w < router_active_bits_.size(); ++w)
    for (std::uint64_t bits = router_active_bits_[w]; bits != 0; bits &= bits - 1)
      visit[count++] = static_cast<RouterId>(w * 64 + std::countr_zero(bits));
  constexpr int kLineAhead = 6, kVcsAhead = 3;
  for (int k = 0; k < count; ++k) {
    if (k + kLineAhead < count) __builtin_prefetch(&router_[visit[k + kLineAhead]]);
    if (fast_ && k + kVcsAhead < count) {
      const RouterState& next = router_[visit[k + kVcsAhead]];
      const std::int32_t ivc0 = next.base * vcs_;
      for (std::uint64_t bits = next.occupied; bits != 0; bits &= bits - 1) {
        const std::int32_t ivc = ivc0 + std::countr_zero(bits);
        __builtin_prefetch(&ivc_[ivc]);
        __builtin_prefetch(&buffer_[static_cast<std::size_t>(ivc) * depth_]);
      }
    }
    const RouterId r = visit[k];
    const bool awake = fast_ ? evaluate_router_fast(r) : evaluate_router(r) && router_holds_flits(r);
    router_active_bits_[r / 64] &= ~(std::uint64_t{!awake} << (r % 64));
  }
}

void Network::latch() {
  const int slot = static_cast<int>(now_ % wheel_size_);
  const int vcs = vcs_;
  const bool fast = fast_;
  const bool prefetch = prefetch_;
  const int links_per_node = graph_.links_per_node;
  // Locals, so that the stores below (which the compiler cannot tell apart from the wheel's own
  // bookkeeping) do not force a reload per arrival.
  constexpr int kAhead = 8;  // arrivals whose lines are requested early (misses on large networks)
  for (const FlitArrival *a = flit_wheel_.begin(slot), *end = flit_wheel_.end(slot); a != end; ++a) {
    if (prefetch && end - a > kAhead) {
      const FlitArrival& later = a[kAhead];
      __builtin_prefetch(&ivc_[later.ivc], 1);
      __builtin_prefetch(&buffer_[static_cast<std::size_t>(later.ivc) * depth_], 1);
      if (later.owner >= 0) __builtin_prefetch(&router_[later.owner], 1);
    }
    if (a->owner >= 0) {
      const RouterId r = a->owner;
      RouterState& rs = router_[r];
      const int local = a->ivc - rs.base * vcs;
      if (fast) {
        rs.occupied |= std::uint64_t{1} << local;
      } else if (ivc_[a->ivc].count == 0) {
        set_occupied(r, local, true);
      }
      push_input(a->ivc, a->flit);
      if (!fast) ++router_flits_[r];
      activate_router(r);
    } else {
      const int nl = ~a->owner;
      const NodeId v = links_per_node == 1 ? nl : nl / links_per_node;
      push_input(a->ivc, a->flit);
      eject_occupied_[nl] |= std::uint64_t{1} << (a->ivc - router_ivcs_ - nl * vcs);
      ++node_eject_flits_[v];
      set_bit(ejecting_bits_, v);
    }
  }
  flit_wheel_.clear(slot);
  for (const CreditArrival *c = credit_wheel_.begin(slot), *end = credit_wheel_.end(slot); c != end; ++c) {
    if (prefetch && end - c > kAhead) {
      __builtin_prefetch(&ovc_[c[kAhead].ovc], 1);
      __builtin_prefetch(&router_[c[kAhead].owner], 1);
    }
    OutputVc& o = ovc_[c->ovc];
    ++o.credits;
    // Without branches, as which of these hold varies from credit to credit: the input VC holding the
    // output VC learns it may advance (the general router ignores these bits), and a sleeping router
    // that holds flits wakes up.
    RouterState& rs = router_[c->owner];
    rs.credit |= std::uint64_t{o.owner >= 0} << (o.owner & 63);
    const bool holds = fast ? rs.occupied != 0 : router_flits_[c->owner] != 0;
    const auto u = static_cast<std::uint32_t>(c->owner);
    router_active_bits_[u / 64] |= std::uint64_t{holds} << (u % 64);
  }
  credit_wheel_.clear(slot);
}

void Network::evaluate_routers_shuffled() {
  std::vector<RouterId> order;
  for (std::size_t w = 0; w < router_active_bits_.size(); ++w)
    for (std::uint64_t bits = router_active_bits_[w]; bits != 0; bits &= bits - 1)
      order.push_back(static_cast<RouterId>(w * 64 + std::countr_zero(bits)));
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[shuffle_rng_.below(static_cast<std::uint32_t>(i))]);
  for (const RouterId r : order)
    if (!evaluate_router(r) || !router_holds_flits(r))
      router_active_bits_[r / 64] &= ~(std::uint64_t{1} << (r % 64));
}

std::vector<std::int64_t> Network::port_flits() const {
  std::vector<std::int64_t> flits(port_.size());
  for (std::size_t gp = 0; gp < port_.size(); ++gp) flits[gp] = port_flits_[gp];
  return flits;
}

std::int64_t Network::credit_deficit() const {
  std::int64_t missing = 0;
  for (std::size_t gp = 0; gp < graph_.ports.size(); ++gp) {
    if (graph_.ports[gp].kind == topo::PeerKind::None) continue;
    for (int vc = 0; vc < vcs_; ++vc) missing += depth_ - ovc_[gp * vcs_ + vc].credits;
  }
  for (std::size_t c = router_ivcs_; c < ovc_.size(); ++c) missing += depth_ - ovc_[c].credits;
  return missing;
}

std::string Network::describe_blocked(int max_lines) const {
  std::string out;
  int lines = 0;
  for (RouterId r = 0; r < graph_.num_routers(); ++r) {
    for (PortId p = 0; p < graph_.num_ports(r); ++p) {
      for (int vc = 0; vc < vcs_; ++vc) {
        const std::int32_t ivc = (graph_.port_base[r] + p) * vcs_ + vc;
        if (ivc_[ivc].count == 0) continue;
        if (lines++ == max_lines) return out + "...\n";
        const Flit& f = buffer_[static_cast<std::size_t>(ivc) * depth_ + ivc_[ivc].head];
        const Packet& pk = packets_[f.packet];
        const InputVc& s = ivc_[ivc];
        // The bitmask router keeps "routed" and "holds an output VC" in its masks only.
        const int local = p * vcs_ + vc;
        const bool routed = fast_ ? (router_[r].routed >> local & 1) != 0 : s.routed;
        const bool has_vc = fast_ ? (router_[r].alloc >> local & 1) != 0 : s.out_vc >= 0;
        const bool multicast = fast_ ? multicast_ && (mc_front_[r] >> local & 1) != 0
                                     : s.out_port == -1 && is_multicast(ivc_route_[ivc]);
        std::string wait;
        if (!routed) {
          wait = "a route";
        } else if (!has_vc) {
          wait = multicast ? "a free output VC on every branch" : "a free output VC";
        } else if (s.out_port == kMulticastPort) {
          wait = "a credit on every branch of its multicast";
        } else {
          wait = fmt::format("a credit on output port {} VC {} (credits {})", s.out_port, s.out_vc,
                             ovc_[(graph_.port_base[r] + s.out_port) * vcs_ + s.out_vc].credits);
        }
        out += fmt::format("router {} input port {} VC {}: {} flits, front packet {} -> {} waits for {}\n", r,
                           p, vc, ivc_[ivc].count, pk.src, pk.dest, wait);
      }
    }
  }
  return out;
}

}  // namespace mppnet::net
