// machines/cs2/validation.cpp: the CS-2's structural validation cases (validation.hpp).
//
// Every case here counts something on the built layer or on its route bytes, so every tolerance is
// exact. Where the expected value is printed in the document the case cites its lines (seed 003 L...,
// Meiko, "CS-2 Communications Network Overview", 1993); where it is a derivation, the note section that
// derives it (reference note 003, "N §"). The document's table gives "6168" switches for 4,096 PEs, an
// OCR misreading of 6144 = k N / 4 (note §7), which is what is expected here.
#include "machines/cs2/validation.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/distances.hpp"
#include "machines/cs2/elite_topology.hpp"
#include "machines/cs2/naming.hpp"
#include "machines/cs2/rearrange.hpp"
#include "machines/cs2/routes.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

constexpr const char* kExact = "exact: a count on the built layer or its route bytes";

ValidationCase exact(std::string id, std::string source, std::string setup, std::string quantity,
                     double expected, std::function<double()> measure,
                     Evidence evidence = Evidence::ClosedForm, bool slow = false) {
  return core::exact_case(std::move(id), std::move(source), std::move(setup), std::move(quantity), expected,
                          std::move(measure), evidence, kExact, slow);
}

std::string layer_text(int pes, Doubling d = Doubling::EightWayTop) {
  const LayerShape s(pes, d);
  std::string t = fmt::format("one layer of {} PEs (size {}, {} stage{})", pes, s.size(), s.stages(),
                              s.stages() == 1 ? "" : "s");
  if (s.odd()) t += fmt::format(", odd size read as {}", doubling_name(d));
  return t;
}

double routers(int pes, Doubling d = Doubling::EightWayTop) {
  return build_layer(LayerShape(pes, d)).num_routers();
}

// R1: switches per layer and the worst case (L225-L241).
void r1(std::vector<ValidationCase>& cases) {
  const std::string table = std::string(kDoc) + ", ch. 2, scaling table, L225-L241; N §2.4.5, §5 R1";
  const int even[] = {4, 16, 64, 256, 1024, 4096};
  const double switches[] = {1, 8, 48, 256, 1280, 6144};
  for (int i = 0; i < 6; ++i) {
    const int n = even[i];
    cases.push_back(exact(fmt::format("cs2.r1.switches_{}", n), table, layer_text(n),
                          "Elite switches in one layer", switches[i], [n] { return routers(n); }));
    cases.push_back(exact(
        fmt::format("cs2.r1.worst_switches_{}", n), table,
        layer_text(n) + "; breadth-first over the graph from every switch",
        "most switches passed between two PEs (2k - 1)", 2.0 * (i + 1) - 1,
        [n] {
          return static_cast<double>(
              distance_summary(build_layer(LayerShape(n, Doubling::EightWayTop)), 0).worst);
        },
        Evidence::ClosedForm, n >= 4096));
  }
  // Odd sizes under reading B: configuration-dependent, derived by the note ((k-1) N/4 + N/8).
  const int odd[] = {8, 32, 128, 512, 2048};
  const double odd_switches[] = {1, 12, 80, 448, 2304};
  for (int i = 0; i < 5; ++i) {
    const int n = odd[i];
    cases.push_back(exact(fmt::format("cs2.r1.odd_switches_{}", n),
                          std::string(kDoc) + ", ch. 2, doubling, L288-L293; N §2.4.3 reading B, §5 R1",
                          layer_text(n), "Elite switches in one layer ((k-1) N/4 + N/8)", odd_switches[i],
                          [n] { return routers(n); }));
  }
}

