// net/network.hpp: the generic flit-level network: input-queued VC routers, channels, credits, endpoints.
//
// Time advances one cycle per step(). A cycle has two phases (ARCHITECTURE.md, "Time and the cycle"):
//  - latch: flits and credits whose channel delay ends this cycle are moved from the timing wheel into
//    input buffers and credit counters;
//  - evaluate: every active node and router reads only its own latched state and decides; whatever it
//    sends goes into a future slot of the wheel (every delay is at least one cycle).
// No component reads what another writes in the same cycle, so the order of visits cannot change the
// result (a test shuffles it to prove so). Only components holding flits are visited.
//
// Endpoints: every node has an unbounded source queue per virtual network (open loop); inject() puts a
// packet in one, the node sends it flit by flit when a VC of its network on one of its links is free, and
// delivered() lists the packets whose tail reached their destination during the last step. A node drains
// arriving flits at RouterParams::eject_flits_per_cycle per link and returns credits as it does, unless
// its owner holds ejection on that virtual network (a node that cannot accept more work of a kind).
//
// Multicast: where the routing returns a multicast set, the router takes an output VC on every branch at
// once (all or none) and moves each flit to all branches together, when every branch has a credit
// (lockstep, the Meiko CS-2's rule). Each branch after the first carries a copy of the packet under a
// packet id of its own, so every copy is delivered, and released, like a unicast packet; a delivered
// packet's `dest` is the node that received it.
//
// Acknowledgements (off unless enable_acks()): every delivered packet sends an ack back to its source
// along a delay line computed from its path (net/ack_path.hpp); a multicast's copies send one merged ack
// between them, after the last copy. acknowledged() lists those arriving in the last step.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "net/ack_path.hpp"
#include "net/network_model.hpp"
#include "net/packet.hpp"
#include "net/router_params.hpp"
#include "net/timing_wheel.hpp"
#include "net/vc_alloc.hpp"
#include "topo/graph.hpp"
#include "topo/routing.hpp"

namespace mppnet::net {

constexpr int kMaxRouterPorts = 256;  // local port numbers are stored in 8 bits

class Network final : public NetworkModel {
 public:
  // REQUIRES: `routing` was built for `graph`; both outlive the network.
  Network(const topo::Graph& graph, const topo::Routing& routing, const RouterParams& params,
          std::uint64_t seed);

  // Bytes the network's fixed state (and its graph) will take for `ports` router ports (node ports
  // included), `routers` routers and `nodes` nodes with `links_per_node` links each: buffers, VC state,
  // timing wheels, per-port and per-node arrays. Packets in flight and source queues come on top. For
  // refusing a network that cannot fit before building it; saturates instead of overflowing.
  static long long estimated_bytes(long long ports, long long routers, long long nodes, int links_per_node,
                                   const RouterParams& params);

  Cycle now() const override { return now_; }

  // Puts a packet of `flits` flits from src to dest in src's source queue at now(). Returns its id,
  // valid until release(). `route_header` is the routing word the first router sees (a source route, a
  // multicast's range), for routings that read one.
  // REQUIRES: 0 <= vnet < params().vnets; route_header == 0 unless the routing needs_header().
  PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag = 0, int vnet = 0,
                  std::uint64_t route_header = 0) override;
  PacketId inject(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet,
                  const topo::SourceRoute& route) override;
  const topo::SourceRoute& source_route(PacketId id) const override {
    MPPNET_ASSERT(source_routes_, "this network's routing keeps no source routes");
    return packets_.source_route(id);
  }

  // While held, node v drains no flits of virtual network `vnet`: they back up into the network.
  void hold_ejection(NodeId v, int vnet, bool hold) override;
  bool ejection_held(NodeId v, int vnet) const { return eject_hold_[v * vnets_ + vnet] != 0; }

  // Advances one cycle.
  void step() override;

