// net/vc_allocator.cpp: the general router's VC allocator, separable with round-robin priority.
//
// Input-first: every waiting input VC picks one candidate output VC, then every output VC grants one of
// the requests it got; output-first: every free output VC picks one requester, then every input VC
// accepts one of its grants. Requests see the state at the start of the cycle's allocation and grants
// are applied afterwards (net/router.cpp says why). One pass: an output VC is held for a whole packet.
#include <algorithm>
#include <bit>

#include "net/arbiter.hpp"
#include "net/network.hpp"

namespace mppnet::net {

using arbiter::offer;
using arbiter::rr_distance;

int Network::choose_candidate(RouterId r, std::int32_t ivc0, const int* options, int found, int vc_lo,
                              int vc_hi) {
  if (found == 1) return options[0];
  if (!most_credits_) return options[router_rng_[r].below(found)];
  int best = -1, ties = 0;
  for (int k = 0; k < found; ++k) {
    const int s = port_credits(ivc0, local_port_[options[k]], vc_lo, vc_hi);
    ties = s > best ? 1 : ties + (s == best);
    best = std::max(best, s);
  }
  int keep = ties > 1 ? static_cast<int>(router_rng_[r].below(ties)) : 0;
  for (int k = 0; k < found; ++k)
    if (port_credits(ivc0, local_port_[options[k]], vc_lo, vc_hi) == best && keep-- == 0) return options[k];
  return options[0];  // not reached: `ties` candidates score `best`
}

void Network::allocate_vcs(RouterId r, const std::int32_t* waiting, int count, std::int32_t* ready,
                           int* ready_count) {
  const std::int32_t ivc0 = graph_.port_base[r] * vcs_;
  const int n = graph_.num_ports(r) * vcs_;
  const int rr = router_[r].va_rr < n ? router_[r].va_rr : 0;
  std::int32_t* claim = claim_.data();  // local output VC -> best requester (local input VC), or -1
  std::int32_t* dist = claim_dist_.data();
  int touched = 0;
  auto request = [&](int ol, int i) {
    offer(claim, dist, touched_.data(), touched, ol, i, rr_distance(i, rr, n));
  };
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;

  for (int w = 0; w < count; ++w) {
    const int i = waiting[w];
    const std::int32_t g = ivc0 + i;
    // Only cut-through and store-and-forward need the length (output_vc_usable); wormhole skips the pool.
    const int packet_flits =
        params_.switching == Switching::Wormhole
            ? 0
            : packets_[buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head].packet].flits;
    const topo::RouteSet& rs = ivc_route_[g];
    if (multicast_ && is_multicast(rs)) {
      request_branches(r, i, packet_flits, claim, dist, touched, rr);  // net/multicast.cpp
      continue;
    }
    if (input_first) {
      // Input stage: one request, to a port chosen at random among the candidates with a usable VC.
      int options[topo::kMaxRouteCandidates];
      int found = 0;
      for (int c = 0; c < rs.count; ++c) {
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (!output_vc_usable(ivc0 + ol, packet_flits)) continue;
          options[found++] = ol;
          break;
        }
      }
      if (found == 0) continue;
      // Output stage (folded in): the requester nearest after the round-robin pointer keeps the VC.
      request(choose_candidate(r, ivc0, options, found, rs.vc_lo, rs.vc_hi), i);
    } else {
      // Output stage: every usable output VC is offered to its nearest requester after the pointer.
      for (int c = 0; c < rs.count; ++c)
        for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc) {
          const int ol = rs.ports[c] * vcs_ + vc;
          if (output_vc_usable(ivc0 + ol, packet_flits)) request(ol, i);
        }
    }
  }

  if (!input_first) {
    // Input stage: each input accepts one of its grants, at random (an adaptive choice of port when the
    // grants are on several ports); the others lapse this cycle. Grants are visited in output-VC order.
    std::sort(touched_.begin(), touched_.begin() + touched);
    for (int w = 0; w < count; ++w) {
      const int i = waiting[w];
      if (multicast_ && is_multicast(ivc_route_[ivc0 + i])) continue;  // it needs every grant it got
      // With MostCredits, only the grants on the port with the most credits are candidates.
      const topo::RouteSet& rs = ivc_route_[ivc0 + i];
      auto score = [&](int ol) {
        return most_credits_ ? port_credits(ivc0, local_port_[ol], rs.vc_lo, rs.vc_hi) : 0;
      };
      int grants = 0, best = -1;
      for (int t = 0; t < touched; ++t) {
        if (claim[touched_[t]] != i) continue;
        const int s = score(touched_[t]);
        grants = s > best ? 1 : grants + (s == best);
        best = std::max(best, s);
      }
      const int keep = grants > 1 ? static_cast<int>(router_rng_[r].below(grants)) : 0;
      int seen = 0;
      for (int t = 0; t < touched; ++t) {
        if (claim[touched_[t]] != i) continue;
        if (score(touched_[t]) != best || seen++ != keep) claim[touched_[t]] = -2;  // declined
      }
    }
  }

  int first = -1;
  if (multicast_) {
    // A multicast keeps its output VCs only if it won every branch (net/multicast.cpp); the claims it
    // won are dropped from the grants below either way.
    for (int w = 0; w < count; ++w) {
      const int i = waiting[w];
      if (!is_multicast(ivc_route_[ivc0 + i])) continue;
      if (grant_branches(r, i, claim)) {
        ready[(*ready_count)++] = i;
        if (first < 0 || rr_distance(i, rr, n) < rr_distance(first, rr, n)) first = i;
      }
    }
    for (int t = 0; t < touched; ++t)
      if (claim[touched_[t]] >= 0 && is_multicast(ivc_route_[ivc0 + claim[touched_[t]]]))
        claim[touched_[t]] = -1;
  }
  for (int t = 0; t < touched; ++t) {
    const int ol = touched_[t];
    const int i = claim[ol];
    claim[ol] = -1;
    if (i < 0) continue;
    InputVc& s = ivc_[ivc0 + i];
    s.out_port = local_port_[ol];
    s.out_vc = local_vc_[ol];
    ovc_[ivc0 + ol].owner = i;
    ready[(*ready_count)++] = i;
    if (first < 0 || rr_distance(i, rr, n) < rr_distance(first, rr, n)) first = i;
  }
  if (first >= 0) router_[r].va_rr = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
}

}  // namespace mppnet::net
