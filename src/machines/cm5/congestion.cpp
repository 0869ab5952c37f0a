// machines/cm5/congestion.cpp: per-arm loads of a message set and the largest load per link.
#include "machines/cm5/congestion.hpp"

#include <algorithm>
#include <cstdint>

#include "core/error.hpp"
#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {

namespace {

// Nibbles through every arm, flattened as [side][direction][level][subtree]. Level 0 is the nodes'
// own links (up: injection, down: ejection); levels 1 .. height-1 are the bundles above each subtree.
// The top node has no parent, so it has no arm.
class ArmLoads {
 public:
  explicit ArmLoads(const FatTreeShape& shape) : height_(shape.height()) {
    first_.assign(height_ + 1, 0);
    for (int k = 0; k < height_; ++k) first_[k + 1] = first_[k] + shape.level_nodes(k);
    load_.assign(static_cast<std::size_t>(kSides) * 2 * first_[height_], 0);
  }
  void add(int side, bool up, int level, NodeId leaf, std::int64_t nibbles) {
    load_[index(side, up, level, leaf >> (2 * level))] += nibbles;
  }
  Cycle bound(const FatTreeShape& shape) const {
    Cycle worst = 0;
    for (int side = 0; side < kSides; ++side) {
      for (const bool up : {true, false}) {
        for (int k = 0; k < height_; ++k) {
          const std::int64_t links = shape.uplinks(k);
          for (int n = 0; n < shape.level_nodes(k); ++n) {
            worst = std::max(worst, (load_[index(side, up, k, n)] + links - 1) / links);
          }
        }
      }
    }
    return worst;
  }

 private:
  std::size_t index(int side, bool up, int level, int subtree) const {
    return static_cast<std::size_t>((side * 2 + (up ? 0 : 1)) * first_[height_] + first_[level] + subtree);
  }
  int height_;
  std::vector<int> first_;  // first arm of each level within one (side, direction)
  std::vector<std::int64_t> load_;
};

}  // namespace

Cycle load_bound_cycles(const FatTreeShape& shape, const std::vector<SetMessage>& set, int words,
                        const std::vector<int>& side_of_message) {
  MPPNET_ASSERT(side_of_message.size() == set.size(), "one side per message");
  ArmLoads loads(shape);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const SetMessage& m = set[i];
    const int side = side_of_message[i];
    MPPNET_ASSERT(side >= 0 && side < kSides, "side 0 or 1");
    MPPNET_ASSERT(m.src >= 0 && m.src < shape.nodes() && m.dest >= 0 && m.dest < shape.nodes(),
                  "a message between nodes of the machine");
    const int lca = FatTreeShape::lca_height(m.src, m.dest);
    const int nibbles = message_nibbles(words, lca);
    // Up from the source to just below the LCA node, then down from just below it to the destination.
    for (int k = 0; k < lca; ++k) {
      loads.add(side, true, k, m.src, nibbles);
      loads.add(side, false, k, m.dest, nibbles);
    }
  }
  return loads.bound(shape);
}

std::vector<int> alternate_sides_per_source(const std::vector<SetMessage>& set) {
  std::vector<int> sent;  // messages so far, by source
  std::vector<int> sides;
  sides.reserve(set.size());
  for (const SetMessage& m : set) {
    if (static_cast<std::size_t>(m.src) >= sent.size()) sent.resize(static_cast<std::size_t>(m.src) + 1, 0);
    sides.push_back(sent[m.src]++ % kSides);
  }
  return sides;
}

Cycle load_bound_cycles(const FatTreeShape& shape, const std::vector<SetMessage>& set, int words) {
  return load_bound_cycles(shape, set, words, alternate_sides_per_source(set));
}

}  // namespace mppnet::machines::cm5
