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

// Which VC of a candidate port a waiting packet asks for (net/vc_alloc.hpp).
enum class VcChoice {
  LowestFree,  // the lowest-numbered usable VC
  RoundRobin,  // the first usable VC at or after the port's rotating pointer
  Random,      // a usable VC drawn uniformly from the router's stream
};

struct RouterParams {
  int vcs = 4;              // virtual channels per port
  int buffer_flits = 8;     // flit slots per VC per input port
  int pipeline_cycles = 1;  // router delay: a flit granted at t reaches the next input at t + this + latency
  int channel_latency = 1;  // cycles on every channel, router-router and node-router
  int speedup = 1;          // crossbar passes per cycle (flits per input and per output per cycle)
  Switching switching = Switching::Wormhole;
  AllocatorKind allocator = AllocatorKind::InputFirst;
  int allocator_iterations = 1;  // switch allocation passes per crossbar round (iSLIP-style)
  VcAllocatorKind vc_allocator = VcAllocatorKind::Auto;
  VcChoice vc_choice = VcChoice::LowestFree;
  double eject_flits_per_cycle = 1.0;  // a node drains arriving flits at this rate per link
  // Virtual networks (e.g. requests and replies): each port's VCs are split evenly among them, a packet
  // keeps to its own network's VCs, and every node has a source queue per network, so a full network
  // never blocks another. The routing is then built for vcs / vnets VCs.
  int vnets = 1;
  // VCs each virtual network owns on every port: what its routing is built for.
  int vcs_per_vnet() const { return vnets >= 1 ? vcs / vnets : 0; }
  // The VC allocator that runs: Auto resolved to the switch allocator's kind.
  VcAllocatorKind vc_allocator_kind() const {
    if (vc_allocator != VcAllocatorKind::Auto) return vc_allocator;
    return allocator == AllocatorKind::InputFirst ? VcAllocatorKind::InputFirst
                                                  : VcAllocatorKind::OutputFirst;
  }
  std::int64_t cycle_ps = 1000;  // the router clock's period, for results in nanoseconds
};

}  // namespace mppnet::net
