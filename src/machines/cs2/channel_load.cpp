// machines/cs2/channel_load.cpp: static loads, down-channel destinations and bisection (channel_load.hpp).
#include "machines/cs2/channel_load.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace mppnet::machines::cs2 {

std::vector<Flow> permutation_flows(const LayerShape& shape, Permutation p, std::int64_t c) {
  const std::int64_t n = shape.capacity();
  const int bits = shape.size();
  MPPNET_ASSERT(p != Permutation::Transpose || bits % 2 == 0, "a transpose swaps two halves of equal size");
  std::vector<Flow> flows;
  for (std::int64_t x = 0; x < shape.pes(); ++x) {
    std::int64_t d = 0;
    switch (p) {
      case Permutation::Shift:
        d = ((x + c) % n + n) % n;
        break;
      case Permutation::Xor:
        d = x ^ c;
        break;
      case Permutation::BitReversal:
        for (int i = 0; i < bits; ++i) d |= ((x >> i) & 1) << (bits - 1 - i);
        break;
      case Permutation::Transpose: {
        const int h = bits / 2;
        const std::int64_t low = x & ((std::int64_t{1} << h) - 1);
        d = low << h | x >> h;
        break;
      }
    }
    if (d < shape.pes()) flows.push_back({x, d});
  }
  return flows;
}

std::vector<Flow> random_permutation_flows(const LayerShape& shape, std::uint64_t seed) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(shape.pes()));
  for (std::size_t x = 0; x < d.size(); ++x) d[x] = static_cast<std::int64_t>(x);
  core::RandomStream rng(seed, 0, core::Stream::Setup);
  for (std::size_t i = d.size(); i > 1; --i) std::swap(d[i - 1], d[rng.below(static_cast<std::uint32_t>(i))]);
  std::vector<Flow> flows;
  for (std::size_t x = 0; x < d.size(); ++x) flows.push_back({static_cast<std::int64_t>(x), d[x]});
  return flows;
}

std::vector<std::int32_t> channel_loads(const topo::Graph& g, std::span<const Flow> flows,
                                        const RouteOf& route) {
  std::vector<std::int32_t> loads(g.ports.size(), 0);
  for (const Flow& f : flows) {
    const NodeId reached = follow_route(g, static_cast<NodeId>(f.src), route(f.src, f.dest),
                                        [&loads](int channel) { ++loads[channel]; });
    MPPNET_ASSERT(reached == f.dest, "a CS-2 route that does not reach its destination on the graph");
  }
  return loads;
}

std::int32_t max_load(std::span<const std::int32_t> loads) {
  return loads.empty() ? 0 : *std::max_element(loads.begin(), loads.end());
}

RouteOf dest_routes(const LayerShape& shape, Turn turn) {
  return [shape, turn](std::int64_t x, std::int64_t d) {
    return policy_route(shape, x, d, Policy::Dest, turn, 0, 0);
  };
}

int max_destinations_per_down_channel(const LayerShape& shape, const topo::Graph& g, Turn turn) {
  // Which outputs go down: ports below the switch's down-port count.
  std::vector<char> down(g.ports.size(), 0);
  for (RouterId r = 0; r < g.num_routers(); ++r) {
    const int ports = shape.down_ports(shape.switch_of(r).st);
    for (int p = 0; p < ports; ++p) down[g.port_base[r] + p] = 1;
  }
  // (channel, destination) pairs, made distinct by sorting: 4 bytes each, at most ~5 M for 1,024 PEs.
  std::vector<std::uint64_t> pairs;
  const RouteOf route = dest_routes(shape, turn);
  for (std::int64_t x = 0; x < shape.pes(); ++x)
    for (std::int64_t d = 0; d < shape.pes(); ++d) {
      const NodeId reached = follow_route(g, static_cast<NodeId>(x), route(x, d), [&](int channel) {
        if (down[channel])
          pairs.push_back(static_cast<std::uint64_t>(channel) << 32 | static_cast<std::uint64_t>(d));
      });
      MPPNET_ASSERT(reached == d, "a CS-2 route that does not reach its destination on the graph");
    }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  int most = 0;
  for (std::size_t i = 0; i < pairs.size();) {
    std::size_t j = i;
    while (j < pairs.size() && pairs[j] >> 32 == pairs[i] >> 32) ++j;
    most = std::max(most, static_cast<int>(j - i));
    i = j;
  }
  return most;
}

std::int64_t bisection_links(const LayerShape& shape, const topo::Graph& g) {
  const std::int64_t middle = shape.capacity() / 2;
  auto low_side = [&](RouterId r) {
    const SwitchId s = shape.switch_of(r);
    if (s.st == shape.stages() && !shape.back_to_back()) return true;
    return (s.P << (2 * s.st)) < middle;  // the subtree's first PE
  };
  std::int64_t cut = 0;
  for (RouterId r = 0; r < g.num_routers(); ++r)
    for (int p = 0; p < g.num_ports(r); ++p) {
      const topo::PortLink& link = g.link(r, p);
      if (link.kind == topo::PeerKind::Node) {
        cut += low_side(r) != (link.peer < middle);
      } else if (link.kind == topo::PeerKind::Router && link.peer > r) {
        cut += low_side(r) != low_side(link.peer);
      }
    }
  return cut;
}

const char* permutation_name(Permutation p) {
  switch (p) {
    case Permutation::Shift:
      return "shift";
    case Permutation::Xor:
      return "xor";
    case Permutation::BitReversal:
      return "bit_reversal";
    case Permutation::Transpose:
      return "transpose";
  }
  return "?";
}

}  // namespace mppnet::machines::cs2
