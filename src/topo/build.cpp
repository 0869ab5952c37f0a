// topo/build.cpp: the topology-independent checks, and dispatch through the registry (topo/topology.hpp).
#include "topo/build.hpp"

#include <string>

#include "core/error.hpp"
#include "topo/routing.hpp"
#include "topo/saturating.hpp"
#include "topo/topology.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

static_assert(kMaxParents <= kMaxRouteCandidates, "route() offers every parent link as a candidate");
static_assert(kMaxChildren + kMaxParents <= 64, "a fat-tree router has at most 64 ports");
static_assert(kMaxVcsPerPort - 1 <= 255, "RouteSet stores VC numbers in 8 bits");

std::string count_text(long long v) {
  return v == kSaturated ? "more than " + std::to_string(kSaturated) : std::to_string(v);
}

void check_node_count(long long nodes, const char* key, const std::string& what, std::vector<Problem>& out) {
  if (nodes <= kMaxNodes) return;
  out.push_back({key, what + " has " + count_text(nodes) + " nodes; at most " + std::to_string(kMaxNodes) +
                          " (2^22) are supported"});
}

std::vector<Problem> check(const TopologyParams& p, int vcs) {
  std::vector<Problem> out;
  check_kind_and_keys(p, out);
  if (find_topology(p.kind) == nullptr) return out;
  const TopologyInfo& t = topology(p.kind);
  t.check(p, out);
  const int least = t.min_vcs(p);
  if (vcs < least) {
    const std::string got = " (got " + std::to_string(vcs) + ")";
    const char* why = t.min_vcs_reason(p);
    out.push_back({"router.vcs", why != nullptr ? why + got
                                                : "a router needs at least " + std::to_string(least) +
                                                      " VC per port" + got});
  }
  if (vcs > kMaxVcsPerPort) {
    out.push_back({"router.vcs", "at most " + std::to_string(kMaxVcsPerPort) +
                                     " VCs per port are supported (got " + std::to_string(vcs) + ")"});
  }
  return out;
}

Graph build(const TopologyParams& p) {
  const TopologyInfo& t = topology(p.kind);
  std::vector<Problem> problems;
  check_kind_and_keys(p, problems);
  t.check(p, problems);
  MPPNET_ASSERT(problems.empty(), "build() called with parameters that check() rejects");
  return t.build(p);
}

long long port_count(const TopologyParams& p) {
  return topology(p.kind).port_count(p);
}

long long node_count(const TopologyParams& p) {
  return topology(p.kind).node_count(p);
}

int max_router_hops(const TopologyParams& p) {
  return topology(p.kind).max_router_hops(p);
}

bool may_multicast(const TopologyParams& p) {
  const TopologyInfo& t = topology(p.kind);
  return t.may_multicast != nullptr && t.may_multicast(p);
}

}  // namespace mppnet::topo
