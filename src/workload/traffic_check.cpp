// workload/traffic_check.cpp: every reason a [traffic] table cannot drive a given network.
#include <climits>
#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "workload/patterns.hpp"
#include "workload/traffic.hpp"

namespace mppnet::workload {

namespace {

void check_pattern(const TrafficParams& p, long long nodes, std::vector<Problem>& out) {
  switch (p.pattern) {
    case PatternKind::Uniform:
    case PatternKind::RandomPermutation:
    case PatternKind::Tornado:
    case PatternKind::Neighbor:
      return;
    case PatternKind::BitComplement:
    case PatternKind::BitReverse:
    case PatternKind::Shuffle:
      if (!is_power_of_two(nodes)) {
        out.push_back({"traffic.pattern", fmt::format("{} needs a power-of-two node count (got {} nodes)",
                                                      name(p.pattern), nodes)});
      }
      return;
    case PatternKind::Transpose:
      if (!is_power_of_two(nodes) || address_bits(nodes) % 2 != 0) {
        out.push_back(
            {"traffic.pattern",
             fmt::format("transpose needs a node count that is a power of four (1, 4, 16, 64, ...) so "
                         "that the address bits split into equal halves (got {} nodes)",
                         nodes)});
      }
      return;
    case PatternKind::HotSpot:
      if (p.hotspot_nodes.empty()) {
        out.push_back(
            {"traffic.hotspot_nodes", "hot_spot needs at least one hot-spot node (got an empty list)"});
      }
      for (std::size_t i = 0; i < p.hotspot_nodes.size(); ++i) {
        const int v = p.hotspot_nodes[i];
        if (v < 0 || v >= nodes) {
          out.push_back({"traffic.hotspot_nodes",
                         fmt::format("entry {} is node {}; nodes are numbered 0 to {}", i, v, nodes - 1)});
        }
      }
      if (!(p.hotspot_fraction >= 0.0 && p.hotspot_fraction <= 1.0)) {
        out.push_back({"traffic.hotspot_fraction",
                       fmt::format("hotspot_fraction is {}; it must be in [0, 1]", p.hotspot_fraction)});
      }
      return;
  }
}

void check_packet_lengths(const TrafficParams& p, std::vector<Problem>& out) {
  if (p.packet_sizes.empty() && (p.packet_flits < kMinPacketFlits || p.packet_flits > kMaxPacketFlits)) {
    out.push_back({"traffic.packet_flits", fmt::format("packet_flits is {}; it must be in [{}, {}]",
                                                       p.packet_flits, kMinPacketFlits, kMaxPacketFlits)});
  }
  for (std::size_t i = 0; i < p.packet_sizes.size(); ++i) {
    const int s = p.packet_sizes[i];
    if (s < kMinPacketFlits || s > kMaxPacketFlits) {
      out.push_back(
          {"traffic.packet_sizes", fmt::format("entry {} is {}; every packet size must be in [{}, {}] flits",
                                               i, s, kMinPacketFlits, kMaxPacketFlits)});
    }
  }
  if (p.packet_weights.empty()) return;
  if (p.packet_weights.size() != p.packet_sizes.size()) {
    out.push_back(
        {"traffic.packet_weights",
         fmt::format("{} weights for {} packet sizes; give one weight per size, or none for equal weights",
                     p.packet_weights.size(), p.packet_sizes.size())});
    return;
  }
  bool any_positive = false;
  bool all_valid = true;
  for (std::size_t i = 0; i < p.packet_weights.size(); ++i) {
    const double w = p.packet_weights[i];
    if (!(std::isfinite(w) && w >= 0.0)) {
      all_valid = false;
      out.push_back({"traffic.packet_weights",
                     fmt::format("entry {} is {}; weights must be finite and at least 0", i, w)});
    }
    any_positive = any_positive || w > 0.0;
  }
  if (all_valid && !any_positive) {
    out.push_back(
        {"traffic.packet_weights",
         fmt::format("all {} weights are 0; at least one must be positive", p.packet_weights.size())});
  }
}

}  // namespace

std::vector<Problem> check(const TrafficParams& p, long long nodes) {
  std::vector<Problem> out;
  if (nodes < 1 || nodes > INT_MAX) {
    out.push_back(
        {"traffic", fmt::format("the network has {} nodes; traffic needs between 1 and {}", nodes, INT_MAX)});
  } else {
    check_pattern(p, nodes, out);
  }

  if (!(p.rate > 0.0 && p.rate <= 1.0)) {
    out.push_back({"traffic.rate", fmt::format("rate is {} flits/node/cycle; it must be in (0, 1]", p.rate)});
  }
  check_packet_lengths(p, out);

  if (p.injection == InjectionKind::OnOff) {
    // Compared with the rate only when the rate itself is valid, so that one mistake is reported once.
    const bool rate_ok = p.rate > 0.0 && p.rate <= 1.0;
    if (!(p.burst_rate <= 1.0) || (rate_ok && !(p.burst_rate >= p.rate)) || !(p.burst_rate > 0.0)) {
      out.push_back(
          {"traffic.burst_rate",
           fmt::format("burst_rate is {}; on_off needs rate ({}) <= burst_rate <= 1", p.burst_rate, p.rate)});
    }
    if (!(p.burst_packets >= 1.0 && std::isfinite(p.burst_packets))) {
      out.push_back(
          {"traffic.burst_packets",
           fmt::format("burst_packets is {}; on_off needs a finite mean of at least 1 packet per burst",
                       p.burst_packets)});
    }
  }
  return out;
}

}  // namespace mppnet::workload
