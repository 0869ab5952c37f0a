// workload/traffic.cpp: per-node destination, packet-length and arrival draws.
#include "workload/traffic.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "workload/patterns.hpp"

namespace mppnet::workload {

namespace {

// A uniformly random permutation of 0..n-1, and unless `fixed_points`, a uniformly random derangement
// (a permutation without fixed points), or the identity when n == 1, where none exists. We draw Fisher-Yates
// shuffles until one has no fixed point: every permutation is equally likely, so the accepted one is uniform
// over the derangements. About 1/e of all permutations are derangements (1/2 for n = 2), so this takes e
// tries on average. We re-draw rather than keep fixed points because a node whose packets all go to itself
// would offer no load to the network, against the contract of destination() (traffic.self = true asks for
// that).
std::vector<NodeId> random_permutation(int n, bool fixed_points, core::RandomStream rng) {
  std::vector<NodeId> perm(static_cast<std::size_t>(n));
  for (;;) {
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i) {
      const auto j = rng.below(static_cast<std::uint32_t>(i) + 1);
      std::swap(perm[static_cast<std::size_t>(i)], perm[j]);
    }
    if (n == 1 || fixed_points) return perm;
    bool has_fixed_point = false;
    for (int i = 0; i < n && !has_fixed_point; ++i) has_fixed_point = perm[static_cast<std::size_t>(i)] == i;
    if (!has_fixed_point) return perm;
  }
}

}  // namespace

Traffic::Traffic(const TrafficParams& p, int nodes, std::uint64_t seed) : params_(p), nodes_(nodes) {
  MPPNET_ASSERT(check(p, nodes).empty(), "Traffic built from parameters that check() rejects");

  state_.reserve(static_cast<std::size_t>(nodes));
  for (int v = 0; v < nodes; ++v) {
    const auto c = static_cast<std::uint64_t>(v);
    state_.push_back({core::RandomStream(seed, c, core::Stream::Destination),
                      core::RandomStream(seed, c, core::Stream::PacketSize),
                      core::RandomStream(seed, c, core::Stream::Arrival)});
  }
  if (p.pattern == PatternKind::RandomPermutation) {
    permutation_ = random_permutation(nodes, p.self, core::RandomStream(seed, 0, core::Stream::Setup));
  }
  if (is_power_of_two(nodes)) address_bits_ = address_bits(nodes);

  // Packet lengths: sizes of weight 0 are dropped so that they can never be drawn (a trailing one
  // would otherwise own the rounding gap below cdf = 1) and do not count towards the maximum.
  std::vector<double> weights;
  if (p.packet_sizes.empty()) {
    sizes_ = {p.packet_flits};
    weights = {1.0};
  } else {
    for (std::size_t i = 0; i < p.packet_sizes.size(); ++i) {
      const double w = p.packet_weights.empty() ? 1.0 : p.packet_weights[i];
      if (w <= 0) continue;
      sizes_.push_back(p.packet_sizes[i]);
      weights.push_back(w);
    }
  }
  size_cdf_ = cumulative_distribution(weights);
  double weighted = 0;
  double total = 0;
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    weighted += weights[i] * sizes_[i];
    total += weights[i];
  }
  mean_packet_flits_ = weighted / total;
  max_packet_flits_ = *std::max_element(sizes_.begin(), sizes_.end());

  // Arrivals. `rate` is in flits, so packets arrive at p = rate / L per cycle (L = mean length).
  //
  // Bernoulli: a packet each cycle with probability p, so the gap between arrivals is Geometric(p).
  //
  // On/off, a two-state Markov-modulated Bernoulli source:
  //   on:  a packet each cycle with probability p_on = burst_rate / L; after each packet the burst
  //        ends with probability 1/B (B = burst_packets), so a burst holds K ~ Geometric(1/B)
  //        packets, E[K] = B, and lasts E[K] / p_on = B / p_on cycles on average (first cycle to
  //        last packet);
  //   off: D >= 0 silent cycles with D + 1 ~ Geometric(1 / (1 + M_off)), so E[D] = M_off.
  // By renewal-reward the long-run packets per cycle are E[K] / (B/p_on + M_off) = B / (B/p_on + M_off).
  // Setting that equal to p gives
  //   M_off = B/p - B/p_on = (B/p_on) (p_on/p - 1) = (mean on cycles) (burst_rate/rate - 1),
  // and the long-run fraction of cycles spent on is (B/p_on) / (B/p) = rate / burst_rate.
  // With burst_rate == rate, M_off = 0 and the source is Bernoulli at p.
  const double packets_per_cycle = p.rate / mean_packet_flits_;
  if (p.injection == InjectionKind::Bernoulli) {
    packet_gap_ = Geometric(packets_per_cycle);
    return;
  }
  const double p_on = p.burst_rate / mean_packet_flits_;
  const double mean_on_cycles = p.burst_packets / p_on;  // p_on <= 1: burst_rate <= 1 <= L
  const double mean_off_cycles = mean_on_cycles * (p.burst_rate / p.rate - 1.0);
  packet_gap_ = Geometric(p_on);
  off_gap_ = Geometric(1.0 / (1.0 + mean_off_cycles));
  burst_end_ = 1.0 / p.burst_packets;
  on_fraction_ = p.rate / p.burst_rate;
}

