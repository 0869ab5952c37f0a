// machines/metro/multibutterfly.hpp: multipath multistage networks of dilated routers (DeHon §3.5).
//
// Routers of radix r and dilation d (i = o = r*d ports) in stages 1..S-1 and radix-r routers of dilation
// d_S (final_dilation; 1 by default, the Fig 3.11 final stage) in the final stage S, N = r^S endpoints with
// ni network inputs and no network outputs each. The structure follows note 004a §4.2 and the wiring its
// clean construction §4.7 (the printed algorithms of Figs 3.19, 3.21 and 3.24 are garbled: note 004a §4.6 and
// §7 items 1-5). Stages are 0-based in the code: code stage s is the document's stage s+1.
//
//   equivalence class of a stage-s router: the destination prefix (y_1..y_s) it can still reach; stage s
//     has r^s classes of C_s routers (C_s = R / r^s with R = N*ni/(r*d); the final stage has
//     C = no / d_S, each router feeding each of its r nodes d_S times);
//   fanout classes: stage s splits a class into F_s = min(ni*d^s, C_s) fanout classes of f_s routers;
//     router u of a class has fanout class u / f_s and member u % f_s (final stage: F = no, f = 1);
//   copy k of direction j of a router in fanout class a goes to class P*r+j, fanout class
//     (a*d + k) mod F_{s+1} (deterministic and maximal-fanout wiring);
//   final router i of class P, output t*d_S + k, goes to node P*r + t.
//
// The builder is a pure function of its parameters and, for the random wirings, one RandomStream.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/rng.hpp"
#include "machines/metro/metro_ids.hpp"

namespace mppnet::machines::metro {

// Interstage wiring (note 004a §4.7).
enum class Wiring {
  Deterministic,  // maximal path expansion, Fig 3.19 via the §4.7 fanout-class lists
  Random,         // uniformly random per equivalence class and direction, no parallel wires (Fig 3.21)
  MaximalFanout,  // randomized maximal-fanout (Chong; Figs 3.23-3.24): random within fanout classes
};

// How node ports are wired to stage-1 inputs; the document does not say (note 004a §7 item 6).
enum class EndpointWiring {
  // By wiring: Block for Deterministic, Spread for Random, Random for MaximalFanout. The document gives
  // no endpoint wiring; this is the one choice, of the four below, that reproduces all six rows of
  // Table 3.4 within their errors (docs/metro.md, "Yield: why the random rows were off").
  Auto,
  Block,      // node x port q -> fanout class q, router x / (r*d), slot x mod (r*d): non-expansive
  Transpose,  // even ports as Block, odd ports -> router x mod f_1, slot x / f_1: expansive
  Spread,     // port q: a random bijection between the nodes and the inputs of fanout class q
  Random,     // a random matching of all node ports to all stage-1 inputs, ports of one node apart
};

// Which final-stage routers share a package (note 004a §7 item 7). A package is the fault unit.
enum class FinalPairing {
  Symmetric,  // for even P: {(P,0),(P+1,1)} and {(P+1,0),(P,1)}; needs no = 2
  Random,     // (P,0) with (pi(P),1), pi a random permutation without fixed points; needs no = 2
  Single,     // every final router is a package of its own
};

// Which network a METRO study describes: the config's metro.topology (metro_network.hpp holds any of them).
enum class Topology {
  Multibutterfly,  // the flat multipath multistage network (§3.5.1-3.5.5): MultibutterflyParams
  FatTree,         // multipath fat tree with short-cut up routers (§3.5.6, Figs 3.30-3.32; Ch. 7 unit trees)
  HybridFatTree,   // the same tree with small multibutterfly clusters as leaves (§3.5.7, Fig 3.33)
};

// What every METRO topology is built from: dilated routers of one radix, node ports, a final stage.
struct MetroNetworkParams {
  int radix = 4;         // r: logically distinct directions per router
  int dilation = 2;      // d: equivalent outputs per direction, stages 1..S-1
  int stages = 3;        // S: N = r^S endpoints; the trees: tree levels L
  int node_inputs = 2;   // ni: network inputs per node
  int node_outputs = 2;  // no: network outputs per node (= final routers per destination times d_S)
  // d_S: equivalent outputs per direction in the final stage (§3.5.2). 1 gives no distinct final routers
  // per destination (Fig 3.11); d_S > 1 gives full-size final routers (i = o = r*d_S, one per package)
  // and only no/d_S of them per destination.
  int final_dilation = 1;
};

// The flat multibutterfly. Designated initialisers cannot name the base's fields: set them one by one.
struct MultibutterflyParams : MetroNetworkParams {
  // E: extra stages in front of the S routing stages (§3.3.4, Fig 3.14), built from the same r x d parts.
  // An extra stage fixes no destination digit: all r*d outputs of its routers are equivalent and lead to
  // routers that reach every node, so each one multiplies a pair's paths by r*d.
  int extra_stages = 0;
  Wiring wiring = Wiring::Deterministic;
  EndpointWiring endpoints = EndpointWiring::Auto;
  FinalPairing final_pairing = FinalPairing::Symmetric;
};

// One reason a parameter set cannot be built; `key` names the config key at fault ("metro.dilation").
using Problem = core::Problem;

// Every reason `p` cannot be built; empty when it can. The trees have their own (fat_tree.hpp).
std::vector<Problem> check(const MultibutterflyParams& p);

// The endpoint wiring `p.endpoints` stands for (Auto resolved).
EndpointWiring resolved_endpoints(const MultibutterflyParams& p);

// The built network: a plain graph. Router ids run stage by stage, class by class:
// id = stage_first[s] + P * class_size[s] + u. Code stages 0..E-1 are the extra stages.
struct Multibutterfly {
  MultibutterflyParams params;
  int nodes = 0;                        // N
  std::vector<RouterId> stage_first;    // size S + 1; stage_first[S] = number of routers
  std::vector<int> class_size;          // C_s
  std::vector<int> fanout_classes;      // F_s
  std::vector<int> inputs_per_router;   // r*d, and r*d_S at the final stage
  std::vector<int> outputs_per_router;  // r*d, and r*d_S at the final stage
  std::vector<int> directions;          // r; 1 at an extra stage (every output reaches every node)
  std::vector<int> copies;              // outputs per direction: d; r*d at an extra stage; d_S at the end