  // Packets whose tail was drained during the last step, in increasing destination order (a multicast's
  // copies each under its own id).
  std::span<const PacketId> delivered() const override { return delivered_; }
  const Packet& packet(PacketId id) const override { return packets_[id]; }
  // The packet's routing header word as the last router's route() left it (0 for routings that keep
  // none, topo::Routing::needs_header()).
  std::uint64_t route_header(PacketId id) const override {
    return route_header_ ? packets_.route_header(id) : 0;
  }
  // Returns a delivered packet's slot to the pool.
  void release(PacketId id) override { packets_.release(id); }

  // From now on every delivered packet's ack returns to its source after AckPath::delay(hops) cycles,
  // and with p.window > 0 a node starts a packet of a virtual network only while fewer than p.window of
  // its packets of that network are unacknowledged. REQUIRES: no packet injected yet.
  void enable_acks(const AckParams& p);
  // The acks that reached their sources during the last step, in the order their packets were drained.
  std::span<const Ack> acknowledged() const override { return acks_.arrived(); }
  const AckPath& ack_path() const { return acks_; }
  // While set, node v refuses what it drains: each packet's ack is a NACK (a multicast's merged ack is a
  // NACK if any copy was refused). The packet is still drained and delivered, since a destination must
  // always take what arrives (accept-and-NACK) or back-pressure could close a cycle through the nodes
  // (reference note 003 §2.10).
  void set_nack(NodeId v, bool refuse) { nack_[static_cast<std::size_t>(v)] = refuse ? 1 : 0; }

  // Byte errors (a fault hook for machines that know a packet's path when they inject it): marks unicast
  // packet `id` corrupted, its bad CRC first seen at `input` (an index of input_errors()). The packet
  // still crosses its whole path, since a wormhole cannot take back what it has sent, but at its
  // destination it is aborted: counted at `input` only (the switches after it see the error already
  // flagged and do not count it, reference note 003 §6 #21), not delivered, released by the network,
  // and its ack is a NACK so that the source can send it again. Off, it costs one branch per packet.
  // REQUIRES: a packet not yet delivered; 0 <= input < input_count().
  void mark_corrupt(PacketId id, std::int32_t input);
  // Inputs that count errors: router input ports first (graph.port_base[r] + p), then the nodes' links
  // (ports.size() + v * links_per_node + l).
  std::int32_t input_count() const {
    return static_cast<std::int32_t>(graph_.ports.size()) + graph_.num_nodes * graph_.links_per_node;
  }
  // Bad CRCs counted per input (empty until the first mark_corrupt), and packets aborted so far.
  std::span<const std::int64_t> input_errors() const { return input_errors_; }
  std::int64_t packets_aborted() const { return packets_aborted_; }

  const NetworkCounters& counters() const override { return counters_; }
  // Flits sent on each router output port so far, indexed by graph.port_base[r] + p.
  std::vector<std::int64_t> port_flits() const override;

  std::int64_t flits_in_network() const override {
    return counters_.flits_injected + counters_.flits_replicated - counters_.flits_ejected;
  }
  std::int64_t queued_packets() const override { return queued_packets_; }  // waiting in source queues
  std::int64_t source_queue_length(NodeId v) const;                         // all virtual networks
  std::int64_t source_queue_length(NodeId v, int vnet) const override {
    return queue_length_[v * vnets_ + vnet];
  }
  bool idle() const override {
    return flits_in_network() == 0 && queued_packets_ == 0 && acks_.in_flight() == 0;
  }
  // Last cycle in which any flit moved (injected, switched or drained).
  Cycle last_progress() const override { return last_progress_; }

  // Sum over all output VCs of credits missing while the network is idle: zero when credits are conserved.
  std::int64_t credit_deficit() const;
  // One line per input VC holding flits: where it is, what its front packet waits for.
  std::string describe_blocked(int max_lines = 20) const override;