// R2: the naming formulas and route strings (L303-L333).
void r2(std::vector<ValidationCase>& cases) {
  const std::string naming = std::string(kDoc) + ", ch. 2, naming, L303-L333; N §2.4.2, §5 R2";
  for (int n : {16, 64, 256, 1024, 4096}) {
    cases.push_back(exact(
        fmt::format("cs2.r2.naming_formula_violations_{}", n), naming,
        layer_text(n) + "; stages, identifiers and planes counted on the graph",
        "levels whose counts differ from 2^(size-2) switches, 2^level identifiers x 2^(size-level-2) planes",
        0, [n] {
          const LayerShape s(n, Doubling::EightWayTop);
          return static_cast<double>(naming_formula_violations(s, build_layer(s)));
        }));
  }
  const LayerShape s64(64, Doubling::EightWayTop);
  cases.push_back(exact("cs2.r2.pe17_route_string",
                        std::string(kDoc) + ", ch. 2, Fig 2-4, L320-L326; N §5 R2", layer_text(64),
                        "1 if PE 17's route from the top is \"1.0.1\", else 0", 1,
                        [s64] { return pe_route_string(s64, 17) == "1.0.1" ? 1.0 : 0.0; }));
  cases.push_back(exact("cs2.r2.pe17_same_route_from_every_top",
                        std::string(kDoc) + ", ch. 2, L320-L326; N §2.4.2",
                        layer_text(64) + "; the digits 1.0.1 followed down the graph from each top switch",
                        "top switches from which 1.0.1 reaches PE 17 (all 16)", 16, [s64] {
                          const topo::Graph g = build_layer(s64);
                          int reached = 0;
                          for (std::int64_t Q = 0; Q < s64.planes(3); ++Q) {
                            RouterId r = s64.router({3, 0, Q});
                            for (const int digit : {1, 0}) r = g.link(r, digit).peer;
                            const topo::PortLink& last = g.link(r, 1);
                            reached += last.kind == topo::PeerKind::Node && last.peer == 17;
                          }
                          return static_cast<double>(reached);
                        }));
  const auto bytes_case = [&cases, s64](std::string id, std::int64_t x, std::int64_t d,
                                        topo::SourceRoute want) {
    cases.push_back(exact(std::move(id), std::string(kDoc) + ", ch. 2, L320-L326; N §4.3, §5 R2",
                          layer_text(64) + fmt::format("; DEST route {} -> {}", x, d),
                          fmt::format("1 if the route bytes are {}, else 0", topo::format_source_route(want)),
                          1, [s64, x, d, want] {
                            return policy_route(s64, x, d, Policy::Dest, Turn::Minimal, 0, 0) == want ? 1.0
                                                                                                      : 0.0;
                          }));
  };
  topo::SourceRoute r0_17, r16_17;
  for (int b : {5, 4, 1, 0, 1}) r0_17.push_back(static_cast<std::uint8_t>(b));
  r16_17.push_back(1);
  bytes_case("cs2.r2.route_bytes_0_to_17", 0, 17, r0_17);
  bytes_case("cs2.r2.route_bytes_16_to_17", 16, 17, r16_17);
}

// R3: locality (L243-L247) and the mean of uniform traffic (derived).
void r3(std::vector<ValidationCase>& cases) {
  cases.push_back(exact(
      "cs2.r3.cluster16_worst_switches_1024", std::string(kDoc) + ", ch. 2, L243-L247; N §5 R3",
      layer_text(1024) + "; breadth-first over the graph, pairs inside each aligned 16-PE cluster",
      "most switches passed inside a 16-PE cluster", 3, [] {
        return static_cast<double>(
            distance_summary(build_layer(LayerShape(1024, Doubling::EightWayTop)), 16).worst_in_cluster);
      }));
  // Mean of 2j - 1 over the LCA stage j of a uniform pair: (4/N) + sum_j (4^j - 4^(j-1))/N (2j - 1).
  const int pes[] = {16, 64, 256, 1024, 4096};
  const double means[] = {2.5, 4.375, 6.34375, 8.3359375, 10.333984375};
  for (int i = 0; i < 5; ++i) {
    const int n = pes[i];
    ValidationCase c = exact(
        fmt::format("cs2.r3.mean_switches_{}", n), std::string(kDoc) + ", ch. 2, L243-L247; N §2.4.5, §5 R3",
        layer_text(n) + "; breadth-first over the graph, all ordered pairs, a PE to itself included",
        "mean switches passed under uniform traffic", means[i],
        [n] { return distance_summary(build_layer(LayerShape(n, Doubling::EightWayTop)), 0).mean; });
    c.tolerance = Tolerance::absolute(1e-9);
    c.tolerance_origin = "exact: a mean of integer counts; 1e-9 for the floating-point sum";
    c.slow = n >= 4096;  // a search from each of 1,024 switches
    cases.push_back(std::move(c));
  }
}

// R7 (static): links a balanced cut crosses, N/2 per layer for every size (L80-L81, L145-L148).
void r7(std::vector<ValidationCase>& cases) {
  const std::string src = std::string(kDoc) + ", ch. 1, L80-L81, L145-L148; N §2.4.7, §5 R7";
  const auto add = [&](int n, Doubling d, std::string suffix) {
    cases.push_back(exact(fmt::format("cs2.r7.bisection_links_{}{}", n, suffix), src,
                          layer_text(n, d) + "; cut between PEs below and above N/2, counted on the graph",
                          "links crossing the cut, one layer (N/2)", n / 2.0, [n, d] {
                            const LayerShape s(n, d);
                            return static_cast<double>(bisection_links(s, build_layer(s)));
                          }));
  };
  for (int n : {16, 64, 256, 1024, 4096}) add(n, Doubling::EightWayTop, "");
  add(512, Doubling::EightWayTop, "_eight_way_top");
  add(512, Doubling::BackToBack, "_back_to_back");
}

