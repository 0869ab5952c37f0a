// machines/metro/validation.cpp: METRO's validation cases: path expansion (R1), Table 3.1's switching
// column, extra-stage equivalence (R7), and the list of every group.
//
// Every case says what kind of evidence it is and where its tolerance comes from. Path counts on a built
// graph are exact. Where a case compares a mean over random network instances with an independent
// prototype simulation (one instance; docs/metro.md §2), the tolerance is 3 standard deviations of the
// difference, whose variance is the instance-to-instance variance (measured: 200 instances of the 64-node
// network, 40 of the 256-node one) times (1 + 1/instances averaged here).
#include "machines/metro/validation.hpp"

#include <algorithm>
#include <cmath>

#include "machines/metro/completeness.hpp"
#include "machines/metro/mlink/validation_mlink.hpp"
#include "machines/metro/mrp/validation_mrp.hpp"
#include "machines/metro/network_graph.hpp"
#include "machines/metro/path_expansion.hpp"
#include "machines/metro/scan/validation_scan.hpp"
#include "machines/metro/validation_parts.hpp"

namespace mppnet::machines::metro {

namespace detail {

const char* wiring_label(Wiring w) {
  switch (w) {
    case Wiring::Deterministic:
      return "det";
    case Wiring::Random:
      return "random";
    case Wiring::MaximalFanout:
      return "rmf";
  }
  return "";
}

std::string endpoint_label(EndpointWiring e) {
  return "ep_" + endpoint_wiring_names()[static_cast<std::size_t>(e)];
}

EndpointWiring note_endpoints(Wiring w) {
  switch (w) {
    case Wiring::Deterministic:
      return EndpointWiring::Block;
    case Wiring::Random:
      return EndpointWiring::Random;
    case Wiring::MaximalFanout:
      return EndpointWiring::Spread;
  }
  return EndpointWiring::Block;
}

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

std::string thesis(const std::string& where) {
  return std::string(kThesis) + " " + where;
}

MultibutterflyParams sized(int r, int stages, Wiring w, EndpointWiring e) {
  MultibutterflyParams p = network(stages, w, e);
  p.radix = r;
  return p;
}

std::string nodes_of(const MultibutterflyParams& p) {
  return std::to_string(static_cast<long long>(std::lround(std::pow(p.radix, p.stages))));
}

// R1: the fraction of ordered pairs whose p(s) equals Eq 3.5 at every stage.
ValidationCase path_expansion_case(int r, int stages, Wiring w, EndpointWiring e, bool slow) {
  const auto p = sized(r, stages, w, e);
  std::string bound;
  for (long long b : path_expansion_bound(p)) bound += (bound.empty() ? "" : ",") + std::to_string(b);
  ValidationCase c{
      .id = "metro.r1.path_expansion_" + nodes_of(p) + "_" + wiring_label(w) + "_" + endpoint_label(e),
      .source = thesis("§3.5.3, Table 3.3, Eqs 3.2-3.6 (L954-1001 deterministic, L1076-1098 maximal "
                       "fanout)"),
      .setup = describe(p) + "; all ordered pairs",
      .quantity = "fraction of pairs with p(s) = Eq 3.5 (" + bound + ") at every stage",
      .expected = 1.0,
      .tolerance = Tolerance::exact(),
      .slow = slow,
      .measure =
          [p] {
            const auto pe = path_expansion(build_instance(p, 1, 0));
            return static_cast<double>(pe.pairs_at_bound) / static_cast<double>(pe.pairs);
          },
      // Structure: the thesis says both wirings reach the bound for all pairs; the count on the built
      // graph checks that mppnet wires them so, not how they behave.
      .evidence = Evidence::ClosedForm,
      .tolerance_origin = "exact: a count over every pair of the built graph",
  };
  if (w == Wiring::MaximalFanout && e == EndpointWiring::Random) {
    // The fraction depends on the random endpoint matching drawn: over seeds 1-10 it spreads with sd
    // 0.063 (64 nodes) and 0.019 (256 nodes) around the seed-1 values 0.5 and 0.818.
    const bool small = stages == 3;
    c.difference = core::pinned_around(
        small ? 0.5 : 0.818, small ? 0.189 : 0.056,
        "the endpoint assignment fitted to Table 3.4 (auto = random endpoints for maximal fanout) puts both "
        "ports of some nodes into one stage-1 fanout class, so those pairs reach half the stage-(S) wires: "
        "the fitted network is not a maximal-fanout network (docs/assumptions.md, \"METRO, endpoint "
        "wiring\"; docs/metro.md §3)",
        small ? "3 sd of seeds 1-10 (sd 0.063)" : "3 sd of seeds 1-10 (sd 0.019)");
  }
  return c;
}

// R1: Eq 3.6's paths per pair, min over pairs on the built graph.
ValidationCase total_paths_case(int r, int stages) {
  const auto p = sized(r, stages, Wiring::Deterministic, EndpointWiring::Block);
  return {
      .id = "metro.r1.total_paths_" + nodes_of(p) + "_det_ep_block",
      .source = thesis("§3.5.3, Eq 3.6 (L980-982)"),
      .setup = describe(p) + "; all ordered pairs",
      .quantity = "distinct paths per pair, minimum over pairs (ni d^(S-1))",
      .expected = static_cast<double>(total_paths_bound(p)),
      .tolerance = Tolerance::exact(),
      .slow = stages == 5,
      .measure = [p] { return static_cast<double>(path_expansion(build_instance(p, 1, 0)).min_total_paths); },
      // A count on the built graph against Eq 3.6, printed (r = 2) or applied: structure.
      .evidence = Evidence::ClosedForm,
      .tolerance_origin = "exact: a count over every pair of the built graph",
  };
}

// R1, "random wiring falls short": p(s) statistics of randomly wired networks (validated endpoints)
// against a prototype simulation written from the same notes (docs/metro.md §2). `stat` picks mean / min /
// max of stage `s` (1-based) over pairs.
enum class Stat { Mean, Min, Max };
ValidationCase random_shortfall_case(int stages, int s, Stat stat, double prototype, double instance_sd) {
  const auto p = network(stages, Wiring::Random, EndpointWiring::Random);
  const int instances = stages == 3 ? 20 : 10;
  const char* what = stat == Stat::Mean ? "mean" : stat == Stat::Min ? "min" : "max";
  return {
      .id = "metro.r1.random_shortfall_" + nodes_of(p) + "_ep_random_p" + std::to_string(s) + "_" + what,
      .source = thesis("§3.5.3 (L1005-1007): Eq 3.5 is an upper bound for random wiring; expected: a "
                       "prototype simulation written from the same notes (docs/metro.md §2)"),
      .setup = describe(p) + ", " + std::to_string(instances) + " instances, all ordered pairs",
      .quantity = std::string(what) + " over pairs (and instances) of p(" + std::to_string(s) + ") (bound " +
                  std::to_string(path_expansion_bound(p)[s - 1]) + ")",
      .expected = prototype,
      .tolerance = stat == Stat::Mean
                       ? Tolerance::absolute(three_sd({instance_sd, instance_sd / std::sqrt(instances)}))
                       : Tolerance::exact(),
      .slow = false,
      .measure =
          [p, s, stat, instances] {
            double sum = 0, lo = 1e9, hi = 0;
            for (int i = 0; i < instances; ++i) {
              const auto pe = path_expansion(build_instance(p, 1, i));
              sum += pe.mean[s - 1];
              lo = std::min<double>(lo, pe.min[s - 1]);
              hi = std::max<double>(hi, pe.max[s - 1]);
            }
            return stat == Stat::Mean ? sum / instances : stat == Stat::Min ? lo : hi;
          },
      .evidence = Evidence::SameSource,  // the prototype's, from the same notes; the thesis gives no number
      .tolerance_origin =
          stat == Stat::Mean
              ? "3 sd of (one prototype instance - our mean): instance-to-instance sd of the mean p(s) "
                "measured over 200 (64-node) / 40 (256-node) instances"
              : "exact: the smallest / largest p(s) any pair reaches (the prototype's range)",
  };
}

}  // namespace

void add_path_cases(std::vector<ValidationCase>& cases) {
  for (const Wiring w : {Wiring::Deterministic, Wiring::MaximalFanout}) {
    cases.push_back(path_expansion_case(2, 4, w, note_endpoints(w), false));
    cases.push_back(path_expansion_case(4, 3, w, note_endpoints(w), false));
    cases.push_back(path_expansion_case(4, 4, w, note_endpoints(w), false));
    cases.push_back(path_expansion_case(4, 5, w, note_endpoints(w), true));
  }
  // The networks the fitted "auto" endpoints give for maximal fanout (the Table 3.4 calibration cases).
  cases.push_back(path_expansion_case(4, 3, Wiring::MaximalFanout, EndpointWiring::Random, false));
  cases.push_back(path_expansion_case(4, 4, Wiring::MaximalFanout, EndpointWiring::Random, false));
  cases.push_back(total_paths_case(2, 4));
  for (const int stages : {3, 4, 5}) cases.push_back(total_paths_case(4, stages));
  // The prototype simulation: "in the 64-node case p(3) ranges 4-8 (mean 6.19); in the 256-node case p(3) and
  // p(4) have means 7.56 and 7.57, against a maximum of 8".
  cases.push_back(random_shortfall_case(3, 3, Stat::Mean, 6.19, 0.070));
  cases.push_back(random_shortfall_case(3, 3, Stat::Min, 4, 0));
  cases.push_back(random_shortfall_case(3, 3, Stat::Max, 8, 0));
  cases.push_back(random_shortfall_case(4, 3, Stat::Mean, 7.56, 0.030));
  cases.push_back(random_shortfall_case(4, 4, Stat::Mean, 7.57, 0.020));
  // Table 3.1, switching latency of a flat multistage network: log_r N routers on every route, the same
  // for near and far pairs (no locality; the fat tree's (4/3) log4 N is metro.ft.worst_case_switching_*).
  const auto flat = network(6, Wiring::Deterministic, EndpointWiring::Block);
  cases.push_back({
      .id = "metro.r6.table31_flat_switching_4096",
      .source = thesis("§3.1.5, Table 3.1 (L835-843): flat multistage switching Θ(log N), no locality"),
      .setup = describe(flat) + "; routes from every node to destinations 0, 1023, 2046, 3069, 4092",
      .quantity = "routers on every shortest route (log4 4096; -1 if routes differ in length)",
      .expected = 6,
      .tolerance = Tolerance::exact(),
      .slow = false,
      .measure =
          [flat] {
            const auto g = graph_paths(to_graph(build_instance(flat, 1, 0)), 1023);
            return g.min_hops == g.max_hops ? static_cast<double>(g.max_hops) : -1.0;
          },
      .evidence = Evidence::ClosedForm,  // hop counts of the built graph: structure
      .tolerance_origin = "exact: hop counts on the built graph",
  });
}

}  // namespace detail

