// machines/metro/metro_ids.hpp: the index types of METRO's network graphs, beside those of core/types.hpp.
//
// Router, node and port (or input slot) ids are core's RouterId, NodeId and PortId. METRO adds the ids
// that only its graphs have: a link (the fault unit of a link study), a package (two final routers may
// share one), and a wire end, which names a router or, encoded as a negative number, a node.
#pragma once

#include <cstdint>
#include <limits>

#include "core/types.hpp"

namespace mppnet::machines::metro {

// A wire of a METRO network: node input links first (x*ni + q), then every router output in order.
using LinkId = std::int32_t;
// A package, the fault unit of the thesis's yield studies (one dilated router, or a final-stage pair).
using PackageId = std::int32_t;
// The far end of a router input or output: a RouterId, or node x as node_source(x) (negative).
using WireEnd = std::int32_t;
// A wire end not yet connected: below every node source (those are negative too).
inline constexpr WireEnd kUnwired = std::numeric_limits<WireEnd>::min();

constexpr WireEnd node_source(NodeId node) {
  return -1 - node;
}
constexpr bool is_node_source(WireEnd end) {
  return end < 0;
}
constexpr NodeId source_node(WireEnd end) {
  return -1 - end;
}

}  // namespace mppnet::machines::metro