  // Test mode: visit active routers in a random order every cycle (must not change any result).
  void shuffle_visit_order(bool on) override { shuffle_ = on; }
  // Test mode: evaluate every router with the general allocators even where the bitmask router of
  // fast_router.cpp applies (must not change any result). REQUIRES: now() == 0.
  void use_general_router();
  bool uses_fast_router() const { return fast_; }

  const topo::Graph& graph() const override { return graph_; }
  const RouterParams& params() const override { return params_; }

 private:
  static constexpr std::uint32_t kTokenOne = 1u << 16;  // one flit in 16.16 fixed point

  struct FlitArrival {
    std::int32_t ivc;    // global input-VC index of the receiver (router or node ejection buffer)
    std::int32_t owner;  // the receiving router, or ~(node link)
    Flit flit;
  };
  // Per input VC (router input or node ejection buffer): its ring, and where its front packet goes.
  struct InputVc {
    std::uint16_t head = 0;      // ring slot of the front flit
    std::uint16_t count = 0;     // flits held
    std::int16_t out_port = -1;  // chosen output port, -1 while not routed or several candidates
    std::int8_t out_vc = -1;     // allocated output VC, -1 while waiting for one
    bool routed = false;
  };
  static_assert(sizeof(InputVc) == 8);
  // Per output VC: credits toward the peer's buffer, and the local input VC that holds it (-1: free).
  struct OutputVc {
    std::int16_t credits = 0;
    std::int16_t owner = -1;
  };
  // Per router port, the channel's far end, resolved once; 8 bytes, so that a router's ports share a
  // cache line. Channels are symmetric: the input VCs this port's output feeds and the output VCs
  // (credit counters) this port's input returns credits to have the same index, at the same owner.
  struct PortEnd {
    std::int32_t vc_base = -1;  // the peer's first VC on this channel
    std::int32_t owner = 0;     // the peer router, or ~(node link)
  };
  // Credits returned to a node go to the sink record, which never holds a flit and so wakes nothing.
  // (An arithmetic select: the compiler's branch here is mispredicted whenever a route ends.)
  std::int32_t credit_owner(const PortEnd& e) const {
    return e.owner + ((e.owner >> 31) & (credit_sink_ - e.owner));
  }
  // The general allocators' round-robin pointers, per router port.
  struct PortPointers {
    std::uint16_t sa_in = 0;   // next VC to favour at this input
    std::uint16_t sa_out = 0;  // next input (port or VC) to favour at this output
  };