Cycle Traffic::first_arrival(NodeId v, Cycle from) {
  if (params_.injection == InjectionKind::Bernoulli) return next_arrival(v, from - 1);
  // Stationary start. On at `from` (probability rate/burst_rate): by the memorylessness of both
  // geometrics, what follows is a fresh burst starting at `from`, i.e. as if a packet of the burst
  // had arrived at from - 1. Off at `from`: the off cycles left after `from` are again distributed
  // as D, i.e. as if the previous burst had ended at `from`.
  NodeState& s = state_[static_cast<std::size_t>(v)];
  s.on = s.arrival.bernoulli(on_fraction_);
  return next_arrival(v, s.on ? from - 1 : from);
}

Cycle Traffic::next_arrival(NodeId v, Cycle last) {
  NodeState& s = state_[static_cast<std::size_t>(v)];
  if (params_.injection == InjectionKind::Bernoulli) return last + packet_gap_.draw(s.arrival);
  Cycle t = last;
  if (!s.on) {
    t += off_gap_.draw(s.arrival) - 1;
    s.on = true;
  }
  t += packet_gap_.draw(s.arrival);
  s.on = !s.arrival.bernoulli(burst_end_);
  return t;
}

NodeId Traffic::uniform_destination(NodeId v, core::RandomStream& rng) const {
  if (params_.self) return static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(nodes_)));
  if (nodes_ == 1) return v;
  // Uniform over the nodes_ - 1 others: draw from 0..nodes_-2 and step over v.
  const auto d = static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(nodes_ - 1)));
  return d >= v ? d + 1 : d;
}

NodeId Traffic::destination(NodeId v) {
  NodeState& s = state_[static_cast<std::size_t>(v)];
  switch (params_.pattern) {
    case PatternKind::Uniform:
      return uniform_destination(v, s.destination);
    case PatternKind::RandomPermutation:
      return permutation_[static_cast<std::size_t>(v)];
    case PatternKind::BitComplement:
      return bit_complement(v, address_bits_);
    case PatternKind::BitReverse:
      return bit_reverse(v, address_bits_);
    case PatternKind::Transpose:
      return transpose(v, address_bits_);
    case PatternKind::Shuffle:
      return shuffle(v, address_bits_);
    case PatternKind::Tornado:
      return tornado(v, nodes_);
    case PatternKind::Neighbor:
      return neighbor(v, nodes_);
    case PatternKind::HotSpot: {
      // Duplicates in hotspot_nodes are kept: a node listed twice is twice as likely.
      if (!s.destination.bernoulli(params_.hotspot_fraction)) return uniform_destination(v, s.destination);
      const auto k = s.destination.below(static_cast<std::uint32_t>(params_.hotspot_nodes.size()));
      return params_.hotspot_nodes[k];
    }
  }
  MPPNET_ASSERT(false, "unknown PatternKind");
}

int Traffic::packet_flits(NodeId v) {
  if (sizes_.size() == 1) return sizes_[0];
  NodeState& s = state_[static_cast<std::size_t>(v)];
  return sizes_[inverse_cdf(size_cdf_, s.size.uniform01())];
}

}  // namespace mppnet::workload