  // Router u's outputs: out[out_first[u] + j*d + k] is the router that copy k of direction j feeds
  // (stages 1..S-1), or the NodeId that output t*d_S + k feeds (final stage). out_first[u] + port is
  // also the output's LinkId less the N*ni node links (completeness.hpp).
  std::vector<int> out_first;
  std::vector<RouterId> out;
  // Router u's inputs: in[in_first[u] + slot] is the router or node_source(x) wired to that slot.
  std::vector<int> in_first;
  std::vector<WireEnd> in;
  // node_in[x*ni + q]: the stage-1 router that node x's port q feeds.
  std::vector<RouterId> node_in;
  // package_of[u], and the routers of each package.
  std::vector<PackageId> package_of;
  std::vector<std::vector<RouterId>> package_routers;

  // Every stage, extra stages included: S + E.
  int stages() const { return params.stages + params.extra_stages; }
  int routers() const { return stage_first.back(); }
  int packages() const { return static_cast<int>(package_routers.size()); }
  int stage_of(RouterId router) const;
  int class_of(RouterId router) const {
    return (router - stage_first[stage_of(router)]) / class_size[stage_of(router)];
  }
  int index_in_class(RouterId router) const {
    return (router - stage_first[stage_of(router)]) % class_size[stage_of(router)];
  }
  RouterId router_id(int stage, int cls, int index) const {
    return stage_first[stage] + cls * class_size[stage] + index;
  }
  // Nodes a stage-s router can reach: N / r^(s-E) (N at an extra stage).
  int reach_span(int stage) const;
};

// REQUIRES: check(p).empty(). `rng` is used only by the random wirings, endpoint wirings and pairings.
Multibutterfly build_multibutterfly(const MultibutterflyParams& p, core::RandomStream rng);

// The network for instance `instance` of a study with `seed`: the stream is (seed, instance, Setup).
Multibutterfly build_instance(const MultibutterflyParams& p, std::uint64_t seed, int instance);

// One line naming every parameter ("r=4 d=2 stages=3 ..."); extra stages and a dilated final stage are
// named only when present. The trees have their own (fat_tree.hpp).
std::string describe(const MultibutterflyParams& p);

// Config spellings, in enum order.
const std::vector<std::string>& topology_names();
const std::vector<std::string>& wiring_names();
const std::vector<std::string>& endpoint_wiring_names();
const std::vector<std::string>& final_pairing_names();

}  // namespace mppnet::machines::metro