  void latch();
  void eject(NodeId v);  // drain arrived flits at the ejection rate
  // A corrupted packet's tail was drained at `now`: count its error, NACK it, release it.
  void abort_packet(PacketId id, Cycle now);
  void send(NodeId v);                     // start queued packets on free links and send one flit per link
  void start_packets(NodeId v, int vnet);  // bind the front packets of a source queue to free links
  // Returns whether anything changed (a VC allocated, a flit switched or sent). A router that changed
  // nothing will change nothing next cycle either, unless a flit or a credit reaches it: it sleeps.
  bool evaluate_router(RouterId r);
  // The same for the common configuration, on per-router bitmasks (fast_router.cpp); it returns false
  // as well when the router is left holding no flit, so a true result means "stay awake". kMulticast:
  // the routing may multicast (multicast_); without it the unicast code runs alone, untouched.
  template <bool kMulticast>
  bool evaluate_router_fast(RouterId r);
  bool evaluate_router_fast(RouterId r) {
    return multicast_ ? evaluate_router_fast<true>(r) : evaluate_router_fast<false>(r);
  }
  // Its VC allocation; kMulticast: a multicast waits among `waiting` (mc: the multicast fronts), and the
  // general input-first allocator's rules for multicasts apply (fast_router.cpp).
  template <bool kMulticast>
  bool allocate_vcs_fast(RouterId r, std::uint64_t waiting, std::uint64_t mc);
  // Its switch allocation when multicasts hold output VCs (`held`; net/fast_multicast.cpp), as
  // allocate_switch() does it: the multicasts that can advance take their ports first and whole, in the
  // order of take_for_multicasts(), and cross (`moved` says whether any did); the separable stages run
  // for the rest. Returns the unicast VCs among `go` (those that can advance) that won the switch: at
  // most one per input port and per output port, so the bitmask router's stages grant each of them.
  std::uint64_t switch_multicasts_fast(RouterId r, std::uint64_t go, std::uint64_t held, bool& moved);
  void route_front(RouterId r, int ivc_local);
  std::uint64_t candidate_mask(const topo::RouteSet& rs) const;
  // `rs` narrowed to its lowest VC under RouterParams::in_order (one branch per flit: no cost otherwise).
  topo::RouteSet ordered(topo::RouteSet rs) const noexcept {
    if (params_.in_order) rs.vc_hi = rs.vc_lo;
    return rs;
  }
  // What every route must be: at least one port; a multicast only from a routing that declares it may
  // (the network keeps branch state only for those).
  void check_route(const topo::RouteSet& rs) const {
    MPPNET_ASSERT(rs.count > 0, "routing returned no candidate port");
    MPPNET_ASSERT(!rs.multicast || multicast_,
                  "a route returned a multicast set, but its routing does not declare kMayMulticast");
  }
  // InputVc::out_port of a multicast: its branch ports are ivc_route_[g].ports, their output VCs
  // branch_vc_[g * K + c] and the packet copies they carry branch_packet_[g * K + c] (K =
  // topo::kMaxRouteCandidates; branch 0 carries the packet itself).
  static constexpr std::int16_t kMulticastPort = -2;
  // Calls visit(o) for each output port of input VC `g` (global), which holds its output VC(s).
  template <class Visit>
  void for_each_output(std::int32_t g, Visit visit) const {
    if (ivc_[g].out_port != kMulticastPort) {
      visit(static_cast<int>(ivc_[g].out_port));
      return;
    }
    const topo::RouteSet& rs = ivc_route_[g];
    for (int c = 0; c < rs.count; ++c) visit(static_cast<int>(rs.ports[c]));
  }
  static bool is_multicast(const topo::RouteSet& rs) { return rs.multicast && rs.count > 1; }
  // Multicast VC allocation (net/multicast.cpp): local input VC i won every branch; branches[c].vc is
  // the VC it takes on branch c.
  void grant_branches(RouterId r, int i, const vc_alloc::Candidate* branches);
  // Local input VC i takes the output VCs branch_vc_ names on its branches (both routers).
  void hold_branches(RouterId r, int i);
  // Multicast switch allocation, before the separable stages: in round-robin order from mc_rr_[r], each
  // multicast in ready[0..count) that can advance takes its input port and all its outputs if they are
  // still free (picks at priority -1, listed in ins and outs).
  void take_for_multicasts(RouterId r, const std::int32_t* ready, int count, std::int32_t* outs,
                           int& out_count, std::int32_t* ins, int& in_count);
  // Multicast switch traversal: if local input VC i won every one of its outputs in out_pick_, its front
  // flit goes to all of them (returns the copies sent); its picks are cleared either way.
  int switch_multicast(RouterId r, int i, bool move_pointers);
  // The crossbar pass itself (both routers): local input VC i's front flit leaves its buffer (a credit
  // upstream), a head is cloned for the branches after the first, a copy goes to every branch output
  // VC, and a tail frees them. Returns the flit. REQUIRES: every branch has a credit.
  Flit cross_multicast(RouterId r, int i);
  // A copy of packet `id` (its record, hops and routing word) under a new id, for a multicast branch.
  PacketId clone_packet(PacketId id);
  // Credits toward the next buffers on output port `port` (local) over VCs [vc_lo, vc_hi]: the free
  // space of that channel for the route's VCs, what PortSelection::MostCredits compares.
  int port_credits(std::int32_t ivc0, int port, int vc_lo, int vc_hi) const {
    int credits = 0;
    for (int vc = vc_lo; vc <= vc_hi; ++vc) credits += ovc_[ivc0 + port * vcs_ + vc].credits;
    return credits;
  }
  // Of `found` candidate output VCs (local), the one to ask for: at random, or with MostCredits the one
  // whose port has the most credits over [vc_lo, vc_hi], ties at random. Both routers call it with the
  // same candidates in the same order, so they draw the same numbers.
  int choose_candidate(RouterId r, std::int32_t ivc0, const int* options, int found, int vc_lo, int vc_hi);
  // VC allocation for the input VCs in waiting[0..count); appends the winners to ready[*ready_count].
  void allocate_vcs(RouterId r, const std::int32_t* waiting, int count, std::int32_t* ready,
                    int* ready_count);
  int allocate_switch(RouterId r, const std::int32_t* ready, int count);
  // Moves the flits of the winners out_pick_[outs[k]] through the crossbar; resets out_pick_. Only the
  // grants outs[0..rr_count) move the round-robin pointers (those of the allocator's first iteration).
  int switch_granted(RouterId r, const std::int32_t* outs, int out_count, int rr_count);
  bool output_vc_usable(std::int32_t ovc, int packet_flits) const {
    if (ovc_[ovc].owner >= 0) return false;
    // Cut-through and store-and-forward take a VC only when the next buffer can hold the whole packet.
    return params_.switching == Switching::Wormhole || ovc_[ovc].credits >= packet_flits;
  }
  bool can_advance(RouterId r, int ivc_local) const;

