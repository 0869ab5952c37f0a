// net/vc_alloc_input_first.cpp: separable input-first VC allocation, one pass, round-robin priority.
//
// Input stage: each row asks for one output VC, the VC choice's VC on the port its routing's port
// selection takes among those with a usable VC (at random, or the most credits). Output stage: each
// output VC asked for goes to the asker nearest after the round-robin pointer. Under lowest_free and
// round_robin every row asking for a port asks for the same VC of it, so a port grants at most one VC
// per cycle; random spreads the rows over its VCs. This is the allocator the bitmask router
// (net/fast_router.cpp) reproduces bit for bit under lowest_free.
#include "net/arbiter.hpp"
#include "net/vc_alloc.hpp"

namespace mppnet::net::vc_alloc {

int input_first(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                const Scratch& s, Grant* grants) {
  const int n = r.n;
  const int rr = *r.input_rr < n ? *r.input_rr : 0;
  int listed = 0;
  // A multicast row is ranked at every branch from the router's pointer, even under per-output-VC
  // pointers: ranked by each output's own pointer, two multicasts could each be first at some of the
  // branches they share, each lose the rest, and (no grant, no pointer moved) split them the same way
  // every cycle while the outputs they lapse starve every unicast too. With one ranking the nearest
  // multicast wins all it shares with other multicasts, so some request is granted every cycle.
  auto ask = [&](int ol, int i, bool multicast) {
    const bool own = r.output_rr != nullptr && !multicast;
    arbiter::offer(s.claim, s.dist, s.listed, listed, ol, i,
                   arbiter::rr_distance(i, own ? r.output_rr[ol] : rr, n));
  };
  for (const Request& row : requests) {
    if (row.multicast) {
      if (!pick_branches(r, row, candidates)) continue;
      for (int c = row.first; c < row.first + row.count; ++c)
        ask(candidates[c].port * r.vcs + candidates[c].vc, row.input, true);
      continue;
    }
    int options[topo::kMaxRouteCandidates];
    int found = 0;
    for (int c = row.first; c < row.first + row.count; ++c) {
      candidates[c].vc = static_cast<std::int8_t>(pick_vc(r, candidates[c]));
      if (candidates[c].vc >= 0) options[found++] = c;
    }
    if (found == 0) continue;
    const Candidate& taken = candidates[options[choose(r, candidates.data(), options, found)]];
    ask(taken.port * r.vcs + taken.vc, row.input, false);
  }
  return finish_separable(r, requests, candidates, s, listed, grants);
}

}  // namespace mppnet::net::vc_alloc
