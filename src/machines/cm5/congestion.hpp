// machines/cm5/congestion.hpp: the paper's congestion estimate of a message set (note 000 §5.18).
//
// TMC estimated the time to route a set of messages as the largest, over the arms of the fat tree, of
// the load through the arm divided by its bandwidth (paper L224-233, note 000 §2.3.12). An arm is one
// direction of the bundle of links between a subtree and its parent node on one side, or one node's
// injection or ejection link on one side. Routes through the tree are unique up to the choice of link
// within a bundle, so the bound depends only on which bundles a message crosses, not on which chips it
// takes: the random up-choice only spreads load inside a bundle. Since a link moves one nibble a cycle,
// load / capacity is in cycles, and no schedule can beat it: it is a lower bound on completion.
#pragma once

#include <vector>

#include "core/types.hpp"
#include "machines/cm5/fat_tree_shape.hpp"
#include "machines/cm5/message_sets.hpp"

namespace mppnet::machines::cm5 {

// max over arms of ceil(load / links), in cycles. Message m goes on side side_of_message[m] and carries
// message_nibbles(words, lca_height(src, dest)) nibbles; on its side it loads src's injection link and
// the up bundles of src's subtrees at levels 1 .. L-1, then the down bundles of dest's subtrees at levels
// L-1 .. 1 and dest's ejection link, L being its LCA height. A level-k bundle has shape.uplinks(k) links
// on each side; a node's link is one.
// REQUIRES: side_of_message.size() == set.size(), every side 0 or 1, every node < shape.nodes(),
// 1 <= words <= kMaxWords.
Cycle load_bound_cycles(const FatTreeShape& shape, const std::vector<SetMessage>& set, int words,
                        const std::vector<int>& side_of_message);

// The sides completion_cycles uses (machines/cm5/completion.hpp): the k-th message of each source, in
// set order, on side k % 2.
std::vector<int> alternate_sides_per_source(const std::vector<SetMessage>& set);

// The bound with sides from alternate_sides_per_source.
Cycle load_bound_cycles(const FatTreeShape& shape, const std::vector<SetMessage>& set, int words);

}  // namespace mppnet::machines::cm5
