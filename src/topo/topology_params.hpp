// topo/topology_params.hpp: what a topology can be told (filled from the [topology] config table).
//
// TopologyParams is the flat, config-facing struct: every [topology] key is one field, whatever kind it
// serves. Each topology turns it into its own parameter struct (KAryNCubeParams, HypercubeParams,
// FatTreeParams, DragonflyParams, in the topology's own header) and works only on that.
#pragma once

#include <vector>

namespace mppnet::topo {

// The topologies, in the order of the registry table (topo/registry.cpp) and of the config spelling.
enum class TopologyKind { Mesh, Torus, Hypercube, FatTree, Dragonfly };

// How a fat tree picks a parent link on the way up.
enum class UpRouting {
  RandomFree,     // pseudorandomly among parent links with a free output VC (CM-5, note 000 §2.3.4)
  Deterministic,  // a fixed parent chosen from the destination's digits (d-mod-k)
};

// How a dragonfly routes (Kim, Dally, Scott, Abts, ISCA 2008, §4).
enum class DragonflyRouting {
  Minimal,  // local hop, global hop, local hop
  Valiant,  // minimal to a random intermediate group, then minimal to the destination
};

struct TopologyParams {
  TopologyKind kind = TopologyKind::FatTree;
  int k = 4;  // mesh/torus: routers per dimension
  int n = 5;  // mesh/torus: dimensions; hypercube: dimensions; fat tree: levels (nodes = children^n)
  // Fat tree: down-links per router; parent links per router at levels 1, 2, ..., n-1, where the last
  // entry repeats for the levels the list does not reach and entries beyond level n-1 are ignored (empty:
  // `children` at every level, a k-ary n-tree; the CM-5 schedule is [2, 2, 4]); and network links per node
  // (the CM-5's interface has 2).
  int children = 4;
  std::vector<int> parents = {};
  int leaf_links = 1;
  UpRouting up_routing = UpRouting::RandomFree;
  // Torus: dateline VC classes. Turning them off lets every hop use every VC, which can deadlock: it is
  // there to show why the dateline is needed (and to test the deadlock watchdog).
  bool dateline = true;
  // Dragonfly: nodes per router (p), routers per group (a), global links per router (h); the group count
  // is always the maximal g = a * h + 1 (topo/dragonfly.hpp).
  int dragonfly_p = 2;
  int dragonfly_a = 4;
  int dragonfly_h = 2;
  DragonflyRouting dragonfly_routing = DragonflyRouting::Minimal;
};

}  // namespace mppnet::topo
