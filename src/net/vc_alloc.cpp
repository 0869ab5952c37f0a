// net/vc_alloc.cpp: the steps every VC allocator shares: which VC a row asks for, which port it takes,
// multicast rows, and the separable allocators' last stage.
#include "net/vc_alloc.hpp"

#include <bit>

#include "core/error.hpp"
#include "net/arbiter.hpp"

namespace mppnet::net::vc_alloc {

using arbiter::rr_distance;

Allocate allocator_for(VcAllocatorKind kind) {
  switch (kind) {
    case VcAllocatorKind::InputFirst:
      return &input_first;
    case VcAllocatorKind::OutputFirst:
      return &output_first;
    case VcAllocatorKind::Wavefront:
      return &wavefront;
    case VcAllocatorKind::Auto:
      break;
  }
  MPPNET_ASSERT(false, "VcAllocatorKind::Auto reached allocator_for unresolved");
  return &input_first;
}

int pick_vc(const RouterView& r, const Candidate& c) {
  const std::uint64_t usable = c.usable;
  if (usable == 0) return -1;
  switch (r.choice) {
    case VcChoice::LowestFree:
      return std::countr_zero(usable);
    case VcChoice::RoundRobin: {
      const std::uint64_t from = ~std::uint64_t{0} << r.vc_rr[c.port];
      return std::countr_zero((usable & from) != 0 ? usable & from : usable);
    }
    case VcChoice::Random: {
      const int k = std::popcount(usable);
      if (k == 1) return std::countr_zero(usable);
      std::uint64_t left = usable;
      for (int skip = static_cast<int>(r.rng->below(static_cast<std::uint32_t>(k))); skip > 0; --skip)
        left &= left - 1;
      return std::countr_zero(left);
    }
  }
  return -1;
}

int choose(const RouterView& r, const Candidate* candidates, const int* options, int found) {
  if (found == 1) return 0;
  int best = -1, ties = 0;
  for (int k = 0; k < found; ++k) {
    const int s = candidates[options[k]].score;
    ties = s > best ? 1 : ties + (s == best);
    best = s > best ? s : best;
  }
  int keep = ties > 1 ? static_cast<int>(r.rng->below(static_cast<std::uint32_t>(ties))) : 0;
  for (int k = 0; k < found; ++k)
    if (candidates[options[k]].score == best && keep-- == 0) return k;
  return 0;  // not reached: `ties` candidates score `best`
}

bool pick_branches(const RouterView& r, const Request& q, std::span<Candidate> candidates) {
  for (int c = q.first; c < q.first + q.count; ++c) {
    candidates[c].vc = static_cast<std::int8_t>(pick_vc(r, candidates[c]));
    if (candidates[c].vc < 0) {
      candidates[q.first].vc = -1;  // no request this cycle: the grant step reads branch 0 first
      return false;
    }
  }
  return true;
}

int finish_separable(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
                     const Scratch& s, int listed, Grant* grants) {
  const int n = r.n;
  const int rr = *r.input_rr < n ? *r.input_rr : 0;
  int count = 0, first = -1;
  auto granted = [&](int i) {
    if (first < 0 || rr_distance(i, rr, n) < rr_distance(first, rr, n)) first = i;
  };
  for (std::size_t q = 0; q < requests.size(); ++q) {
    const Request& row = requests[q];
    if (!row.multicast) continue;
    const int i = row.input;
    bool won_all = candidates[row.first].vc >= 0;
    for (int c = row.first; c < row.first + row.count && won_all; ++c)
      won_all = s.claim[candidates[c].port * r.vcs + candidates[c].vc] == i;
    if (won_all) {
      grants[count++] = {row.input, -1, static_cast<std::uint16_t>(q)};
      granted(i);
      if (r.output_rr != nullptr)
        for (int c = row.first; c < row.first + row.count; ++c)
          r.output_rr[candidates[c].port * r.vcs + candidates[c].vc] =
              static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
    }
    // What it won is either taken whole above or lapses this cycle: no unicast gets it either.
    if (candidates[row.first].vc < 0) continue;
    for (int c = row.first; c < row.first + row.count; ++c) {
      std::int32_t& claim = s.claim[candidates[c].port * r.vcs + candidates[c].vc];
      if (claim == i) claim = -1;
    }
  }
  // Requests are in input order, so the row of input i is found by a binary search.
  auto row_of = [&](int i) {
    std::size_t lo = 0, hi = requests.size();
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      (requests[mid].input <= i ? lo : hi) = mid;
    }
    return static_cast<std::uint16_t>(lo);
  };
  for (int t = 0; t < listed; ++t) {
    const int ol = s.listed[t];
    const int i = s.claim[ol];
    s.claim[ol] = -1;
    if (i < 0) continue;
    grants[count++] = {static_cast<std::int16_t>(i), static_cast<std::int16_t>(ol), row_of(i)};
    granted(i);
    if (r.output_rr != nullptr) r.output_rr[ol] = static_cast<std::uint16_t>(i + 1 == n ? 0 : i + 1);
  }
  if (first >= 0) *r.input_rr = static_cast<std::uint16_t>(first + 1 == n ? 0 : first + 1);
  if (r.choice == VcChoice::RoundRobin) move_vc_pointers(r, requests, candidates, s, grants, count);
  return count;
}

void move_vc_pointers(const RouterView& r, std::span<const Request> requests,
                      std::span<const Candidate> candidates, const Scratch& s, const Grant* grants,
                      int count) {
  const int vcs = r.vcs;
  // Visits every output VC granted: unicast grants name theirs, a multicast's are its candidates'.
  auto each = [&](auto visit) {
    for (int k = 0; k < count; ++k) {
      if (grants[k].ovc >= 0) {
        visit(grants[k].ovc / vcs, grants[k].ovc % vcs);
        continue;
      }
      const Request& row = requests[grants[k].request];
      for (int c = row.first; c < row.first + row.count; ++c) visit(candidates[c].port, candidates[c].vc);
    }
  };
  // s.dist[port * vcs] holds the port's furthest granted distance from its pointer (-1: moved already).
  each([&](int o, int) { s.dist[o * vcs] = -1; });
  each([&](int o, int v) {
    const int d = rr_distance(v, r.vc_rr[o], vcs);
    if (d > s.dist[o * vcs]) s.dist[o * vcs] = d;
  });
  each([&](int o, int v) {
    if (s.dist[o * vcs] < 0 || rr_distance(v, r.vc_rr[o], vcs) != s.dist[o * vcs]) return;
    r.vc_rr[o] = static_cast<std::uint8_t>(v + 1 == vcs ? 0 : v + 1);
    s.dist[o * vcs] = -1;
  });
}

}  // namespace mppnet::net::vc_alloc
