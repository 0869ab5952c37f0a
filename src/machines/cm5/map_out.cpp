// machines/cm5/map_out.cpp: the cost of route-around and of map-out for one failed chip.
#include "machines/cm5/map_out.hpp"

#include <algorithm>

namespace mppnet::machines::cm5 {

FailurePlan plan_failure(const FatTreeShape& shape, ChipId failed) {
  const ChipPlace& at = shape.place(failed);
  const std::int64_t span = std::int64_t{1} << (2 * at.level);
  const std::int64_t first = static_cast<std::int64_t>(at.node) * span;
  return {.can_route_around = at.level >= 2 && shape.chips_per_node(at.level) > 1,
          .bandwidth_lost = 1.0 / shape.chips_per_node(at.level),
          .nodes_mapped_out = static_cast<int>(std::min<std::int64_t>(shape.nodes(), first + span) - first)};
}

bool within_paper_bound(const FatTreeShape& shape, const FailurePlan& plan) {
  const bool route = plan.can_route_around && plan.bandwidth_lost <= 1.0 / 16;
  const bool map = 64 * static_cast<std::int64_t>(plan.nodes_mapped_out) <= shape.nodes();
  return route || map;
}

}  // namespace mppnet::machines::cm5
