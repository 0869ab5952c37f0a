// machines/metro/multibutterfly.cpp: checking and building multipath multistage networks.
#include "machines/metro/multibutterfly.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "machines/metro/sizes.hpp"

namespace mppnet::machines::metro {

namespace {

constexpr int kMaxRadix = 64;
constexpr int kMaxDilation = 16;
constexpr int kMaxNodePorts = 16;
constexpr int kMaxExtraStages = 8;

// Sizes saturate here: they are only compared against limits below it.
constexpr long long kSizeCap = kMaxNodes * 64;

// Sizes of every stage, computed the same way by check() and the builder.
struct Shape {
  long long nodes = 0;
  std::vector<long long> class_size;  // C_s
  std::vector<long long> fanout;      // F_s
  std::vector<long long> inputs;      // per router
  std::vector<long long> directions;  // classes a router's outputs split into: r, 1 at an extra stage
  std::vector<long long> copies;      // outputs per direction: d, r*d at an extra stage, d_S at the end
};

// Extra stages (code stages 0..E-1) route on no digit: one class of R routers whose r*d outputs all
// lead on to every destination, so a path fans out by r*d there (the §3.3.4 extra stage built from the
// same dilated parts). Routing stage t = s - E is the stage of the network without extra stages.
Shape shape_of(const MultibutterflyParams& p) {
  Shape sh;
  const int E = p.extra_stages, T = p.stages + E;
  const long long r = p.radix, d = p.dilation;
  sh.nodes = capped_pow(r, p.stages, kSizeCap);
  const long long per_stage = sh.nodes * p.node_inputs / (r * d);  // R
  long long reach = p.node_inputs;  // routers of a stage one node's ports can reach at most
  for (int s = 0; s < T; ++s) {
    const bool last = s == T - 1, extra = s < E;
    const long long c =
        last ? p.node_outputs / p.final_dilation : per_stage / capped_pow(r, extra ? 0 : s - E, kSizeCap);
    sh.class_size.push_back(c);
    sh.fanout.push_back(last ? c : std::min(reach, c));
    sh.inputs.push_back(last ? r * p.final_dilation : r * d);
    sh.directions.push_back(extra ? 1 : r);
    sh.copies.push_back(extra ? r * d : last ? p.final_dilation : d);
    reach = std::min(reach * sh.copies.back(), kSizeCap);
  }
  return sh;
}

// A uniformly random matching of `left` to `right` (equal sizes) such that no two matched pairs join
// the same (left owner, right owner): the wire_eq_class procedure of Fig 3.21 with the note's fixes
// (connect after the rejection loop; restart when only conflicting ports remain, note 004a §7 item 5).
// Drawing uniformly among the non-conflicting ports is the same distribution as drawing among all
// ports and redrawing on a conflict. Returns match[i] = index into `right`.
std::vector<int> random_match(const std::vector<int>& left_owner, const std::vector<int>& right_owner,
                              core::RandomStream& rng) {
  MPPNET_ASSERT(left_owner.size() == right_owner.size(), "random_match of unequal port sets");
  const std::size_t n = left_owner.size();
  constexpr int kMaxRestarts = 10000;
  std::vector<int> match(n);
  std::vector<int> remaining;
  std::vector<int> candidates;
  std::unordered_map<int, std::vector<int>> joined;  // left owner -> right owners already wired
  for (int attempt = 0; attempt < kMaxRestarts; ++attempt) {
    remaining.resize(n);
    for (std::size_t i = 0; i < n; ++i) remaining[i] = static_cast<int>(i);
    joined.clear();
    bool stuck = false;
    for (std::size_t i = 0; i < n && !stuck; ++i) {
      auto& mine = joined[left_owner[i]];
      candidates.clear();
      for (std::size_t c = 0; c < remaining.size(); ++c)
        if (std::find(mine.begin(), mine.end(), right_owner[remaining[c]]) == mine.end())
          candidates.push_back(static_cast<int>(c));
      if (candidates.empty()) {
        stuck = true;
        break;
      }
      const int c = candidates[rng.below(static_cast<std::uint32_t>(candidates.size()))];
      match[i] = remaining[c];
      mine.push_back(right_owner[remaining[c]]);
      remaining[c] = remaining.back();
      remaining.pop_back();
    }
    if (!stuck) return match;
  }
  MPPNET_ASSERT(false, "random wiring found no matching without parallel wires (check() lets it through)");
  return match;
}

void shuffle(std::vector<int>& v, core::RandomStream& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<std::uint32_t>(i))]);
}

}  // namespace

