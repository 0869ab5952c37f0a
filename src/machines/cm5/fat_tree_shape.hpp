// machines/cm5/fat_tree_shape.hpp: the CM-5 data network's wiring: which router chip connects to which.
//
// The paper's wiring figure is lost; this is the reconstruction of note 000 §2.3.2 (assumption A1),
// which reproduces every number the text states (160 MB/s out of 16 nodes, 10 GB/s between the halves
// of a 2K machine, two disjoint sides, unique down paths):
//  - leaves (nodes) are level 0; the chips of the fat-tree node above a subtree of 4^k leaves are level k;
//  - each leaf has one link into each side (left = side 0, right = side 1), and the sides share nothing;
//  - per side, a level-k node has c(k) = u(k-1) chips, where u is the number of uplinks out of a node:
//    u(0) = 1 and u(k) = c(k) * P(k), with P(k) parent ports per chip (2 at levels 1-2, 4 above);
//  - chip j of a level-k node takes uplink j of each of its 4 child subtrees: its child port c goes to
//    uplink j of child c, which is parent port j mod P(k-1) of that child's chip j / P(k-1).
// A machine whose size is not a power of 4 has a partly populated top: a node exists when its subtree
// holds a leaf, and its chips' child ports towards missing subtrees are unused.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace mppnet::machines::cm5 {

using ChipId = std::int32_t;
constexpr ChipId kNoChip = -1;
constexpr int kChildPorts = 4;
constexpr int kMaxParentPorts = 4;
constexpr int kChipPorts = kChildPorts + kMaxParentPorts;  // 0..3 children, 4..7 parents
constexpr int kSides = 2;

// Where a chip's output port leads: a chip's input port, or a node's network interface on one side.
struct PortPeer {
  ChipId chip = kNoChip;  // kNoChip: a leaf (node) or nothing
  NodeId node = -1;       // the leaf, when chip == kNoChip; -1 with chip == kNoChip: unused port
  int port = 0;           // the input port at the peer chip
  bool is_used() const { return chip != kNoChip || node >= 0; }
};

struct ChipPlace {
  int side = 0;
  int level = 0;  // 1 .. height
  int node = 0;   // index of its fat-tree node among the level's nodes (leaf >> 2*level)
  int index = 0;  // chip index j within the node on its side
};

class FatTreeShape {
 public:
  // `parents_by_level` gives P(1), P(2), ...; the last value repeats for higher levels (the CM-5:
  // {2, 2, 4}). REQUIRES: nodes >= 2; every P in 1..4.
  FatTreeShape(int nodes, std::vector<int> parents_by_level);

  int nodes() const { return nodes_; }
  int height() const { return height_; }  // levels of chips: the smallest h with 4^h >= nodes
  int chips() const { return static_cast<int>(places_.size()); }
  int parent_ports(int level) const;  // P(level); 0 at the top level, whose chips have no parents
  int chips_per_node(int level) const { return per_node_[level]; }  // c(level), one side
  int uplinks(int level) const;      // u(level) = c(level) * P(level), one side; u(0) = 1
  int level_nodes(int level) const;  // fat-tree nodes that exist at `level`

  const ChipPlace& place(ChipId c) const { return places_[c]; }
  ChipId chip(int side, int level, int node, int index) const;
  // The level-1 chip a node's link on `side` enters, and the child port it enters on.
  ChipId leaf_chip(NodeId v, int side) const { return chip(side, 1, v >> 2, 0); }
  static int leaf_port(NodeId v) { return v & 3; }
  // Where output port `port` of chip c leads (a child port leads down, a parent port up).
  PortPeer peer(ChipId c, int port) const { return peers_[static_cast<std::size_t>(c) * kChipPorts + port]; }

  // The height of the least common ancestor of two leaves (1 for two leaves under one level-1 chip,
  // and for a node sending to itself, which turns at its level-1 chip: note 000 A31).
  static int lca_height(NodeId a, NodeId b);
  // The child port taken at a level-`level` chip on the way down to leaf `dest`.
  static int down_port(NodeId dest, int level) { return (dest >> (2 * (level - 1))) & 3; }

 private:
  void wire();

  int nodes_;
  int height_ = 0;
  std::vector<int> parents_;        // P by level, index 1..height (0 at the top)
  std::vector<int> per_node_;       // c by level, index 1..height
  std::vector<ChipId> level_base_;  // first chip of (side, level): [side * (height+1) + level]
  std::vector<ChipPlace> places_;
  std::vector<PortPeer> peers_;
};

}  // namespace mppnet::machines::cm5
