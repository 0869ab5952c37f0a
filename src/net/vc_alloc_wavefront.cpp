// net/vc_alloc_wavefront.cpp: wavefront VC allocation (Y. Tamir and H.-C. Chi, "Symmetric crossbar
// arbiters for VLSI communication switches", IEEE TPDS 4(1), 1993).
//
// The request matrix has a row per waiting input VC and a column per output VC. Cell (i, j) lies on the
// wrapped diagonal (i + j) mod n; the cells of one diagonal share no row and no column, so the arbiter
// grants diagonal by diagonal, starting at the priority diagonal, every request whose row and column
// are both still unmatched. The result is a maximal matching: no ungranted request has both its row and
// its column free, which a separable allocator cannot promise. The priority diagonal moves on by one
// after every cycle that grants something, so every cell holds the top priority once in n such cycles.
//
// A row asks for one VC (the VC choice's) on every candidate port with one, rather than committing to a
// port first as input_first does; the arbiter picks the port. With the routing's MostCredits, only the
// ports with the most credits are asked for; its RandomFree choice among free ports is left to the
// arbiter, which draws nothing. Multicast rows go first, whole, in round-robin order from the pointer,
// each taking every branch VC it asked for if all are free: the same rule as multicast switch
// allocation (net/multicast.cpp), because a wavefront that let a multicast win some branches and lose
// others could let two multicasts block each other the same way every cycle.
#include <algorithm>

#include "net/arbiter.hpp"
#include "net/vc_alloc.hpp"

namespace mppnet::net::vc_alloc {

int wavefront(const RouterView& r, std::span<const Request> requests, std::span<Candidate> candidates,
              const Scratch& s, Grant* grants) {
  const int n = r.n;
  const int vcs = r.vcs;
  const int p = *r.input_rr < n ? *r.input_rr : 0;
  std::uint64_t* cells = s.cells;
  int count = 0, listed = 0;
  auto take = [&](int ol, int i) {
    s.claim[ol] = i;
    s.listed[listed++] = ol;
  };

  // Multicasts, nearest after the pointer first (priority, row index).
  int multicasts = 0;
  for (std::size_t q = 0; q < requests.size(); ++q) {
    const Request& row = requests[q];
    if (!row.multicast || !pick_branches(r, row, candidates)) continue;
    cells[multicasts++] = (std::uint64_t(arbiter::rr_distance(row.input, p, n)) << 32) | q;
  }
  std::sort(cells, cells + multicasts);
  for (int k = 0; k < multicasts; ++k) {
    const auto q = static_cast<std::uint16_t>(cells[k] & 0xffffffff);
    const Request& row = requests[q];
    bool free = true;
    for (int c = row.first; c < row.first + row.count; ++c)
      free &= s.claim[candidates[c].port * vcs + candidates[c].vc] < 0;
    if (!free) continue;
    for (int c = row.first; c < row.first + row.count; ++c)
      take(candidates[c].port * vcs + candidates[c].vc, row.input);
    grants[count++] = {row.input, -1, q};
  }

  // Unicast cells as (diagonal's distance from the priority diagonal, row index, output VC).
  int cell_count = 0;
  for (std::size_t q = 0; q < requests.size(); ++q) {
    const Request& row = requests[q];
    if (row.multicast) continue;
    int best = -1;
    for (int c = row.first; c < row.first + row.count; ++c) {
      candidates[c].vc = static_cast<std::int8_t>(pick_vc(r, candidates[c]));
      if (candidates[c].vc >= 0) best = std::max(best, candidates[c].score);
    }
    for (int c = row.first; c < row.first + row.count; ++c) {
      if (candidates[c].vc < 0 || candidates[c].score != best) continue;
      const int ol = candidates[c].port * vcs + candidates[c].vc;
      const int diagonal = (row.input + ol) % n;
      cells[cell_count++] = (std::uint64_t(arbiter::rr_distance(diagonal, p, n)) << 32) | (q << 16) | ol;
    }
  }
  std::sort(cells, cells + cell_count);
  // s.dist[i] marks row i matched (1) for this call only.
  for (const Request& row : requests) s.dist[row.input] = 0;
  for (int k = 0; k < cell_count; ++k) {
    const auto q = static_cast<std::uint16_t>((cells[k] >> 16) & 0xffff);
    const int ol = static_cast<int>(cells[k] & 0xffff);
    const int i = requests[q].input;
    if (s.dist[i] != 0 || s.claim[ol] >= 0) continue;
    s.dist[i] = 1;
    take(ol, i);
    grants[count++] = {static_cast<std::int16_t>(i), static_cast<std::int16_t>(ol), q};
  }
  for (int t = 0; t < listed; ++t) s.claim[s.listed[t]] = -1;
  if (count > 0) *r.input_rr = static_cast<std::uint16_t>(p + 1 == n ? 0 : p + 1);
  if (r.choice == VcChoice::RoundRobin) move_vc_pointers(r, requests, candidates, s, grants, count);
  return count;
}

}  // namespace mppnet::net::vc_alloc
