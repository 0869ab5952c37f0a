// net/vc_allocator.cpp: the general router's VC allocation: one router's waiting input VCs as a request
// matrix (net/vc_alloc.hpp), the allocator chosen at construction, and its grants applied.
//
// Requests see the state at the start of the cycle's allocation and grants are applied afterwards
// (net/router.cpp says why). One pass: an output VC is held for a whole packet.
#include <algorithm>

#include "net/network.hpp"

namespace mppnet::net {

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
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t ivc0 = base * vcs_;
  vc_alloc::Request* requests = vc_requests_.data();
  vc_alloc::Candidate* candidates = vc_candidates_.data();
  int candidate_count = 0;
  for (int w = 0; w < count; ++w) {
    const int i = waiting[w];
    const std::int32_t g = ivc0 + i;
    // Only cut-through and store-and-forward need the length (output_vc_usable); wormhole skips the pool.
    const int packet_flits =
        params_.switching == Switching::Wormhole
            ? 0
            : packets_[buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head].packet].flits;
    const topo::RouteSet& rs = ivc_route_[g];
    requests[w] = {static_cast<std::int16_t>(i), candidate_count, static_cast<std::uint8_t>(rs.count),
                   multicast_ && is_multicast(rs)};
    for (int c = 0; c < rs.count; ++c) {
      const int port = rs.ports[c];
      std::uint64_t usable = 0;
      for (int vc = rs.vc_lo; vc <= rs.vc_hi; ++vc)
        usable |= std::uint64_t{output_vc_usable(ivc0 + port * vcs_ + vc, packet_flits)} << vc;
      const int score = most_credits_ && usable != 0 ? port_credits(ivc0, port, rs.vc_lo, rs.vc_hi) : 0;
      candidates[candidate_count++] = {usable, score, static_cast<std::uint8_t>(port), -1};
    }
  }
  const vc_alloc::RouterView view{vcs_,
                                  graph_.num_ports(r) * vcs_,
                                  params_.vc_choice,
                                  &router_[r].va_rr,
                                  vc_rr_.empty() ? nullptr : &vc_rr_[base],
                                  &router_rng_[r],
                                  va_out_rr_.empty() ? nullptr : &va_out_rr_[ivc0]};
  const vc_alloc::Scratch scratch{claim_.data(), claim_dist_.data(), touched_.data(), vc_cells_.data()};
  vc_alloc::Grant* grants = vc_grants_.data();
  const int granted = vc_alloc_(view, {requests, static_cast<std::size_t>(count)},
                                {candidates, static_cast<std::size_t>(candidate_count)}, scratch, grants);
  for (int k = 0; k < granted; ++k) {
    const int i = grants[k].input;
    ready[(*ready_count)++] = i;
    if (grants[k].ovc < 0) {
      grant_branches(r, i, &candidates[requests[grants[k].request].first]);  // net/multicast.cpp
      continue;
    }
    const int ol = grants[k].ovc;
    InputVc& s = ivc_[ivc0 + i];
    s.out_port = local_port_[ol];
    s.out_vc = local_vc_[ol];
    ovc_[ivc0 + ol].owner = static_cast<std::int16_t>(i);
  }
}

}  // namespace mppnet::net