const std::vector<std::string>& topology_names() {
  static const std::vector<std::string> names = {"multibutterfly", "fat_tree", "hybrid_fat_tree"};
  return names;
}
const std::vector<std::string>& wiring_names() {
  static const std::vector<std::string> names = {"deterministic", "random", "maximal_fanout"};
  return names;
}
const std::vector<std::string>& endpoint_wiring_names() {
  static const std::vector<std::string> names = {"auto", "block", "transpose", "spread", "random"};
  return names;
}
const std::vector<std::string>& final_pairing_names() {
  static const std::vector<std::string> names = {"symmetric", "random", "single"};
  return names;
}

std::string describe(const MultibutterflyParams& p) {
  std::string s = fmt::format("r={} d={} stages={} ni={} no={}", p.radix, p.dilation, p.stages, p.node_inputs,
                              p.node_outputs);
  if (p.extra_stages > 0) s += fmt::format(" extra_stages={}", p.extra_stages);
  if (p.final_dilation != 1) s += fmt::format(" final_dilation={}", p.final_dilation);
  return s + fmt::format(" wiring={} endpoints={} pairing={}", wiring_names()[static_cast<int>(p.wiring)],
                         endpoint_wiring_names()[static_cast<int>(resolved_endpoints(p))],
                         final_pairing_names()[static_cast<int>(p.final_pairing)]);
}

EndpointWiring resolved_endpoints(const MultibutterflyParams& p) {
  if (p.endpoints != EndpointWiring::Auto) return p.endpoints;
  switch (p.wiring) {
    case Wiring::Deterministic:
      return EndpointWiring::Block;
    case Wiring::Random:
      return EndpointWiring::Spread;
    case Wiring::MaximalFanout:
      return EndpointWiring::Random;
  }
  return EndpointWiring::Block;
}

