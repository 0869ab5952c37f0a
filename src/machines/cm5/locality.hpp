// machines/cm5/locality.hpp: per-node bandwidth by how far messages go, beside the paper's figures.
//
// The fat tree is thinned at levels 1 and 2 (2 parent links per chip) and constant above (paper
// L204-209), so what a node can send depends on how far its messages go: 40 MB/s raw to its own group
// of 4 (its two links), 20 MB/s out of its group of 4 (4 uplinks of 20 MB/s for 4 nodes), 10 MB/s out
// of its group of 16 (160 MB/s for 16 nodes) and from there on up.
#pragma once

#include <string>
#include <vector>

#include "machines/cm5/data_network.hpp"
#include "machines/cm5/streams.hpp"

namespace mppnet::machines::cm5 {

struct LocalityRow {
  std::string traffic;  // "within 4", "within 16", "within 64", "random"
  int group = 0;        // each node sends to the node `shift` places on in its aligned group of this size,
  int shift = 0;        // or (shift 0) to its partner in a random permutation of the machine
  double paper_raw_mb_s = 0;  // per node, what the paper's link counts allow
  std::string paper_source;
  StreamResult result;
  double raw_per_node() const { return result.raw_mb_per_s() / result.senders; }
  double payload_per_node() const { return result.payload_mb_per_s() / result.senders; }
};

// Runs each locality class the machine has (a group larger than the machine is left out), every node
// backlogged on both sides with `run.words`-word messages, each on a fresh network. Every class is a
// permutation: the paper's figures are what the links carry, and random destinations would measure
// contention at the receivers instead (a node picked by two senders at once takes one at a time).
// With only_group > 0, runs that class alone; a failed chip (not kNoChip) is routed around.
std::vector<LocalityRow> run_locality(const DataNetworkParams& params, const StreamRun& run,
                                      int only_group = 0, ChipId failed = kNoChip);

}  // namespace mppnet::machines::cm5
