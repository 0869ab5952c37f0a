// machines/metro/validation_trees.cpp: validation cases of the fat trees and hybrid fat trees.
//
// The thesis prints no yield or path numbers for its trees (Figs 3.30-3.33 are lost). What it does print:
// the (4/3)*log4 N worst-case switching (§1, line 453), the Table 7.4 unit-tree router counts (the same
// tree packaged, §7.5.4), the hybrid cluster's 1/r tree inputs and 1 of r directions up (§3.5.7), and the
// multipath argument of Eqs 3.2-3.6, which gives the path count of a route (derived, stated as such).
#include <string>
#include <tuple>

#include "machines/metro/fat_tree.hpp"
#include "machines/metro/graph_completeness.hpp"
#include "machines/metro/validation.hpp"

namespace mppnet::machines::metro {

namespace {

using core::ValidationCase;

constexpr const char* kTreeThesis = "DeHon 1993 (MIT AI TR-1445)";

template <class P>
P tree(int levels, int ni, int final_dilation) {
  P p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = levels;
  p.node_inputs = p.node_outputs = ni;
  p.final_dilation = final_dilation;
  return p;
}

// Counts on a built graph: exact. `evidence` is ClosedForm (structure) where the thesis prints the number,
// Independent where it is derived from the thesis's construction rules.
ValidationCase exact(std::string id, std::string source, std::string setup, std::string quantity,
                     double expected, std::function<double()> measure, core::Evidence evidence) {
  return core::exact_case(std::move(id), std::move(source), std::move(setup), std::move(quantity), expected,
                          std::move(measure), evidence, "exact: a count on the built graph");
}

}  // namespace

std::vector<ValidationCase> tree_validation_cases() {
  std::vector<ValidationCase> cases;
  const std::string s453 = std::string(kTreeThesis) + " §1.3.1 (L453), §3.5.6 (Fig 3.30)";
  for (const auto& row : {std::tuple{3, 64, 4, 1}, std::tuple{6, 4096, 8, 1023}}) {
    const auto [levels, nodes, expected, stride_] = row;
    const int stride = stride_;  // a lambda may not capture a structured binding before C++20's P1091
    const auto p = tree<MetroFatTreeParams>(levels, 2, 2);
    cases.push_back(exact(
        "metro.ft.worst_case_switching_" + std::to_string(nodes), s453,
        describe(p) + "; shortest routes counted on the built graph" +
            (stride > 1 ? ", destinations 0, 1023, ..." : ", all pairs"),
        "routers on the longest shortest route ((4/3) log4 N)", expected,
        [p, stride] { return static_cast<double>(graph_paths(build_fat_tree(p), stride).max_hops); },
        core::Evidence::ClosedForm));
  }
  const std::string s74 = std::string(kTreeThesis) + " §7.5.4, Table 7.4, Eqs 7.1-7.2";
  for (const auto& [ni, name, counts] : {std::tuple{2, "ut64x2", std::vector<int>{16, 16, 12, 8}},
                                         std::tuple{8, "ut64x8", std::vector<int>{64, 64, 48, 32}}}) {
    const char* parts[] = {"up", "final_down", "middle_down", "initial_down"};
    const char* roles[] = {"up level 1", "down height 1", "down height 2", "down height 3"};
    for (int i = 0; i < 4; ++i) {
      const auto p = tree<MetroFatTreeParams>(3, ni, 2);
      const std::string role = roles[i];
      cases.push_back(exact(
          std::string("metro.ft.") + name + "_" + parts[i], s74,
          describe(p) + " (one unit tree; the root stage's c_r inputs come from the "
                        "turnaround)",
          std::string(parts[i]) + " routers in the built tree", counts[i],
          [p, role] { return static_cast<double>(build_fat_tree(p).count_role(role)); },
          core::Evidence::ClosedForm));
    }
  }
  const auto p64 = tree<MetroFatTreeParams>(3, 4, 2);
  cases.push_back(exact(
      "metro.ft.paths_far_pair_64",
      std::string(kTreeThesis) + ", derived from §3.5.3 (Eqs 3.2, 3.6) applied to a tree route of §3.5.6",
      describe(p64) + "; pair (0, 63)", "routes = ni * (crossover d + turnaround d) * d^2 * d_F = 4*4*4*2",
      128, [p64] { return static_cast<double>(pair_paths(build_fat_tree(p64), 0, 63).paths); },
      core::Evidence::Independent));
  cases.push_back(exact(
      "metro.ft.one_fault_never_disconnects_64",
      std::string(kTreeThesis) + " §3.5.6 (each dilated connection to a different router)",
      describe(p64) + "; every single router fault", "smallest P(complete | 1 fault)", 1.0,
      [p64] {
        const NetworkGraph g = build_fat_tree(p64);
        GraphCompletenessTracker t(g);
        int complete = 0;
        for (RouterId u = 0; u < g.routers(); ++u) {
          t.reset();
          t.fail_router(u);
          complete += t.complete() ? 1 : 0;
        }
        return static_cast<double>(complete) / g.routers();
      },
      core::Evidence::Independent));
  const auto hy = tree<HybridFatTreeParams>(1, 2, 1);
  const std::string s357 = std::string(kTreeThesis) + " §3.5.7 (L1229-1231; Fig 3.33 lost)";
  auto first_stage_fraction = [hy](bool inputs) {
    const NetworkGraph g = build_fat_tree(hy);
    int part = 0, all = 0;
    for (RouterId u = 0; u < g.routers(); ++u) {
      if (g.role_names[g.role[u]] != "cluster stage 1") continue;
      if (inputs)
        for (int i = g.in_first[u]; i < g.in_first[u + 1]; ++i, ++all)
          part += is_node_source(g.in[i]) ? 0 : 1;
      else
        for (int o = g.out_first[u]; o < g.out_first[u + 1]; ++o, ++all)
          part += g.role_names[g.role[g.out[o]]] == "up level 1" ? 1 : 0;
    }
    return static_cast<double>(part) / all;
  };
  cases.push_back(exact(
      "metro.hft.first_stage_tree_inputs", s357, describe(hy),
      "fraction of cluster first-stage inputs from the tree (1/r)", 0.25,
      [first_stage_fraction] { return first_stage_fraction(true); }, core::Evidence::ClosedForm));
  cases.push_back(exact(
      "metro.hft.first_stage_up_outputs", s357, describe(hy),
      "fraction of cluster first-stage outputs into the tree (1 of r directions)", 0.25,
      [first_stage_fraction] { return first_stage_fraction(false); }, core::Evidence::ClosedForm));
  return cases;
}

}  // namespace mppnet::machines::metro
