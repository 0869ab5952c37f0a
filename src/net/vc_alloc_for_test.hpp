// net/vc_alloc_for_test.hpp: test helper: one router's VC request matrix, built row by row, handed to an
// allocator with the scratch the network would give it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "net/vc_alloc.hpp"

namespace mppnet::net::vc_alloc::testing {

// A candidate port: the VCs usable there (bit v: VC v) and, for MostCredits, its score.
struct Port {
  int port;
  std::uint64_t usable;
  int score = 0;
};

// What an allocator granted: an input VC and its local output VC (port * vcs + vc), or -1 for a
// multicast (then `branch_vcs` lists the VC taken on each branch).
struct Granted {
  int input;
  int ovc;
  std::vector<int> branch_vcs = {};
  bool operator==(const Granted&) const = default;
};

inline void PrintTo(const Granted& g, std::ostream* os) {
  *os << "{input " << g.input << ", ovc " << g.ovc;
  for (int v : g.branch_vcs) *os << ", branch vc " << v;
  *os << "}";
}

struct Matrix {
  Matrix(int ports, int vcs)
      : vcs(vcs),
        n(ports * vcs),
        vc_rr(ports, 0),
        claim(n, -1),
        dist(n, 0),
        listed(n, -1),
        cells(static_cast<std::size_t>(n) * topo::kMaxRouteCandidates, 0),
        grants(n) {}

  // REQUIRES: rows added in increasing input order, ports increasing within a row.
  void row(int input, std::initializer_list<Port> ports, bool multicast = false) {
    requests.push_back({static_cast<std::int16_t>(input), static_cast<std::int32_t>(candidates.size()),
                        static_cast<std::uint8_t>(ports.size()), multicast});
    for (const Port& p : ports)
      candidates.push_back({p.usable, p.score, static_cast<std::uint8_t>(p.port), -1});
  }

  std::vector<Granted> run(Allocate allocate, VcChoice choice) {
    const RouterView view{
        vcs, n, choice, &input_rr, vc_rr.data(), &rng, output_rr.empty() ? nullptr : output_rr.data()};
    const Scratch scratch{claim.data(), dist.data(), listed.data(), cells.data()};
    const int count = allocate(view, requests, candidates, scratch, grants.data());
    std::vector<Granted> out;
    for (int k = 0; k < count; ++k) {
      Granted g{grants[k].input, grants[k].ovc};
      const Request& q = requests[grants[k].request];
      EXPECT_EQ(q.input, grants[k].input) << "a grant names the wrong row";
      if (g.ovc < 0)
        for (int c = q.first; c < q.first + q.count; ++c) g.branch_vcs.push_back(candidates[c].vc);
      out.push_back(g);
    }
    for (int ol = 0; ol < n; ++ol) EXPECT_EQ(claim[ol], -1) << "claim " << ol << " left set";
    return out;
  }

  int vcs;
  int n;
  std::uint16_t input_rr = 0;
  std::vector<std::uint8_t> vc_rr;
  std::vector<std::uint16_t> output_rr;  // per output VC (VcArbiter::PerOutputVc); empty: input_rr alone
  core::RandomStream rng{7, 1, core::Stream::RouteChoice};
  std::vector<Request> requests;
  std::vector<Candidate> candidates;
  std::vector<std::int32_t> claim, dist, listed;
  std::vector<std::uint64_t> cells;
  std::vector<Grant> grants;
};

}  // namespace mppnet::net::vc_alloc::testing