std::vector<Problem> check(const MultibutterflyParams& p) {
  std::vector<Problem> out;
  auto bad = [&](const char* key, std::string reason) { out.push_back({key, std::move(reason)}); };
  if (p.radix < 2 || p.radix > kMaxRadix)
    bad("metro.radix", fmt::format("must be between 2 and {} (got {})", kMaxRadix, p.radix));
  if (p.dilation < 1 || p.dilation > kMaxDilation)
    bad("metro.dilation", fmt::format("must be between 1 and {} (got {})", kMaxDilation, p.dilation));
  if (p.stages < 2) bad("metro.stages", fmt::format("must be at least 2 (got {})", p.stages));
  if (p.node_inputs < 1 || p.node_inputs > kMaxNodePorts)
    bad("metro.node_inputs", fmt::format("must be between 1 and {} (got {})", kMaxNodePorts, p.node_inputs));
  if (p.node_outputs < 1 || p.node_outputs > kMaxNodePorts)
    bad("metro.node_outputs",
        fmt::format("must be between 1 and {} (got {})", kMaxNodePorts, p.node_outputs));
  if (p.extra_stages < 0 || p.extra_stages > kMaxExtraStages)
    bad("metro.extra_stages",
        fmt::format("must be between 0 and {} (got {})", kMaxExtraStages, p.extra_stages));
  if (p.final_dilation < 1 || p.final_dilation > kMaxDilation)
    bad("metro.final_dilation",
        fmt::format("must be between 1 and {} (got {})", kMaxDilation, p.final_dilation));
  if (!out.empty()) return out;

  const long long r = p.radix, d = p.dilation, ni = p.node_inputs, no = p.node_outputs;
  const long long ds = p.final_dilation;
  const long long nodes = capped_pow(r, p.stages, kSizeCap);
  if (nodes > kMaxNodes) {
    bad("metro.stages",
        fmt::format("radix^stages = {}^{} nodes is more than the limit of {}", r, p.stages, kMaxNodes));
    return out;
  }
  // Square routers carry the same bandwidth between every pair of stages, so the N*ni ports into stage
  // 1 must equal the N*no ports out of the final stage (note 004a §4.2).
  if (ni != no)
    bad("metro.node_outputs",
        fmt::format(
            "must equal metro.node_inputs with square routers (i = o = r*d): {} inputs but {} outputs", ni,
            no));
  // C_{S-1} = r*ni/d routers per class in the last dilated stage must be a whole number.
  if ((r * ni) % d != 0)
    bad("metro.dilation",
        fmt::format("must divide radix * node_inputs = {} so that every class of the last dilated stage "
                    "has a whole number of routers (got {})",
                    r * ni, d));
  // Each destination gets no outputs, d_S from each of its no/d_S final routers.
  if (no % ds != 0) {
    bad("metro.final_dilation",
        fmt::format("must divide node_outputs = {} so that every destination has a whole number of final "
                    "routers (got {})",
                    no, ds));
    return out;
  }
  // A router's d copies of a direction must reach d distinct routers of the next class.
  if (no / ds < d)
    bad(ds > 1 ? "metro.final_dilation" : "metro.node_outputs",
        fmt::format("the final stage has node_outputs / final_dilation = {} / {} = {} routers per class, "
                    "fewer than the dilation {}; copies of one direction would share a router",
                    no, ds, no / ds, d));
  else if ((r * ni) % d == 0 && r * ni / d < d)
    bad("metro.dilation",
        fmt::format("the last dilated stage has radix*node_inputs/dilation = {} routers per class, fewer "
                    "than the dilation {}",
                    r * ni / d, d));
  if (capped_pow(r, p.stages - 1, kSizeCap) < d)
    bad("metro.stages", fmt::format("stage 1 has fewer routers than node_inputs: radix^(stages-1) = {} is "
                                    "less than the dilation {}",
                                    capped_pow(r, p.stages - 1, kSizeCap), d));
  // An extra-stage router's r*d outputs must reach r*d distinct routers of the next stage (R of them),
  // and the completeness tracker counts a router's live outputs toward a destination in one byte.
  if (p.extra_stages > 0) {
    const long long R = nodes * ni / (r * d);
    if (R < r * d)
      bad("metro.extra_stages",
          fmt::format(
              "an extra stage has R = nodes*node_inputs/(radix*dilation) = {} routers, fewer than the "
              "radix*dilation = {} distinct routers each extra-stage router must feed",
              R, r * d));
    else if (r * d > 255)
      bad("metro.extra_stages",
          fmt::format("extra-stage routers have radix*dilation = {} equivalent outputs; at most 255 are "
                      "supported",
                      r * d));
  }
  if (!out.empty()) return out;

  const Shape sh = shape_of(p);
  const EndpointWiring ep = resolved_endpoints(p);
  if (p.wiring != Wiring::Random) {
    // Fanout classes must split classes evenly, and the fanout-class lists of §4.7 must balance.
    const int T = p.stages + p.extra_stages;
    for (int s = 0; s < T; ++s) {
      if (sh.class_size[s] % sh.fanout[s] != 0) {
        bad("metro.dilation",
            fmt::format("stage {}: {} fanout classes do not split a class of {} routers evenly", s + 1,
                        sh.fanout[s], sh.class_size[s]));
        return out;
      }
      if (s + 1 < T && (sh.fanout[s] * sh.copies[s]) % sh.fanout[s + 1] != 0) {
        bad("metro.wiring",
            fmt::format("stage {} to {}: {} fanout classes times {} copies do not divide evenly among {} "
                        "target fanout classes; use wiring = \"random\"",
                        s + 1, s + 2, sh.fanout[s], sh.copies[s], sh.fanout[s + 1]));
        return out;
      }
    }
  }
  if (ep != EndpointWiring::Random && (nodes % (r * d) != 0 || sh.class_size[0] % ni != 0))
    bad("metro.endpoints",
        fmt::format(
            "block, transpose and spread endpoint wiring need radix*dilation = {} to divide the {} nodes "
            "and node_inputs = {} to divide the {} stage-1 routers; use endpoints = \"random\"",
            r * d, nodes, ni, sh.class_size[0]));
  const long long final_classes = nodes / r;
  // A dilated final router has i = o = r*d_S ports: a whole package, like the routers before it.
  if (p.final_pairing != FinalPairing::Single && ds > 1)
    bad("metro.final_pairing",
        fmt::format("\"{}\" pairs two half-size final routers in a package, but final_dilation = {} makes "
                    "each final router a full package; use \"single\"",
                    final_pairing_names()[static_cast<int>(p.final_pairing)], ds));
  else if (p.final_pairing != FinalPairing::Single && no != 2)
    bad("metro.final_pairing",
        fmt::format("\"{}\" pairs the two final routers of a destination; node_outputs is {}; use \"single\"",
                    final_pairing_names()[static_cast<int>(p.final_pairing)], no));
  else if (p.final_pairing == FinalPairing::Symmetric && final_classes % 2 != 0)
    bad("metro.final_pairing",
        fmt::format("\"symmetric\" pairs classes P and P+1, but there are {} final classes (odd)",
                    final_classes));
  else if (p.final_pairing == FinalPairing::Random && final_classes < 2)
    bad("metro.final_pairing", "\"random\" pairing needs at least 2 final classes");
  return out;
}

