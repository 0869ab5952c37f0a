// machines/cm5/diagnostic_geography.cpp: lays the data network's boards out as leaves of the diagnostic
// tree, level by level.
#include "machines/cm5/diagnostic_geography.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::cm5 {

DiagnosticGeography::DiagnosticGeography(const FatTreeShape& shape) {
  // Each level's chips on one side, in FatTreeShape's order (node by node, chip index within the node).
  std::vector<std::vector<std::vector<ChipId>>> chips_of(static_cast<std::size_t>(shape.height()) + 1);
  for (int level = 1; level <= shape.height(); ++level) {
    auto& sides = chips_of[static_cast<std::size_t>(level)];
    sides.resize(kSides);
    for (int side = 0; side < kSides; ++side)
      for (int node = 0; node < shape.level_nodes(level); ++node)
        for (int j = 0; j < shape.chips_per_node(level); ++j)
          sides[static_cast<std::size_t>(side)].push_back(shape.chip(side, level, node, j));
    const int boards = static_cast<int>((sides[0].size() + kChipsPerPod - 1) / kChipsPerPod);
    int size = 1;
    while (size < boards) size *= 2;
    blocks_.push_back({.level = level, .first_pod = 0, .size = 2 * size, .pods_per_side = boards});
  }
  // Largest subtree first: every offset is then a multiple of the sizes that follow, so each block is
  // aligned, i.e. a subtree of the diagnostic tree.
  std::stable_sort(blocks_.begin(), blocks_.end(),
                   [](const LevelBlock& a, const LevelBlock& b) { return a.size > b.size; });
  int next = 0;
  for (LevelBlock& b : blocks_) {
    b.first_pod = next;
    next += b.size;
  }
  height_ = diagnostic_height_for(next);
  present_.assign(static_cast<std::size_t>(leaves()), false);
  chips_.assign(static_cast<std::size_t>(leaves()) * kChipsPerPod, kNoChip);
  where_.assign(static_cast<std::size_t>(shape.chips()), PodPlace{});
  for (const LevelBlock& b : blocks_) {
    const auto& sides = chips_of[static_cast<std::size_t>(b.level)];
    for (int side = 0; side < kSides; ++side) {
      const std::vector<ChipId>& list = sides[static_cast<std::size_t>(side)];
      for (std::size_t k = 0; k < list.size(); ++k) {
        const int pod = b.first_pod + side * (b.size / 2) + static_cast<int>(k) / kChipsPerPod;
        const int slot = static_cast<int>(k) % kChipsPerPod;
        present_[static_cast<std::size_t>(pod)] = true;
        chips_[static_cast<std::size_t>(pod) * kChipsPerPod + static_cast<std::size_t>(slot)] = list[k];
        where_[static_cast<std::size_t>(list[k])] = {pod, slot};
      }
    }
  }
  pods_ = static_cast<int>(std::count(present_.begin(), present_.end(), true));
}

ChipId DiagnosticGeography::chip(int pod, int slot) const {
  MPPNET_ASSERT(pod >= 0 && pod < leaves() && slot >= 0 && slot < kChipsPerPod, "pod or slot out of range");
  return chips_[static_cast<std::size_t>(pod) * kChipsPerPod + static_cast<std::size_t>(slot)];
}

std::vector<bool> DiagnosticGeography::pods_at_level(int level) const {
  std::vector<bool> wanted(static_cast<std::size_t>(leaves()), false);
  for (const LevelBlock& b : blocks_) {
    if (b.level != level) continue;
    for (int p = b.first_pod; p < b.first_pod + b.size; ++p)
      wanted[static_cast<std::size_t>(p)] = present_[static_cast<std::size_t>(p)];
  }
  return wanted;
}

std::vector<DiagnosticAddress> DiagnosticGeography::level_addresses(int level) const {
  return selection_sequence(make_tree(), pods_at_level(level));
}

}  // namespace mppnet::machines::cm5