// The most load any channel carries over a family of permutations under DEST.
double worst_load(const LayerShape& s, Permutation p, const std::vector<std::int64_t>& params, Turn turn) {
  const topo::Graph g = build_layer(s);
  std::int32_t worst = 0;
  for (const std::int64_t c : params) {
    const std::vector<Flow> flows = permutation_flows(s, p, c);
    worst = std::max(worst, max_load(channel_loads(g, flows, dest_routes(s, turn))));
  }
  return worst;
}

// R8 (static): shifts and butterflies pass DEST without contention; the Fig 3-2 bytes (L417-L427).
void r8(std::vector<ValidationCase>& cases) {
  const std::string src = std::string(kDoc) + ", ch. 3, L417-L427; N §4.5, §5 R8";
  for (const auto& [size, doubling, suffix] :
       {std::tuple{64, Doubling::EightWayTop, ""}, std::tuple{512, Doubling::EightWayTop, "_eight_way_top"},
        std::tuple{1024, Doubling::EightWayTop, ""}}) {
    // Plain copies: a lambda may not capture a structured binding before C++20's P1091 (clang before 16).
    const int n = size;
    const Doubling d = doubling;
    const bool big = n >= 512;
    for (const Turn turn : {Turn::Minimal, Turn::Top}) {
      const std::string t = turn == Turn::Minimal ? "" : "_top";
      cases.push_back(exact(
          fmt::format("cs2.r8.shifts_max_load_{}{}{}", n, suffix, t), src,
          layer_text(n, d) + fmt::format("; every shift x -> x + c, DEST, turn {}", turn_name(turn)),
          "most flows on one channel over all shifts", 1,
          [n, d, turn] {
            std::vector<std::int64_t> all(n);
            for (int c = 0; c < n; ++c) all[c] = c;
            return worst_load(LayerShape(n, d), Permutation::Shift, all, turn);
          },
          Evidence::ClosedForm, big));
      cases.push_back(exact(
          fmt::format("cs2.r8.butterflies_max_load_{}{}{}", n, suffix, t), src,
          layer_text(n, d) + fmt::format("; every butterfly x -> x ^ 2^b, DEST, turn {}", turn_name(turn)),
          "most flows on one channel over all butterflies", 1,
          [n, d, turn] {
            std::vector<std::int64_t> bits;
            for (std::int64_t b = 1; b < n; b <<= 1) bits.push_back(b);
            return worst_load(LayerShape(n, d), Permutation::Xor, bits, turn);
          },
          Evidence::ClosedForm, false));
    }
  }
  // Fig 3-2: shift by 5 on 16 PEs, x -> d: bytes, as the note tabulates it (N §5 R8).
  cases.push_back(
      exact("cs2.r8.fig3_2_shift5_bytes_16", std::string(kDoc) + ", ch. 3, Fig 3-2, L424-L427; N §5 R8",
            layer_text(16) + "; DEST routes of the shift by 5", "routes whose bytes match the table (of 16)",
            16, [] {
              const LayerShape s(16, Doubling::EightWayTop);
              const int table[16][3] = {{5, 1, 1}, {6, 1, 2}, {7, 1, 3}, {4, 2, 0}, {5, 2, 1}, {6, 2, 2},
                                        {7, 2, 3}, {4, 3, 0}, {5, 3, 1}, {6, 3, 2}, {7, 3, 3}, {4, 0, 0},
                                        {5, 0, 1}, {6, 0, 2}, {7, 0, 3}, {4, 1, 0}};
              int match = 0;
              for (int x = 0; x < 16; ++x) {
                topo::SourceRoute want;
                for (const int b : table[x]) want.push_back(static_cast<std::uint8_t>(b));
                match += policy_route(s, x, (x + 5) % 16, Policy::Dest, Turn::Minimal, 0, 0) == want;
              }
              return static_cast<double>(match);
            }));
}

