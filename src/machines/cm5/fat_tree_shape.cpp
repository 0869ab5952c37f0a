// machines/cm5/fat_tree_shape.cpp: the chips of each side, level by level, and the wire of every port.
#include "machines/cm5/fat_tree_shape.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::cm5 {

FatTreeShape::FatTreeShape(int nodes, std::vector<int> parents_by_level) : nodes_(nodes) {
  MPPNET_ASSERT(nodes >= 2 && !parents_by_level.empty(), "a fat tree of at least two leaves");
  while ((std::int64_t{1} << (2 * height_)) < nodes) ++height_;
  parents_.assign(height_ + 1, 0);
  per_node_.assign(height_ + 1, 0);
  int uplinks_below = 1;  // u(0): one link per leaf and side
  for (int k = 1; k <= height_; ++k) {
    const int p = parents_by_level[std::min<std::size_t>(k - 1, parents_by_level.size() - 1)];
    MPPNET_ASSERT(p >= 1 && p <= kMaxParentPorts, "1 to 4 parent ports per chip");
    parents_[k] = k == height_ ? 0 : p;
    per_node_[k] = uplinks_below;
    uplinks_below *= p;
  }
  level_base_.assign(static_cast<std::size_t>(kSides) * (height_ + 1), 0);
  for (int side = 0; side < kSides; ++side) {
    for (int k = 1; k <= height_; ++k) {
      level_base_[side * (height_ + 1) + k] = static_cast<ChipId>(places_.size());
      for (int n = 0; n < level_nodes(k); ++n) {
        for (int j = 0; j < per_node_[k]; ++j) places_.push_back({side, k, n, j});
      }
    }
  }
  wire();
}

int FatTreeShape::parent_ports(int level) const {
  return parents_[level];
}

int FatTreeShape::uplinks(int level) const {
  return level == 0 ? 1 : per_node_[level] * (level == height_ ? 0 : parents_[level]);
}

int FatTreeShape::level_nodes(int level) const {
  const std::int64_t span = std::int64_t{1} << (2 * level);
  return static_cast<int>((nodes_ + span - 1) / span);
}

ChipId FatTreeShape::chip(int side, int level, int node, int index) const {
  return level_base_[side * (height_ + 1) + level] + node * per_node_[level] + index;
}

void FatTreeShape::wire() {
  peers_.assign(places_.size() * kChipPorts, PortPeer{});
  for (ChipId c = 0; c < chips(); ++c) {
    const ChipPlace& at = places_[c];
    PortPeer* ports = &peers_[static_cast<std::size_t>(c) * kChipPorts];
    for (int child = 0; child < kChildPorts; ++child) {
      const int below = at.node * 4 + child;
      if (at.level == 1) {
        if (below < nodes_) ports[child] = {.chip = kNoChip, .node = below, .port = 0};
      } else if (below < level_nodes(at.level - 1)) {
        // Uplink `index` of the child subtree: parent port index % P of its chip index / P.
        const int p = parents_[at.level - 1];
        ports[child] = {.chip = chip(at.side, at.level - 1, below, at.index / p),
                        .node = -1,
                        .port = kChildPorts + at.index % p};
      }
    }
    for (int up = 0; up < parents_[at.level]; ++up) {
      const int uplink = at.index * parents_[at.level] + up;
      ports[kChildPorts + up] = {
          .chip = chip(at.side, at.level + 1, at.node / 4, uplink), .node = -1, .port = at.node % 4};
    }
  }
}

int FatTreeShape::lca_height(NodeId a, NodeId b) {
  int level = 1;
  while ((a >> (2 * level)) != (b >> (2 * level))) ++level;
  return level;
}

}  // namespace mppnet::machines::cm5
