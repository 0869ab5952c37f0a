// machines/cm5/map_out.hpp: the two ways of living with a failed data-network chip, and what each costs.
//
// The paper (L288-295): a failed chip or link is either routed around or the nodes that might use it are
// mapped out, and choosing the better guarantees that "at most 6% of the network is lost or at most 1/64
// of the processing nodes are mapped out". How the 6% is counted is not stated; this model counts the
// failed chip's share of its fat-tree node on its side (1 / chips per node), which is 6.25% at level 4,
// and maps out the subtree below the chip's node (every message from or to it may pass the chip).
#pragma once

#include "machines/cm5/fat_tree_shape.hpp"

namespace mppnet::machines::cm5 {

struct FailurePlan {
  bool can_route_around = false;  // another chip of its node can carry its messages (level >= 2)
  double bandwidth_lost = 1;      // of the failed chip's node, on its side, when routed around
  int nodes_mapped_out = 0;       // when mapped out instead
};

FailurePlan plan_failure(const FatTreeShape& shape, ChipId failed);

// Whether the better of the two options meets the paper's bound: route-around losing at most 1/16
// (the paper's "6%") or map-out of at most 1/64 of the nodes.
bool within_paper_bound(const FatTreeShape& shape, const FailurePlan& plan);

}  // namespace mppnet::machines::cm5
