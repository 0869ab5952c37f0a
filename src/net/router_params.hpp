// net/router_params.hpp: what the generic input-queued VC router can be told ([router] table).
#pragma once

#include <cstdint>

namespace mppnet::net {

enum class Switching {
  Wormhole,           // a flit advances when the next buffer has room for one flit
  VirtualCutThrough,  // a head advances only when the next buffer has room for the whole packet
  StoreAndForward,    // as cut-through, and only once the whole packet is in this router
};

enum class AllocatorKind { InputFirst, OutputFirst };  // separable round-robin allocators

// The VC allocator (net/vc_alloc.hpp). Auto is the kind of `allocator`.
enum class VcAllocatorKind { Auto, InputFirst, OutputFirst, Wavefront };

// Whose round-robin pointer decides among the input VCs asking for one output VC in a separable VC
// allocator: one pointer per router, moved past the first input granted anywhere in it, or one per output
// VC, moved past the input it granted (BookSim's arbiter per output VC). With one per router, the grants
// of other outputs move the pointer, so an output contended by the same few inputs can favour one of
// them indefinitely.
enum class VcArbiter { PerRouter, PerOutputVc };

// Which VC of a candidate port a waiting packet asks for (net/vc_alloc.hpp).
enum class VcChoice {
  LowestFree,  // the lowest-numbered usable VC
  RoundRobin,  // the first usable VC at or after the port's rotating pointer
  Random,      // a usable VC drawn uniformly from the router's stream
};

// The router pipeline (docs/router.md). A head flit at the front of its input VC at cycle a has its route
// at a + routing_delay and may then bid for an output VC; granted one at g, it may bid for the switch at
// g + vc_alloc_delay (g + max(0, vc_alloc_delay - sw_alloc_delay) when speculative: VC and switch
// allocation overlap). A flit that wins the switch at s leaves its input buffer then and reaches the next
// input buffer at s + pipeline_cycles + channel_latency, where pipeline_cycles = sw_alloc_delay +
// st_delay (the config loader keeps the three consistent). Body flits skip routing and VC allocation.
// A credit takes credit_delay cycles back upstream (0: channel_latency).
// The level of detail of the generic network: flit by flit (net::Network) or packet by packet
// (net::PacketNetwork, docs/validation.md "Fidelity").
enum class NetworkModelKind : std::uint8_t { Flit, Packet };

struct RouterParams {
  NetworkModelKind model = NetworkModelKind::Flit;
  int vcs = 4;              // virtual channels per port
  int buffer_flits = 8;     // flit slots per VC per input port
  int pipeline_cycles = 1;  // sw_alloc_delay + st_delay: a flit granted at t reaches the next input at
                            // t + this + channel_latency
  int channel_latency = 1;  // cycles on every channel, router-router and node-router
  int routing_delay = 0;    // head only: cycles from the VC front to a known route
  int vc_alloc_delay = 0;   // head only: cycles from winning an output VC to bidding for the switch
  int sw_alloc_delay = 0;   // cycles from winning the switch to starting the traversal
  int st_delay = 1;         // switch traversal cycles
  int credit_delay = 0;     // cycles a credit takes upstream; 0: channel_latency
  // VC and switch allocation in one stage (hides vc_alloc_delay up to sw_alloc_delay).
  bool speculative = false;
  int speedup = 1;  // crossbar passes per cycle (flits per input and per output per cycle)
  Switching switching = Switching::Wormhole;
  AllocatorKind allocator = AllocatorKind::InputFirst;
  int allocator_iterations = 1;  // switch allocation passes per crossbar round (iSLIP-style)
  VcAllocatorKind vc_allocator = VcAllocatorKind::Auto;
  VcChoice vc_choice = VcChoice::LowestFree;
  VcArbiter vc_arbiter = VcArbiter::PerRouter;
  double eject_flits_per_cycle = 1.0;  // a node drains arriving flits at this rate per link
  // Virtual networks (e.g. requests and replies): each port's VCs are split evenly among them, a packet
  // keeps to its own network's VCs, and every node has a source queue per network, so a full network
  // never blocks another. The routing is then built for vcs / vnets VCs.
  int vnets = 1;
  // Every route is narrowed to the lowest VC of the range its routing offers, and a node injects every
  // packet of a virtual network on that network's first VC. On a routing whose path and VC class are
  // functions of source and destination (dimension order) a pair's packets then share one FIFO at every
  // hop, so each (source, destination, virtual network) is delivered in the order sent (the CNS-1's
  // guarantee, reference note 002 §3.7). It gives up the VCs beyond the first of each class.
  bool in_order = false;
  // VCs each virtual network owns on every port: what its routing is built for.
  int vcs_per_vnet() const { return vnets >= 1 ? vcs / vnets : 0; }
  // The VC allocator that runs: Auto resolved to the switch allocator's kind.
  VcAllocatorKind vc_allocator_kind() const {
    if (vc_allocator != VcAllocatorKind::Auto) return vc_allocator;
    return allocator == AllocatorKind::InputFirst ? VcAllocatorKind::InputFirst
                                                  : VcAllocatorKind::OutputFirst;
  }
  // Cycles a head spends in a router before it may bid for the switch, at zero load.
  int head_cycles() const {
    const int va = speculative ? (vc_alloc_delay > sw_alloc_delay ? vc_alloc_delay - sw_alloc_delay : 0)
                               : vc_alloc_delay;
    return routing_delay + va;
  }
  int credit_cycles() const { return credit_delay > 0 ? credit_delay : channel_latency; }
  // Cycles a head takes from one router's input buffer to the next's at zero load.
  int hop_cycles() const { return head_cycles() + pipeline_cycles + channel_latency; }
  std::int64_t cycle_ps = 1000;  // the router clock's period, for results in nanoseconds
};

}  // namespace mppnet::net
