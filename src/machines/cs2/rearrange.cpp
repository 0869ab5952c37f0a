// machines/cs2/rearrange.cpp: the recursive Clos decomposition of rearrange.hpp.
#include "machines/cs2/rearrange.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "machines/cs2/routes.hpp"

namespace mppnet::machines::cs2 {

namespace {

// The bipartite multigraph of one stage inside one sub-network: left node = the flow's source prefix,
// right node = its destination prefix, one edge per flow. Finds perfect matchings by augmenting paths.
class StageGraph {
 public:
  StageGraph(std::span<const Flow> flows, const std::vector<int>& members, int st) {
    for (const int f : members) {
      left_of_.push_back(index_of(left_keys_, flows[static_cast<std::size_t>(f)].src >> (2 * st)));
      right_of_.push_back(index_of(right_keys_, flows[static_cast<std::size_t>(f)].dest >> (2 * st)));
    }
    edges_.resize(left_keys_.size());
    for (std::size_t e = 0; e < members.size(); ++e)
      edges_[static_cast<std::size_t>(left_of_[e])].push_back(e);
    if (left_keys_.size() != right_keys_.size()) throw std::invalid_argument("flows are not a permutation");
  }

  // Colours every edge 0..3 so that each colour is a perfect matching. REQUIRES: 4-regular.
  std::vector<int> colour() {
    std::vector<int> colour_of(left_of_.size(), -1);
    for (int c = 0; c < 4; ++c) {
      match_right_.assign(right_keys_.size(), -1);
      for (std::size_t l = 0; l < left_keys_.size(); ++l) {
        seen_.assign(right_keys_.size(), 0);
        if (!augment(static_cast<int>(l), colour_of))
          throw std::invalid_argument("flows are not a permutation of the layer's PEs");
      }
      for (const int e : match_right_) colour_of[static_cast<std::size_t>(e)] = c;
    }
    return colour_of;
  }

 private:
  static int index_of(std::vector<std::int64_t>& keys, std::int64_t key) {
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it != keys.end()) return static_cast<int>(it - keys.begin());
    keys.push_back(key);
    return static_cast<int>(keys.size()) - 1;
  }

  // Kuhn's augmenting path from left node l over edges not yet coloured.
  bool augment(int l, const std::vector<int>& colour_of) {
    for (const std::size_t e : edges_[static_cast<std::size_t>(l)]) {
      if (colour_of[e] >= 0) continue;
      const auto r = static_cast<std::size_t>(right_of_[e]);
      if (seen_[r]) continue;
      seen_[r] = 1;
      if (match_right_[r] < 0 || augment(left_of_[static_cast<std::size_t>(match_right_[r])], colour_of)) {
        match_right_[r] = static_cast<int>(e);
        return true;
      }
    }
    return false;
  }

  std::vector<std::int64_t> left_keys_, right_keys_;
  std::vector<int> left_of_, right_of_;  // per edge (index into members)
  std::vector<std::vector<std::size_t>> edges_;
  std::vector<int> match_right_;
  std::vector<char> seen_;
};

void rearrange(const LayerShape& shape, std::span<const Flow> flows, const std::vector<int>& members, int st,
               std::vector<std::vector<int>>& ups) {
  if (st >= shape.stages() || members.empty()) return;
  StageGraph graph(flows, members, st);
  const std::vector<int> colour_of = graph.colour();
  std::vector<std::vector<int>> by_colour(4);
  for (std::size_t e = 0; e < members.size(); ++e) {
    ups[static_cast<std::size_t>(members[e])].push_back(colour_of[e]);
    by_colour[static_cast<std::size_t>(colour_of[e])].push_back(members[e]);
  }
  for (const auto& part : by_colour) rearrange(shape, flows, part, st + 1, ups);
}

}  // namespace

std::vector<std::vector<int>> rearranged_ups(const LayerShape& shape, std::span<const Flow> flows) {
  if (shape.odd() || shape.pes() != shape.capacity())
    throw std::invalid_argument("rearranged routes need a complete layer of even size (4^k PEs)");
  std::vector<char> source(static_cast<std::size_t>(shape.pes()), 0), dest(source);
  for (const Flow& f : flows) {
    if (f.src < 0 || f.src >= shape.pes() || f.dest < 0 || f.dest >= shape.pes() ||
        std::exchange(source[static_cast<std::size_t>(f.src)], 1) ||
        std::exchange(dest[static_cast<std::size_t>(f.dest)], 1))
      throw std::invalid_argument("flows are not a permutation of the layer's PEs");
  }
  if (static_cast<std::int64_t>(flows.size()) != shape.pes())
    throw std::invalid_argument("flows are not a permutation of the layer's PEs");
  std::vector<int> all(flows.size());
  for (std::size_t f = 0; f < flows.size(); ++f) all[f] = static_cast<int>(f);
  std::vector<std::vector<int>> ups(flows.size());
  rearrange(shape, flows, all, 1, ups);
  return ups;
}

RouteOf rearranged_routes(const LayerShape& shape, std::span<const Flow> flows) {
  auto by_source = std::make_shared<std::vector<std::vector<int>>>(static_cast<std::size_t>(shape.pes()));
  const auto ups = rearranged_ups(shape, flows);
  for (std::size_t f = 0; f < flows.size(); ++f)
    (*by_source)[static_cast<std::size_t>(flows[f].src)] = ups[f];
  return [shape, by_source](std::int64_t src, std::int64_t dest) {
    return unicast_route(shape, src, dest, (*by_source)[static_cast<std::size_t>(src)], Turn::Top);
  };
}

}  // namespace mppnet::machines::cs2