  // The per-flit primitives, inline because every flit-hop takes each of them once.
  void send_flit(RouterId r, PortId out, Flit f) {
    const std::int32_t gp = graph_.port_base[r] + out;
    MPPNET_DEBUG_ASSERT(port_[gp].vc_base >= 0, "a flit was switched to a port that leads nowhere");
    *flit_out_++ = {port_[gp].vc_base + f.vc, port_[gp].owner, f};
    ++port_flits_[gp];
  }
  // Speedup > 1: a switched flit waits in its output port's queue (global port gp) for the channel.
  void push_output_queue(std::int32_t gp, Flit f) {
    int slot = outq_head_[gp] + outq_count_[gp];
    if (slot >= outq_cap_) slot -= outq_cap_;
    outq_[static_cast<std::size_t>(gp) * outq_cap_ + slot] = f;
    ++outq_count_[gp];
  }
  // A buffer slot was freed: a credit for output VC `ovc` of `owner` (a router, or the credit sink).
  void return_credit(std::int32_t ovc, std::int32_t owner) { *credit_out_++ = {ovc, owner}; }
  void push_input(std::int32_t ivc, Flit f) {
    const int count = ivc_[ivc].count;
    MPPNET_DEBUG_ASSERT(count < depth_, "flit arrived at a full buffer: credit accounting is broken");
    const int slot = wrap(ivc_[ivc].head + count);
    buffer_[static_cast<std::size_t>(ivc) * depth_ + slot] = f;
    ivc_[ivc].count = static_cast<std::uint16_t>(count + 1);
  }
  Flit pop_input(std::int32_t ivc) {
    const int head = ivc_[ivc].head;
    const Flit f = buffer_[static_cast<std::size_t>(ivc) * depth_ + head];
    ivc_[ivc].head = static_cast<std::uint16_t>(wrap(head + 1));
    --ivc_[ivc].count;
    return f;
  }
  void set_occupied(RouterId r, int local, bool occupied) {
    std::uint64_t& word = occupied_[static_cast<std::size_t>(r) * mask_words_ + local / 64];
    const std::uint64_t bit = std::uint64_t{1} << (local % 64);
    word = occupied ? word | bit : word & ~bit;
  }
  void activate_router(RouterId r) {
    const auto u = static_cast<std::uint32_t>(r);
    router_active_bits_[u / 64] |= std::uint64_t{1} << (u % 64);
  }
  void evaluate_routers();           // the active routers, in increasing order
  void evaluate_routers_shuffled();  // test mode: the same cycle, routers in a random order
  bool router_holds_flits(RouterId r) const {
    return fast_ ? router_[r].occupied != 0 : router_flits_[r] != 0;
  }
  // The input VC ring slot `ahead` places after the ring's start, wrapped without a branch.
  int wrap(int ahead) const { return ahead - (depth_ & -static_cast<int>(ahead >= depth_)); }
  // A node has two jobs, each with its own list: draining arrived flits, and sending queued packets.
  static void set_bit(std::vector<std::uint64_t>& bits, NodeId v) {
    const auto u = static_cast<std::uint32_t>(v);
    bits[u / 64] |= std::uint64_t{1} << (u % 64);
  }

