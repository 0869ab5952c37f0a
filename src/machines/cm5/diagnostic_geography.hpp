// machines/cm5/diagnostic_geography.hpp: where the data network's router chips sit in the diagnostic
// tree, and the translation from network addresses ("all data-network chips at level k") to diagnostic
// addresses (Leiserson et al. 1992, the CM-5 network, L751-760).
//
// The paper gives no pod layout; this one is an assumption (docs/assumptions.md, "CM-5 diagnostic
// network"), chosen from what the paper and note 000 do say:
//  - a pod is a board that implements JTAG (L715-716). Here a pod is a board of kChipsPerPod data-network
//    router chips of one level and one side, consecutive in FatTreeShape's order: at level 1 the chips of
//    the 16 nodes under one level-2 node, at level 2 those of two level-2 nodes, above that a quarter (or
//    less) of one node's chips. Levels 1-2 run through backplanes and the higher levels through cables
//    in other cabinets (L256-257), so boards do not mix levels;
//  - the diagnostic tree follows the packaging: one subtree per level, and within it one per side; a
//    level's subtree is the smallest power of two that holds its pods, and the subtrees are placed
//    largest first so that each is aligned (a subtree of the diagnostic tree). Leaves left over are
//    absent pods: the tree is "not necessarily complete" (L712).
// Every level is then one subtree, selected by one address however big the machine; the paper's bound
// of at most h addresses (L755-757) covers layouts in which levels interleave, which selection_sequence
// also handles.
#pragma once

#include <vector>

#include "machines/cm5/diagnostic_network.hpp"
#include "machines/cm5/fat_tree_shape.hpp"

namespace mppnet::machines::cm5 {

constexpr int kChipsPerPod = 4;

struct PodPlace {
  int pod = -1;  // its leaf in the diagnostic tree
  int slot = 0;  // its place in the pod's JTAG chain
};

struct LevelBlock {
  int level = 0;
  int first_pod = 0;  // the subtree's first leaf; side 0's pods, then side 1's from first_pod + size / 2
  int size = 0;       // leaves of the subtree (a power of two)
  int pods_per_side = 0;
};

class DiagnosticGeography {
 public:
  explicit DiagnosticGeography(const FatTreeShape& shape);

  int height() const { return height_; }
  int leaves() const { return 1 << height_; }
  int pods() const { return pods_; }  // present pods
  const std::vector<LevelBlock>& blocks() const { return blocks_; }
  // A tree with this geography's pods present.
  DiagnosticTree make_tree() const { return DiagnosticTree(height_, present_); }

  // The chip in `slot` of `pod`, or kNoChip (an absent pod or an empty slot of a level's last board).
  ChipId chip(int pod, int slot) const;
  PodPlace where(ChipId c) const { return where_[static_cast<std::size_t>(c)]; }
  // Pods holding the data-network chips of `level` (both sides). REQUIRES 1 <= level <= shape height.
  std::vector<bool> pods_at_level(int level) const;
  // Addresses that select them (selection_sequence on this tree).
  std::vector<DiagnosticAddress> level_addresses(int level) const;

 private:
  int height_ = 1;
  int pods_ = 0;
  std::vector<LevelBlock> blocks_;  // in address order
  std::vector<bool> present_;
  std::vector<ChipId> chips_;  // leaves * kChipsPerPod
  std::vector<PodPlace> where_;
};

}  // namespace mppnet::machines::cm5
