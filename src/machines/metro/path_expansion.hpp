// machines/metro/path_expansion.hpp: path expansion per stage and per node pair (DeHon §3.5.3).
//
// p(s) counts the distinct wires into stage s (s = 1..S+1; S+1 is the destination) that lie on some
// x -> y path. Eq 3.5 bounds it by min(ni*d^(s-1), no*r^(S+1-s)) for every pair, and Eq 3.6 gives
// ni*d^(S-1) distinct paths per pair. Deterministic and maximal-fanout wiring meet the bound for every
// pair; random wiring falls short for some (note 004a §4.7, R1). Counted from the built graph.
//
// Beyond the thesis's formulas (derived with the same argument as Eq 3.2: a path fans out by the
// number of equivalent outputs it may take at each stage):
//   a final stage of dilation d_S fans out by d_S into the destination: p_in(S+1) = ni*d^(S-1)*d_S;
//   E extra stages in front (T = S + E stages) fan out by r*d each, since every output of an extra-stage
//   router leads toward every node: p_in(s) = ni*(r*d)^min(s-1,E)*d^(s-1-E)..., and p_out(s) is
//   no*r^min(S, T+1-s): an extra stage can use every one of its N*ni = no*r^S input wires.
//   Paths per pair: ni*(r*d)^E*d^(S-1)*d_S.
#pragma once

#include <vector>

#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro {

// Eq 3.5: index s-1 holds the bound on p(s), s = 1..S+1.
std::vector<long long> path_expansion_bound(const MultibutterflyParams& p);
// Eq 3.6: ni * d^(S-1).
long long total_paths_bound(const MultibutterflyParams& p);

struct PathExpansion {
  std::vector<long long> bound;  // Eq 3.5, index s-1 for stage s = 1..S+1
  std::vector<int> min;          // over all ordered pairs (x, y), x = y included
  std::vector<int> max;
  std::vector<double> mean;
  long long pairs = 0;
  long long pairs_at_bound = 0;  // pairs whose p(s) equals the bound at every stage
  long long min_total_paths = 0;
  long long max_total_paths = 0;
};

PathExpansion path_expansion(const Multibutterfly& net);

}  // namespace mppnet::machines::metro