  const topo::Graph& graph_;
  const topo::Routing& routing_;
  RouterParams params_;
  int vcs_;
  int vnets_;
  int vcs_per_vnet_;
  int depth_;
  int hop_delay_;  // pipeline_cycles + channel_latency
  int wheel_size_;
  Cycle now_ = 0;

  PacketPool packets_;
  NetworkCounters counters_;

  // Input buffers: router input VCs first (global port gp * vcs + v), then node ejection VCs
  // (router_ivcs_ + (node link) * vcs + v). Each VC owns `depth_` consecutive slots.
  std::int32_t router_ivcs_ = 0;
  std::vector<Flit> buffer_;
  std::vector<InputVc> ivc_;
  std::vector<topo::RouteSet> ivc_route_;

  // Output VCs: router ports first (gp * vcs + v), then node injection links (router_ivcs_ + link * vcs
  // + v): credits toward the peer's buffer. Router output VCs also have an owning input VC.
  std::vector<OutputVc> ovc_;
  std::vector<RouterId> port_router_;  // owner of each global port
  // Channel ends, resolved once: the first input VC a router output port feeds, and the first output VC
  // (credit counter) a router input port returns credits to; the same for node links.
  std::vector<PortEnd> port_;
  std::vector<std::int64_t> port_flits_;  // flits sent on each port's output so far
  std::vector<PortPointers> port_rr_;     // general router only
  std::int32_t credit_sink_ = 0;          // index of the sink record in router_ (= the router count)
  // Per node link: its router and the first VC of its port there, which indexes both the router's input
  // VCs fed by the node and the node's injection credits (and ejection buffers at router_ivcs_ + ...).
  struct LinkEnd {
    std::int32_t vc_base;
    std::int32_t router;
  };
  std::vector<LinkEnd> link_end_;
  // Per router: input VCs holding flits, as bits (mask_words_ words per router).
  int mask_words_ = 1;
  std::vector<std::uint64_t> occupied_;

  // Per router, one cache line: what an evaluation reads first, and the masks of the bitmask router
  // (fast_router.cpp, when fast_): bits over local input VCs (holding flits, routed, holding an output
  // VC, that output VC has a credit) and over local output VCs (free); and its switch allocator's
  // round-robin pointers, kept here rather than per port so that a flit-hop writes no port record.
  struct alignas(64) RouterState {
    std::uint64_t occupied = 0, routed = 0, alloc = 0, credit = 0, free = 0;
    // Round-robin pointers as the last winners (the next pick favours the one after): per input port p,
    // one bit among p's VCs; per output port o, the input port in bits 4o..4o+3.
    std::uint64_t sa_in = 0;
    std::uint64_t sa_out = ~std::uint64_t{0};
    std::int32_t base = 0;  // graph port_base: the router's first global port
    std::uint16_t ports = 0;
    std::uint16_t va_rr = 0;  // next local input VC to favour in VC allocation
  };
  static_assert(sizeof(RouterState) == 64);
  std::vector<RouterState> router_;
  std::vector<std::int32_t> router_flits_;  // general router: flits held (buffers and output queues)
  // Bitmask router: per router input VC, the output VCs (local bits) its front packet may take.
  std::vector<std::uint64_t> route_mask_;
  // Bitmask router on small networks whose routes ignore the input VC: per (global input port,
  // destination), the candidate mask of the first virtual network, or 0 until first needed.
  std::vector<std::uint64_t> route_memo_;
  bool fast_ = false;
  std::vector<std::uint64_t> out_requests_;  // scratch: per output port, the input ports asking for it