int Multibutterfly::stage_of(RouterId router) const {
  const auto it = std::upper_bound(stage_first.begin(), stage_first.end(), router);
  return static_cast<int>(it - stage_first.begin()) - 1;
}

int Multibutterfly::reach_span(int stage) const {
  int span = nodes;
  for (int s = params.extra_stages; s < stage; ++s) span /= params.radix;
  return span;
}

Multibutterfly build_multibutterfly(const MultibutterflyParams& p, core::RandomStream rng) {
  MPPNET_ASSERT(check(p).empty(), "build_multibutterfly of parameters that check() rejects");
  const Shape sh = shape_of(p);
  const int S = p.stages + p.extra_stages, r = p.radix, ni = p.node_inputs;
  Multibutterfly net;
  net.params = p;
  net.nodes = static_cast<int>(sh.nodes);
  net.stage_first.push_back(0);
  int classes = 1;
  for (int s = 0; s < S; ++s) {
    net.class_size.push_back(static_cast<int>(sh.class_size[s]));
    net.fanout_classes.push_back(static_cast<int>(sh.fanout[s]));
    net.inputs_per_router.push_back(static_cast<int>(sh.inputs[s]));
    net.directions.push_back(static_cast<int>(sh.directions[s]));
    net.copies.push_back(static_cast<int>(sh.copies[s]));
    net.outputs_per_router.push_back(net.directions[s] * net.copies[s]);
    net.stage_first.push_back(net.stage_first.back() + classes * net.class_size[s]);
    classes *= net.directions[s];
  }
  const int R = net.routers();
  for (int u = 0, s = 0; u < R; ++u) {
    while (u >= net.stage_first[s + 1]) ++s;
    net.out_first.push_back(static_cast<int>(net.out.size()));
    net.out.resize(net.out.size() + net.outputs_per_router[s], -1);
    net.in_first.push_back(static_cast<int>(net.in.size()));
    net.in.resize(net.in.size() + net.inputs_per_router[s], kUnwired);
  }
  net.out_first.push_back(static_cast<int>(net.out.size()));
  net.in_first.push_back(static_cast<int>(net.in.size()));
  net.node_in.assign(static_cast<std::size_t>(net.nodes) * ni, -1);

  auto wire_node = [&](NodeId x, PortId q, RouterId router, PortId slot) {
    net.node_in[static_cast<std::size_t>(x) * ni + q] = router;
    WireEnd& in = net.in[net.in_first[router] + slot];
    MPPNET_ASSERT(in == kUnwired, "two wires into one router input");
    in = node_source(x);
  };
  auto wire = [&](RouterId from, PortId port, RouterId to, PortId slot) {
    net.out[net.out_first[from] + port] = to;
    WireEnd& in = net.in[net.in_first[to] + slot];
    MPPNET_ASSERT(in == kUnwired, "two wires into one router input");
    in = from;
  };

  // --- endpoints -> stage 1 ---
  const int rd = r * p.dilation;
  const int f0 = net.class_size[0] / net.fanout_classes[0];
  switch (resolved_endpoints(p)) {
    case EndpointWiring::Auto:
      MPPNET_ASSERT(false, "resolved_endpoints returned Auto");
      break;
    case EndpointWiring::Block:
    case EndpointWiring::Transpose:
      for (NodeId x = 0; x < net.nodes; ++x) {
        for (int q = 0; q < ni; ++q) {
          const bool transposed = p.endpoints == EndpointWiring::Transpose && q % 2 == 1;
          const int b = transposed ? x % f0 : x / rd;
          const int slot = transposed ? x / f0 : x % rd;
          wire_node(x, q, net.router_id(0, 0, q * f0 + b), slot);
        }
      }
      break;
    case EndpointWiring::Spread: {
      std::vector<int> order(static_cast<std::size_t>(net.nodes));
      for (int q = 0; q < ni; ++q) {
        for (int i = 0; i < net.nodes; ++i) order[i] = i;
        shuffle(order, rng);
        // Input port i of fanout class q: router q*f0 + i / rd, slot i % rd.
        for (int i = 0; i < net.nodes; ++i)
          wire_node(order[i], q, net.router_id(0, 0, q * f0 + i / rd), i % rd);
      }
      break;
    }
    case EndpointWiring::Random: {
      std::vector<int> left, right, right_slot;
      for (NodeId x = 0; x < net.nodes; ++x)
        for (int q = 0; q < ni; ++q) left.push_back(x);
      for (int u = 0; u < net.class_size[0]; ++u) {
        for (int slot = 0; slot < rd; ++slot) {
          right.push_back(net.router_id(0, 0, u));
          right_slot.push_back(slot);
        }
      }
      const auto m = random_match(left, right, rng);
      for (std::size_t i = 0; i < left.size(); ++i)
        wire_node(left[i], static_cast<int>(i % ni), right[m[i]], right_slot[m[i]]);
      break;
    }
  }

  // --- stage s -> s+1 ---
  classes = 1;
  for (int s = 0; s + 1 < S; classes *= net.directions[s], ++s) {
    const int C = net.class_size[s], F = net.fanout_classes[s], f = C / F;
    const int dirs = net.directions[s], d = net.copies[s];
    const int C1 = net.class_size[s + 1], F1 = net.fanout_classes[s + 1], f1 = C1 / F1;
    const int in1 = net.inputs_per_router[s + 1];
    for (int P = 0; P < classes; ++P) {
      for (int j = 0; j < dirs; ++j) {
        const int P1 = P * dirs + j;
        if (p.wiring == Wiring::Random) {
          std::vector<int> left, left_port, right, right_slot;
          for (int u = 0; u < C; ++u)
            for (int k = 0; k < d; ++k) {
              left.push_back(net.router_id(s, P, u));
              left_port.push_back(j * d + k);
            }
          for (int v = 0; v < C1; ++v)
            for (int slot = 0; slot < in1; ++slot) {
              right.push_back(net.router_id(s + 1, P1, v));
              right_slot.push_back(slot);
            }
          const auto m = random_match(left, right, rng);
          for (std::size_t i = 0; i < left.size(); ++i)
            wire(left[i], left_port[i], right[m[i]], right_slot[m[i]]);
          continue;
        }
        for (int a1 = 0; a1 < F1; ++a1) {
          // L: the (a, k, b) whose copy k targets fanout class a1, in lexicographic order.
          std::vector<int> left, left_port;
          for (int a = 0; a < F; ++a)
            for (int k = 0; k < d; ++k)
              if ((a * d + k) % F1 == a1)
                for (int b = 0; b < f; ++b) {
                  left.push_back(net.router_id(s, P, a * f + b));
                  left_port.push_back(j * d + k);
                }
          MPPNET_ASSERT(static_cast<int>(left.size()) == f1 * in1, "fanout-class list does not balance");
          if (p.wiring == Wiring::Deterministic) {
            for (int t = 0; t < static_cast<int>(left.size()); ++t)
              wire(left[t], left_port[t], net.router_id(s + 1, P1, a1 * f1 + t % f1), t / f1);
            continue;
          }
          std::vector<int> right, right_slot;
          for (int b1 = 0; b1 < f1; ++b1)
            for (int slot = 0; slot < in1; ++slot) {
              right.push_back(net.router_id(s + 1, P1, a1 * f1 + b1));
              right_slot.push_back(slot);
            }
          const auto m = random_match(left, right, rng);
          for (std::size_t i = 0; i < left.size(); ++i)
            wire(left[i], left_port[i], right[m[i]], right_slot[m[i]]);
        }
      }
    }
  }

  // --- final stage -> nodes ---
  const int final_classes = classes;
  for (int P = 0; P < final_classes; ++P)
    for (int i = 0; i < net.class_size[S - 1]; ++i)
      for (int t = 0; t < r; ++t)
        for (int k = 0; k < p.final_dilation; ++k)
          net.out[net.out_first[net.router_id(S - 1, P, i)] + t * p.final_dilation + k] = P * r + t;

  // --- packages ---
  net.package_of.assign(R, -1);
  auto add_package = [&](std::vector<RouterId> routers) {
    for (RouterId u : routers) net.package_of[u] = net.packages();
    net.package_routers.push_back(std::move(routers));
  };
  for (RouterId u = 0; u < net.stage_first[S - 1]; ++u) add_package({u});
  switch (p.final_pairing) {
    case FinalPairing::Symmetric:
      for (int P = 0; P < final_classes; P += 2) {
        add_package({net.router_id(S - 1, P, 0), net.router_id(S - 1, P + 1, 1)});
        add_package({net.router_id(S - 1, P + 1, 0), net.router_id(S - 1, P, 1)});
      }
      break;
    case FinalPairing::Random: {
      std::vector<int> pi(final_classes);
      bool deranged = false;
      while (!deranged) {
        for (int i = 0; i < final_classes; ++i) pi[i] = i;
        shuffle(pi, rng);
        deranged = true;
        for (int i = 0; i < final_classes; ++i) deranged = deranged && pi[i] != i;
      }
      for (int P = 0; P < final_classes; ++P)
        add_package({net.router_id(S - 1, P, 0), net.router_id(S - 1, pi[P], 1)});
      break;
    }
    case FinalPairing::Single:
      for (RouterId u = net.stage_first[S - 1]; u < R; ++u) add_package({u});
      break;
  }
  MPPNET_ASSERT(std::find(net.in.begin(), net.in.end(), kUnwired) == net.in.end(),
                "a router input left unwired");
  MPPNET_ASSERT(std::find(net.out.begin(), net.out.end(), -1) == net.out.end(),
                "a router output left unwired");
  return net;
}

Multibutterfly build_instance(const MultibutterflyParams& p, std::uint64_t seed, int instance) {
  return build_multibutterfly(
      p, core::RandomStream(seed, static_cast<std::uint64_t>(instance), core::Stream::Setup));
}

}  // namespace mppnet::machines::metro