// R9: every down-channel carries one destination under DEST (L424-L425, "guaranteed non blocking").
void r9(std::vector<ValidationCase>& cases) {
  const std::string src = std::string(kDoc) + ", ch. 3, L417-L425; N §4.5, §5 R9";
  for (const auto& [n, d, turn_of_case] : {std::tuple{16, Doubling::EightWayTop, Turn::Minimal},
                                           std::tuple{64, Doubling::EightWayTop, Turn::Minimal},
                                           std::tuple{256, Doubling::EightWayTop, Turn::Minimal},
                                           std::tuple{1024, Doubling::EightWayTop, Turn::Minimal},
                                           std::tuple{1024, Doubling::EightWayTop, Turn::Top},
                                           std::tuple{512, Doubling::EightWayTop, Turn::Minimal},
                                           std::tuple{512, Doubling::BackToBack, Turn::Minimal}}) {
    const Turn turn = turn_of_case;  // a plain copy for the lambda below (see r8)
    const LayerShape s(n, d);
    std::string id = fmt::format("cs2.r9.down_channel_destinations_{}", n);
    if (s.odd()) id += std::string("_") + doubling_name(d);
    if (turn == Turn::Top) id += "_top";
    cases.push_back(exact(
        id, src,
        layer_text(n, d) +
            fmt::format("; all N^2 DEST routes followed on the graph, turn {}", turn_name(turn)),
        "most destinations served by one down-channel", 1,
        [s, turn] { return static_cast<double>(max_destinations_per_down_channel(s, build_layer(s), turn)); },
        Evidence::ClosedForm, n >= 1024));
  }
}

// R10 (static): bit reversal and transpose block under DEST. The expected loads are those of the note's
// own script (N §5 R10), an implementation written from the same notes: the document gives no number.
void r10(std::vector<ValidationCase>& cases) {
  const std::string src = std::string(kDoc) + ", ch. 1, L46-L48, ch. 3, L400-L402; N §5 R10";
  const int pes[] = {16, 64, 256, 1024};
  const double minimal[] = {3, 4, 15, 16};
  const double top[] = {4, 4, 16, 16};
  for (int i = 0; i < 4; ++i)
    for (const Permutation p : {Permutation::BitReversal, Permutation::Transpose})
      for (const Turn turn : {Turn::Minimal, Turn::Top}) {
        const int n = pes[i];
        ValidationCase c = exact(
            fmt::format("cs2.r10.{}_max_load_{}{}", permutation_name(p), n, turn == Turn::Top ? "_top" : ""),
            src, layer_text(n) + fmt::format("; {}, DEST, turn {}", permutation_name(p), turn_name(turn)),
            "most flows on one channel", turn == Turn::Minimal ? minimal[i] : top[i],
            [n, p, turn] { return worst_load(LayerShape(n, Doubling::EightWayTop), p, {0}, turn); },
            Evidence::SameSource);
        c.tolerance_origin = "exact: a count on the route bytes; the note's script gives the same count";
        cases.push_back(std::move(c));
      }
}

// R10 with rearranged routes (rearrange.hpp): any permutation through a layer with no channel carried
// twice, the "full crosspoint" of L400-L402. The 1 is the rearrangeability of the layer's Clos
// decomposition (note §4.6); the count is taken on the built layer by following every route's bytes.
void r10_rearranged(std::vector<ValidationCase>& cases) {
  const std::string src = std::string(kDoc) + ", ch. 1, L46-L48, ch. 3, L400-L402; N §4.6, §5 R10";
  for (const int n : {16, 64, 256, 1024}) {
    cases.push_back(exact(
        fmt::format("cs2.r10.rearranged_max_load_{}", n), src,
        layer_text(n) +
            "; bit reversal, transpose and 10 random permutations (seeds 1-10), routes to the top "
            "on up-ports from the recursive Clos decomposition",
        "most flows on one channel, worst permutation", 1,
        [n] {
          const LayerShape s(n, Doubling::EightWayTop);
          const topo::Graph g = build_layer(s);
          std::vector<std::vector<Flow>> perms = {permutation_flows(s, Permutation::BitReversal),
                                                  permutation_flows(s, Permutation::Transpose)};
          for (std::uint64_t seed = 1; seed <= 10; ++seed) perms.push_back(random_permutation_flows(s, seed));
          std::int32_t worst = 0;
          for (const auto& flows : perms)
            worst = std::max(worst, max_load(channel_loads(g, flows, rearranged_routes(s, flows))));
          return static_cast<double>(worst);
        },
        Evidence::ClosedForm, n >= 1024));
  }
}

}  // namespace

std::vector<ValidationCase> cs2_validation_cases() {
  std::vector<ValidationCase> cases;
  r1(cases);
  r2(cases);
  r3(cases);
  r7(cases);
  r8(cases);
  r9(cases);
  r10(cases);
  r10_rearranged(cases);
  for (auto& c : latency_cases()) cases.push_back(std::move(c));
  for (auto& c : elan_cases()) cases.push_back(std::move(c));
  for (auto& c : pattern_cases()) cases.push_back(std::move(c));
  for (auto& c : load_cases()) cases.push_back(std::move(c));
  for (auto& c : broadcast_cases()) cases.push_back(std::move(c));
  for (auto& c : fault_cases()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace mppnet::machines::cs2
