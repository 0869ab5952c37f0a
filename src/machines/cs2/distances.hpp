// machines/cs2/distances.hpp: switches passed between PEs of a CS-2 layer, counted on the built graph by
// breadth-first search (independent of the route bytes of routes.hpp): the worst case, the mean under
// uniform traffic, and the worst case inside aligned clusters (Meiko, "CS-2 Communications Network
// Overview", 1993, §2, L225-L247; reference note 003 §2.4.5).
#pragma once

#include <cstdint>
#include <vector>

#include "topo/graph.hpp"

namespace mppnet::machines::cs2 {

// Switches passed from PE src to every PE (1 for PEs on src's own switch, src included).
std::vector<int> switches_from(const topo::Graph& g, NodeId src);

struct DistanceSummary {
  int worst = 0;             // most switches between any two PEs
  double mean = 0;           // mean over all ordered pairs, a PE to itself included
  int worst_in_cluster = 0;  // most switches between two PEs of one aligned cluster
};

// Over all pairs; clusters are the aligned blocks of `cluster` PEs (0 for none). PEs on one switch have
// the same distances, so one search per switch serves all its PEs.
DistanceSummary distance_summary(const topo::Graph& g, int cluster);

}  // namespace mppnet::machines::cs2