std::vector<core::ValidationCase> metro_validation_cases() {
  using core::Tolerance;
  std::vector<core::ValidationCase> cases;
  detail::add_path_cases(cases);
  detail::add_yield_cases(cases);
  detail::add_harvest_cases(cases);
  // R7: the thesis's extra-stage network is the same graph read as radix-8 dilation-1 routers, so its
  // yield is the dilated network's fault set by fault set. Both answers come from this code (the tracker
  // and a direction-blind graph search): a self-check, not evidence from the thesis.
  cases.push_back({
      .id = "metro.r7.extra_stage_equivalence",
      .source = std::string(detail::kThesis) + " §3.5.4 (L1168-1170)",
      .setup = "64-node networks, the three wirings with the validated endpoints (docs/metro.md §1), 100 "
               "random sequences of 30 "
               "package faults each; dilated tracker vs a search over the same graph labelled as radix-8 "
               "dilation-1 routers",
      .quantity = "fault sets on which the two completeness answers differ",
      .expected = 0,
      .tolerance = Tolerance::exact(),
      .slow = true,
      .measure =
          [] {
            int differ = 0;
            for (const Wiring w : {Wiring::Deterministic, Wiring::Random, Wiring::MaximalFanout}) {
              const auto net = build_instance(detail::network(3, w, detail::note_endpoints(w)), 1, 0);
              CompletenessTracker t(net);
              for (int seq = 0; seq < 100; ++seq) {
                t.reset();
                std::vector<std::uint8_t> faulty(net.routers()), dead(link_count(net));
                core::RandomStream rng(1, seq, core::Stream::Fault);
                for (int k = 0; k < 30; ++k) {
                  const int pkg = static_cast<int>(rng.below(static_cast<std::uint32_t>(net.packages())));
                  t.fail(FaultUnit::Package, pkg);
                  for (RouterId u : net.package_routers[pkg]) faulty[u] = 1;
                  differ += t.complete() != complete_by_search(net, faulty, dead) ? 1 : 0;
                }
              }
            }
            return static_cast<double>(differ);
          },
      .evidence = core::Evidence::SelfConsistency,
      .tolerance_origin = "exact: two answers for the same graph and fault set",
  });
  detail::add_design_cases(cases);
  for (auto& c : tree_validation_cases()) cases.push_back(std::move(c));
  for (auto& c : mrp::mrp_validation_cases()) cases.push_back(std::move(c));
  for (auto& c : mrp::mrp_endpoint_validation_cases()) cases.push_back(std::move(c));
  for (auto& c : mrp::r4_validation_cases()) cases.push_back(std::move(c));
  for (auto& c : scan::scan_validation_cases()) cases.push_back(std::move(c));
  for (auto& c : mlink::mlink_validation_cases()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace mppnet::machines::metro
