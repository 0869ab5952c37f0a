// machines/cs2/naming.hpp: Meiko's naming of the CS-2 network: size, level, network identifier and
// plane for any PE and switch, and route strings written top digit first.
//
// Source: Meiko, "CS-2 Communications Network Overview" (1993), §2 "Naming" (seed L280-L333); reference
// note 003 §2.4.2 with the readings of §6 #2-#3: stages = floor(size/2); the top stage is level 0 and the
// deepest PEs are at level = size, so a level is a depth in route bits (a stage st below the top is at
// level size - 2*st); a switch's network identifier is its route from the top and its plane tells apart
// the switches that share that route. Routes from the top are written "<0-7>.<0-3>.<0-3>...", one digit
// per switch, each the output link taken (L320-L326): PE 17 of a size-6 network is "1.0.1" from every top
// switch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cs2/elite_topology.hpp"
#include "topo/graph.hpp"

namespace mppnet::machines::cs2 {

// The route from the top down to PE x: its digits, top first ("1.0.1"). In a back-to-back network, the
// route from the top of x's half.
std::string pe_route_string(const LayerShape& shape, std::int64_t x);

// The route from the top down to switch s (its network identifier as digits, top first); "-" at the top.
std::string switch_route_string(const LayerShape& shape, const SwitchId& s);

// "PE 17: level 6, network id 17, route 1.0.1" (and ", half 1" back to back).
std::string pe_name(const LayerShape& shape, std::int64_t x);

// "layer 0 stage 2 (level 2) network id 1 (route 1) plane 3".
std::string switch_name(const LayerShape& shape, int layer, const SwitchId& s);

// Meiko's counts at one level, counted on the built graph (not from the shape's formulas): a switch's stage
// is its distance in switches from the nearest PE, its network identifier the set of PEs below it (reached
// by down-links only), and its planes the switches that share that set.
struct LevelCounts {
  int level = 0;
  std::int64_t switches = 0;
  std::int64_t identifiers = 0;  // distinct network identifiers (routes from the top)
  std::int64_t planes = 0;       // switches sharing one identifier
};
// One row per stage, top first.
std::vector<LevelCounts> level_counts(const LayerShape& shape, const topo::Graph& g);

// Rows of level_counts() that disagree with the document's formulas for a complete even-size network:
// 2^(size-2) switches per stage, 2^level identifiers x 2^(size-level-2) planes (L329-L333).
int naming_formula_violations(const LayerShape& shape, const topo::Graph& g);

}  // namespace mppnet::machines::cs2
