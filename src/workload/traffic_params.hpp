// workload/traffic_params.hpp: what synthetic traffic can be told (filled from the [traffic] table).
#pragma once

#include <vector>

namespace mppnet::workload {

enum class PatternKind {
  Uniform,            // destination uniform over all nodes except the source (all of them with `self`)
  RandomPermutation,  // a fixed random derangement (any permutation with `self`) drawn once per run
  BitComplement,      // d = ~s                         (needs 2^m nodes)
  BitReverse,         // d = bits of s reversed         (needs 2^m nodes)
  Transpose,          // swap the high and low halves of the address bits (needs 2^(2m) nodes)
  Shuffle,            // rotate address bits left by one (needs 2^m nodes)
  Tornado,            // d = s + ceil(N/2) - 1 mod N
  Neighbor,           // d = s + 1 mod N
  HotSpot,            // with probability hotspot_fraction to one of hotspot_nodes, else as uniform
};

enum class InjectionKind {
  Bernoulli,  // a new packet each cycle with probability rate / mean packet length
  OnOff,      // two-state Markov source: bursts at burst_rate, silent between; same mean rate
};

struct TrafficParams {
  PatternKind pattern = PatternKind::Uniform;
  double rate = 0.1;  // offered load, flits per node per cycle
  // Whether a random destination may be the source itself (uniform, hot_spot's uniform part,
  // random_permutation's fixed points). The fixed maps (bit patterns, tornado, neighbor) keep theirs.
  bool self = false;
  InjectionKind injection = InjectionKind::Bernoulli;
  int packet_flits = 4;                     // used when packet_sizes is empty
  std::vector<int> packet_sizes = {};       // a discrete distribution of packet lengths in flits ...
  std::vector<double> packet_weights = {};  // ... with these relative weights (empty: equal)
  double burst_packets = 8.0;               // on/off: mean packets per burst
  double burst_rate = 1.0;                  // on/off: flits per cycle offered while on
  double hotspot_fraction = 0.1;
  std::vector<int> hotspot_nodes = {0};
};

}  // namespace mppnet::workload
