// machines/metro/scan/scan_scenarios.hpp: MRP traffic and fault setups the scan cases and tests share.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "machines/metro/mrp/mrp_endpoint.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::scan {

struct TrafficResult {
  mrp::EndpointStats stats;
  std::vector<mrp::Attempt> attempts;
};

// `messages` messages between uniformly drawn nodes x != y (stream (seed, 0, Destination)), sent one at a
// time on an otherwise idle network, each run until it is acknowledged; `words` words after the ROUTE.
// Six, so that a connection puts an odd number of words (7) through every router: a bit inverted in every
// word cancels in the routers' XOR checksums when the count is even (note 004b §6 item 6's LRC), and the
// source then sees the NACK but no differing CHECKSUM to place the fault by (docs/assumptions.md).
// `masked_inputs` (node, network input) are never used, as when the router they lead to is excised.
TrafficResult random_messages(mrp::MrpNetwork& net, int radix, int messages, std::uint64_t seed,
                              int words = 6, const std::vector<std::pair<NodeId, int>>& masked_inputs = {});

// The link copy `copy` of the direction toward node `toward` out of stage-2 router `index` of the class
// that reaches it, on a 4-stage network: a wire between stages 2 and 3, as in note 004b's V13.
LinkId stage_two_link(const Multibutterfly& g, const mrp::MrpNetwork& net, NodeId toward, int index,
                      int copy);

}  // namespace mppnet::machines::metro::scan
