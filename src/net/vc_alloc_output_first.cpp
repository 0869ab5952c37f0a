// net/vc_alloc_output_first.cpp: separable output-first VC allocation, one pass, round-robin priority.
//
// Output stage: every row asks for every usable VC of every candidate port, and each output VC goes to
// the asker nearest after the round-robin pointer; a row near the pointer is granted every free VC it
// asked for. Input stage: the row accepts one grant, the others lapse this cycle. Which one: with the
// routing's MostCredits, only grants on the ports with the most credits count; then
//   lowest_free, random  one of them drawn uniformly, the rule this allocator had before the VC choice
//                        existed (kept for identical results: an output-first row never asked for the
//                        lowest VC, since the outputs offer all of theirs);
//   round_robin          on each port, the grant nearest at or after the port's VC pointer, then one
//                        port as the routing's port selection takes it.
// A multicast row asks for its branch VCs only (the VC choice's), and keeps them only if it wins all.
#include <algorithm>
#include <bit>

#include "net/arbiter.hpp"
#include "net/vc_alloc.hpp"

namespace mppnet::net::vc_alloc {

int output_first(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                 const Scratch& s, Grant* grants) {
  const int n = r.n;
  const int vcs = r.vcs;
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
        ask(candidates[c].port * vcs + candidates[c].vc, row.input, true);
      continue;
    }
    for (int c = row.first; c < row.first + row.count; ++c)
      for (std::uint64_t bits = candidates[c].usable; bits != 0; bits &= bits - 1)
        ask(candidates[c].port * vcs + std::countr_zero(bits), row.input, false);
  }

  // Input stage, over the grants in output-VC order.
  std::sort(s.listed, s.listed + listed);
  for (const Request& row : requests) {
    if (row.multicast) continue;  // it needs every grant it got
    const int i = row.input;
    const Candidate* first = &candidates[row.first];
    auto candidate_of = [&](int ol) {
      int c = 0;
      while (first[c].port != ol / vcs) ++c;
      return c;
    };
    int grants_held = 0, best = -1;
    for (int t = 0; t < listed; ++t) {
      if (s.claim[s.listed[t]] != i) continue;
      const int score = first[candidate_of(s.listed[t])].score;
      grants_held = score > best ? 1 : grants_held + (score == best);
      best = std::max(best, score);
    }
    if (grants_held == 0) continue;
    int keep_ol = -1;
    if (r.choice != VcChoice::RoundRobin) {
      int keep =
          grants_held > 1 ? static_cast<int>(r.rng->below(static_cast<std::uint32_t>(grants_held))) : 0;
      for (int t = 0; t < listed && keep_ol < 0; ++t) {
        const int ol = s.listed[t];
        if (s.claim[ol] == i && first[candidate_of(ol)].score == best && keep-- == 0) keep_ol = ol;
      }
    } else {
      for (int c = 0; c < row.count; ++c) candidates[row.first + c].vc = -1;
      for (int t = 0; t < listed; ++t) {
        const int ol = s.listed[t];
        if (s.claim[ol] != i) continue;
        Candidate& c = candidates[row.first + candidate_of(ol)];
        const int v = ol % vcs;
        if (c.score != best) continue;
        if (c.vc < 0 ||
            arbiter::rr_distance(v, r.vc_rr[c.port], vcs) < arbiter::rr_distance(c.vc, r.vc_rr[c.port], vcs))
          c.vc = static_cast<std::int8_t>(v);
      }
      int options[topo::kMaxRouteCandidates];
      int found = 0;
      for (int c = row.first; c < row.first + row.count; ++c)
        if (candidates[c].vc >= 0) options[found++] = c;
      const Candidate& taken = candidates[options[choose(r, candidates.data(), options, found)]];
      keep_ol = taken.port * vcs + taken.vc;
    }
    for (int t = 0; t < listed; ++t)
      if (s.claim[s.listed[t]] == i && s.listed[t] != keep_ol) s.claim[s.listed[t]] = -2;  // declined
  }
  return finish_separable(r, requests, candidates, s, listed, grants);
}

}  // namespace mppnet::net::vc_alloc
