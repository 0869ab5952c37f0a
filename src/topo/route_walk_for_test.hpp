// topo/route_walk_for_test.hpp: test helper: follow Routing::route() hop by hop from a node to a destination.
//
// Only *_test.cpp files include this. It enumerates the paths route() allows (every candidate, or one
// deterministic candidate per branch point when the caller asks), and reports the first walk that breaks
// the routing contract: a candidate outside the router's ports, an empty or out-of-range VC range, a port
// that leads nowhere or to the wrong node, a revisited router.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "topo/graph.hpp"
#include "topo/routing.hpp"

namespace mppnet::topo::testing {

// One router on a path: where the packet came in, and where route() sent it with which VC range.
struct Hop {
  RouterId router = -1;
  PortId in_port = -1;
  VcId in_vc = 0;
  PortId out_port = -1;
  int vc_lo = 0;
  int vc_hi = 0;
};

enum class Branches { All, OneSampled };

class RouteWalker {
 public:
  RouteWalker(const Graph& g, const Routing& routing, int vcs) : g_(g), routing_(routing), vcs_(vcs) {}

  // The PacketHead::random value every route() call sees (a Valiant dragonfly draws its intermediate
  // group from it at the source router).
  void set_random(std::uint64_t random) { random_ = random; }

  // Calls visit(const std::vector<Hop>&) for each complete path from `src`'s node link `link` to `dest`'s
  // node port. The packet carries the lowest VC of each returned range. Returns "" on success, else a
  // description of the first broken walk (and stops there).
  template <class Visit>
  std::string walk(NodeId src, int link, NodeId dest, Branches branches, Visit&& visit) {
    src_ = src;
    dest_ = dest;
    branches_ = branches;
    error_.clear();
    path_.clear();
    const NodeLink& start = g_.node_links[static_cast<std::size_t>(src) * g_.links_per_node + link];
    step(start.router, start.port, 0, 0, visit);
    return error_;
  }

 private:
  template <class Visit>
  void step(RouterId r, PortId in_port, VcId in_vc, std::uint64_t header, Visit& visit) {
    if (!error_.empty()) return;
    for (const Hop& h : path_) {
      if (h.router == r) return fail("revisits router " + std::to_string(r));
    }
    PacketHead head{.dest = dest_, .header = header, .random = random_};
    const RouteSet rs = routing_.route(r, in_port, in_vc, head);
    if (rs.count < 1 || rs.count > kMaxRouteCandidates) return fail("bad candidate count at router " + at(r));
    if (rs.vc_lo > rs.vc_hi || rs.vc_hi >= vcs_) {
      return fail("VC range [" + std::to_string(rs.vc_lo) + ", " + std::to_string(rs.vc_hi) + "] at router " +
                  at(r));
    }
    int first = 0;
    int last = rs.count - 1;
    if (branches_ == Branches::OneSampled && rs.count > 1) {
      const auto h =
          core::splitmix64((static_cast<std::uint64_t>(src_) << 40) ^
                           (static_cast<std::uint64_t>(dest_) << 20) ^ static_cast<std::uint64_t>(r));
      first = last = static_cast<int>(h % rs.count);
    }
    for (int i = first; i <= last && error_.empty(); ++i) {
      const PortId out = rs.ports[i];
      if (out < 0 || out >= g_.num_ports(r))
        return fail("port " + std::to_string(out) + " at router " + at(r));
      path_.push_back({r, in_port, in_vc, out, rs.vc_lo, rs.vc_hi});
      const PortLink& l = g_.link(r, out);
      if (l.kind == PeerKind::Node) {
        if (l.peer != dest_) return fail("ejects to node " + std::to_string(l.peer) + " at router " + at(r));
        visit(static_cast<const std::vector<Hop>&>(path_));
      } else if (l.kind == PeerKind::Router) {
        step(l.peer, l.peer_port, rs.vc_lo, head.header, visit);
      } else {
        return fail("port " + std::to_string(out) + " leads nowhere at router " + at(r));
      }
      path_.pop_back();
    }
  }

  std::string at(RouterId r) const {
    return std::to_string(r) + " (" + std::to_string(src_) + " -> " + std::to_string(dest_) + ")";
  }
  void fail(const std::string& what) {
    if (error_.empty()) error_ = what;
  }

  const Graph& g_;
  const Routing& routing_;
  int vcs_;
  NodeId src_ = 0;
  NodeId dest_ = 0;
  Branches branches_ = Branches::All;
  std::uint64_t random_ = 0;
  std::vector<Hop> path_;
  std::string error_;
};

// Every ordered (src, dest) pair when there are at most `max_pairs`, else a deterministic sample of
// `max_pairs` pairs (SplitMix64 from a fixed seed) that always includes some src == dest pairs.
inline std::vector<std::pair<NodeId, NodeId>> node_pairs(int nodes, long long max_pairs) {
  std::vector<std::pair<NodeId, NodeId>> pairs;
  if (static_cast<long long>(nodes) * nodes <= max_pairs) {
    for (NodeId s = 0; s < nodes; ++s) {
      for (NodeId d = 0; d < nodes; ++d) pairs.emplace_back(s, d);
    }
    return pairs;
  }
  for (long long i = 0; i < max_pairs; ++i) {
    const std::uint64_t h = core::splitmix64(0x7070ULL + static_cast<std::uint64_t>(i));
    const auto s = static_cast<NodeId>(h % nodes);
    const auto d = i % 64 == 0 ? s : static_cast<NodeId>((h >> 32) % nodes);
    pairs.emplace_back(s, d);
  }
  return pairs;
}

}  // namespace mppnet::topo::testing
