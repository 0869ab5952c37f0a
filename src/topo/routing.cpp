// topo/routing.cpp: the Routing handle of a registered topology (each policy lives in its topology's file).
#include "topo/routing.hpp"

#include "topo/build.hpp"
#include "topo/topology.hpp"

namespace mppnet::topo {

namespace {
Routing checked_routing(const TopologyParams& params, const Graph& graph, int vcs) {
  MPPNET_ASSERT(vcs >= Routing::min_vcs(params) && vcs <= kMaxVcsPerPort, "VCs per port were not checked");
  MPPNET_ASSERT(graph.num_nodes == node_count(params), "the graph was not built from these parameters");
  return topology(params.kind).routing(params, graph, vcs);
}
}  // namespace

Routing::Routing(const TopologyParams& params, const Graph& graph, int vcs)
    : Routing(checked_routing(params, graph, vcs)) {}

int Routing::min_vcs(const TopologyParams& params) {
  return topology(params.kind).min_vcs(params);
}

}  // namespace mppnet::topo