  // Speedup > 1: flits switched but not yet on their channel, per output port (ring of 2 * speedup).
  int outq_cap_ = 0;
  std::vector<Flit> outq_;
  std::vector<std::uint8_t> outq_head_, outq_count_;

  std::vector<core::RandomStream> router_rng_;

  // Endpoints, per node link (nl = v * links_per_node + l) and virtual network (nl * vnets + vnet): the
  // packet being sent and its VC; per node link: injection VC ownership, which network sends next; per
  // node and network (v * vnets + vnet): source queue, ejection hold; per node: ejection tokens, flits
  // held.
  // The packet a node link is sending on one virtual network: the next flit to send (packet, destination,
  // VC, head already filled in) and how many are left; `next.vc` stays as the VC to try first next time.
  struct Injection {
    PacketId packet = kNoPacket;
    std::int32_t left = 0;
    Flit next;
  };
  std::vector<Injection> inj_;
  std::vector<std::uint8_t> inj_vc_busy_;  // (node link) * vcs + v
  std::vector<std::uint8_t> inj_vnet_rr_;  // per node link
  std::vector<PacketId> queue_head_, queue_tail_;
  std::vector<std::int64_t> queue_length_;
  std::vector<std::uint8_t> eject_hold_;
  std::vector<std::uint32_t> eject_tokens_;     // per node link, 16.16 fixed point
  std::uint32_t eject_per_cycle_;               // 16.16 fixed point
  std::vector<std::int32_t> node_eject_flits_;  // flits held in the node's ejection buffers
  std::vector<std::int32_t> node_packets_;      // packets queued or being sent
  std::vector<std::uint8_t> nack_;              // per node: its acks are NACKs (set_nack)
  std::vector<Cycle> eject_time_;               // per node link: when its token bucket was last filled
  std::vector<std::uint16_t> eject_rr_;
  std::vector<std::uint64_t> eject_occupied_;  // per node link: ejection VCs holding flits
  std::vector<std::uint64_t> eject_blocked_;   // per node link: ejection VCs of held virtual networks
  std::vector<core::RandomStream> node_rng_;
  std::int64_t queued_packets_ = 0;

  // Timing wheel (timing_wheel.hpp): slot (t % wheel_size_) holds what arrives at cycle t.
  WheelSlots<FlitArrival> flit_wheel_;
  struct CreditArrival {
    std::int32_t ovc;    // global output-VC index (router ports, then node injection links)
    std::int32_t owner;  // the router that owns it, or the credit sink (a node's injection credit)
  };
  WheelSlots<CreditArrival> credit_wheel_;

  // Active components, as bitmaps visited in increasing order: any order gives the same result for
  // routers (shuffle mode proves it), and the node order fixes the order of delivered().
  std::vector<std::uint64_t> router_active_bits_;
  std::vector<RouterId> visit_;               // scratch: this cycle's active routers, in increasing order
  bool prefetch_ = false;                     // large network: evaluate_routers() prefetches ahead
  std::vector<std::uint64_t> ejecting_bits_;  // nodes holding flits in their ejection buffers
  std::vector<std::uint64_t> sending_bits_;   // nodes with packets queued or being sent
  std::vector<PacketId> delivered_;

