// workload/traffic.hpp: synthetic traffic: destinations, packet lengths and arrival times per node.
//
// Contract: every draw comes from the node's own counter-based streams (core::Stream::Destination,
// PacketSize, Arrival keyed by node id), so a node's sequence of packets is a function of
// (seed, node) alone, whatever else the simulation does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "workload/traffic_params.hpp"

namespace mppnet::workload {

struct Problem {
  std::string key;
  std::string reason;
};

// Every reason `p` cannot drive a network of `nodes` nodes (e.g. bit-reverse on 1,000 nodes).
std::vector<Problem> check(const TrafficParams& p, long long nodes);

class Traffic {
 public:
  // REQUIRES: check(p, nodes).empty().
  Traffic(const TrafficParams& p, int nodes, std::uint64_t seed);

  // Cycle of node v's first packet arrival at or after cycle `from`.
  Cycle first_arrival(NodeId v, Cycle from);
  // Cycle of node v's next packet arrival strictly after its previous arrival at `last`.
  Cycle next_arrival(NodeId v, Cycle last);
  // Destination of node v's next packet (never v itself, except on a 1-node network).
  NodeId destination(NodeId v);
  // Length in flits of node v's next packet.
  int packet_flits(NodeId v);

  double mean_packet_flits() const;
  int max_packet_flits() const;

 private:
  // (implementation state: per-node streams, permutation table, on/off state, ...)
  struct NodeState;
  TrafficParams params_;
  int nodes_;
  std::vector<NodeState> state_;
  std::vector<NodeId> permutation_;
  std::vector<double> size_cdf_;
  std::vector<int> sizes_;
  int address_bits_ = 0;
};

const char* name(PatternKind k);

}  // namespace mppnet::workload
