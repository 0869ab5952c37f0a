// workload/traffic.hpp: synthetic traffic: destinations, packet lengths and arrival times per node.
//
// Contract: every draw comes from the node's own counter-based streams (core::Stream::Destination,
// PacketSize, Arrival keyed by node id), so a node's sequence of packets is a function of
// (seed, node) alone, whatever else the simulation does. The one shared draw, the random
// permutation, is made once in the constructor from (seed, component 0, core::Stream::Setup).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "workload/random_variates.hpp"
#include "workload/traffic_names.hpp"  // name(PatternKind), name(InjectionKind), name tables
#include "workload/traffic_params.hpp"

namespace mppnet::workload {

// One reason the traffic cannot run, naming the key at fault ("traffic.rate").
using Problem = core::Problem;

// Every reason `p` cannot drive a network of `nodes` nodes (e.g. bit-reverse on 1,000 nodes); empty
// when it can. Keys that the chosen pattern or injection process does not use are not checked.
std::vector<Problem> check(const TrafficParams& p, long long nodes);

// Smallest and largest packet length, in flits, that check() accepts.
inline constexpr int kMinPacketFlits = 1;
inline constexpr int kMaxPacketFlits = 4096;

class Traffic {
 public:
  // REQUIRES: check(p, nodes).empty().
  Traffic(const TrafficParams& p, int nodes, std::uint64_t seed);

  // Cycle of node v's first packet arrival at or after cycle `from`. Starts (or restarts) v's arrival
  // process: an on/off source starts in its stationary state (on with probability rate/burst_rate).
  Cycle first_arrival(NodeId v, Cycle from);
  // Cycle of node v's next packet arrival strictly after its previous arrival at `last`.
  // REQUIRES: `last` is the cycle that first_arrival or next_arrival last returned for v.
  Cycle next_arrival(NodeId v, Cycle last);
  // Destination of node v's next packet. Uniform, random permutation and the uniform part of hot
  // spot never pick v itself, except on a 1-node network; the bit permutations (e.g. bit reverse of
  // a palindromic address) and a hot-spot node drawing itself do, by the patterns' definitions.
  NodeId destination(NodeId v);
  // Length in flits of node v's next packet.
  int packet_flits(NodeId v);

  // Mean and largest packet length of the configured distribution (sizes with weight 0 excluded).
  double mean_packet_flits() const { return mean_packet_flits_; }
  int max_packet_flits() const { return max_packet_flits_; }

  int nodes() const { return nodes_; }
  const TrafficParams& params() const { return params_; }

 private:
  struct NodeState {
    core::RandomStream destination;
    core::RandomStream size;
    core::RandomStream arrival;
    bool on = true;  // on/off: whether the source is in a burst after its last arrival
  };

  // Uniform over every node, or over every node but v (unless params_.self).
  NodeId uniform_destination(NodeId v, core::RandomStream& rng) const;

  TrafficParams params_;
  int nodes_;
  std::vector<NodeState> state_;
  std::vector<NodeId> permutation_;  // random_permutation only
  std::vector<double> size_cdf_;     // over sizes_, last entry exactly 1
  std::vector<int> sizes_;           // packet lengths with positive weight
  double mean_packet_flits_ = 0;
  int max_packet_flits_ = 0;
  int address_bits_ = 0;  // log2(nodes) for the bit permutations

  // Arrival process (see traffic.cpp for the on/off derivation).
  Geometric packet_gap_{1.0};  // Bernoulli: cycles between arrivals; on/off: between arrivals in a burst
  Geometric off_gap_{1.0};     // on/off: 1 + the cycles spent off between two bursts
  double burst_end_ = 1.0;     // on/off: probability that a packet is its burst's last
  double on_fraction_ = 1.0;   // on/off: long-run fraction of cycles spent on
};

}  // namespace mppnet::workload