  Cycle last_progress_ = 0;
  bool shuffle_ = false;
  core::RandomStream shuffle_rng_;

  // Scratch for allocation, sized once for the largest router (n = ports * vcs).
  std::vector<std::int32_t> waiting_, ready_;        // local input VCs, n each
  std::vector<std::int32_t> claim_, claim_dist_;     // per local output VC: best requester, its priority
  std::vector<std::int32_t> touched_;                // output VCs claimed this cycle
  std::vector<std::int32_t> port_pick_, port_dist_;  // per port: chosen local input VC, its priority
  std::vector<std::int32_t> out_pick_, out_dist_;
  std::vector<std::int32_t> sa_eligible_;            // input VCs that may still match in a later iteration
  std::vector<std::uint8_t> switched_;               // per local input VC: already switched this cycle
  std::vector<std::uint8_t> local_port_, local_vc_;  // local input VC -> its port and VC (no division)
  int send_slot_ = 0, credit_slot_ = 0, inject_slot_ = 0;  // wheel slots for what is sent this cycle
  // Open cursors into them during step(): routers' flits (arrive after P + L), nodes' flits and every
  // credit (after L).
  FlitArrival* flit_out_ = nullptr;
  FlitArrival* inject_out_ = nullptr;
  CreditArrival* credit_out_ = nullptr;

  // The routing reads and writes the packet's header word: route_front passes it (and the packet's
  // source and a random value keyed by route_key_) only then. Last, so that no hot member moves.
  bool route_header_ = false;
  // The routing steers by route bytes: route_front passes the packet's SourceRoute (its cursor is the
  // header word). Implies route_header_.
  bool source_routes_ = false;
  std::uint64_t route_key_ = 0;
  // The routing may multicast: per router input VC and branch, the output VC and the packet copy.
  bool multicast_ = false;
  bool most_credits_ = false;  // the routing's PortSelection is MostCredits
  // Head delays of the general router (RouterParams::head_cycles): per router input VC, the first cycle
  // its head may take its next stage (VC allocation after routing, switch allocation after a VC grant).
  int routing_delay_ = 0, vc_grant_delay_ = 0;
  std::vector<Cycle> stage_ready_;
  std::vector<std::int8_t> branch_vc_;
  std::vector<PacketId> branch_packet_;
  std::vector<std::uint16_t> mc_rr_;  // per router: the local input VC whose multicast goes first
  // Bitmask router: per router, the local input VCs whose front packet is a multicast (route_front).
  std::vector<std::uint64_t> mc_front_;
  std::vector<std::int32_t> mc_order_;  // scratch: ready multicasts in round-robin order
  // The VC allocator (net/vc_alloc.hpp), chosen once; its request matrix, grants and wavefront cells,
  // sized for the largest router; per global port, the VC pointer of VcChoice::RoundRobin (else empty).
  vc_alloc::Allocate vc_alloc_ = nullptr;
  std::vector<vc_alloc::Request> vc_requests_;
  std::vector<vc_alloc::Candidate> vc_candidates_;
  std::vector<vc_alloc::Grant> vc_grants_;
  std::vector<std::uint64_t> vc_cells_;
  std::vector<std::uint8_t> vc_rr_;
  // Per output VC (indexed like ovc_), the input VC its arbiter favours next: VcArbiter::PerOutputVc only.
  std::vector<std::uint16_t> va_out_rr_;
  // Acks in flight back to their sources (enable_acks); off, it costs one branch per delivered packet.
  AckPath acks_;
  // Per node and virtual network: packets started and not yet acknowledged (AckParams::window > 0 only).
  std::vector<std::int32_t> unacked_;
  // Byte errors (mark_corrupt): per input, the bad CRCs it saw; packets aborted at their destination.
  std::vector<std::int64_t> input_errors_;
  std::int64_t packets_aborted_ = 0;
};

}  // namespace mppnet::net
