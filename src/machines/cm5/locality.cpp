// machines/cm5/locality.cpp: the four locality classes and their stream runs.
#include "machines/cm5/locality.hpp"

#include "machines/cm5/message_sets.hpp"

#include <algorithm>

namespace mppnet::machines::cm5 {

namespace {

// Each node sends to the node `shift` places on in its aligned group of `group` nodes: a permutation,
// so no receiver is asked for more than its links carry and the tree's levels are what limits.
Pattern shifted(int group, int shift) {
  return [=](NodeId src, core::RandomStream&) -> NodeId {
    const NodeId base = src / group * group;
    return base + (src - base + shift) % group;
  };
}

// Each node sends to its partner in a random permutation of all nodes drawn from `seed`.
Pattern random_partner(int nodes, std::uint64_t seed) {
  core::RandomStream r(seed, 0, core::Stream::Setup);
  std::vector<NodeId> partner = shuffled(nodes, r);
  return [partner](NodeId src, core::RandomStream&) -> NodeId { return partner[src]; };
}

}  // namespace

std::vector<LocalityRow> run_locality(const DataNetworkParams& params, const StreamRun& run, int only_group,
                                      ChipId failed) {
  const int n = params.nodes;
  std::vector<LocalityRow> rows = {
      {"within 4", 4, 1, 40, "paper L205: 2 links of 20 MB/s", {}},
      {"within 16", 16, 4, 20, "paper L205-207: 4 uplinks of a 4-node group", {}},
      {"within 64", 64, 16, 10, "paper L206-207: 160 MB/s out of 16 nodes", {}},
      // A random partner lies outside the sender's group of 4 (16) with probability (n-4)/n ((n-16)/n),
      // where each node has 20 (10) MB/s: the capacity bound. The paper measured > 4 MB/s of payload
      // with software on random permutations (L233-234).
      {"random",
       n,
       0,
       std::min({40.0, 20.0 * n / (n - 4), 10.0 * n / (n - 16)}),
       "capacity, paper L204-209; measured > 4 MB/s payload with software (L233-234)",
       {}},
  };
  std::vector<LocalityRow> done;
  for (LocalityRow& row : rows) {
    if (row.group > n || (only_group > 0 && row.group != only_group)) continue;
    DataNetwork network(params);
    if (failed != kNoChip) network.route_around(failed);
    const Pattern pattern = row.shift > 0 ? shifted(row.group, row.shift) : random_partner(n, params.seed);
    row.result = run_streams(network, pattern, run, params.seed);
    done.push_back(row);
  }
  return done;
}

}  // namespace mppnet::machines::cm5
