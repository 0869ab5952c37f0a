// app/plot_references.cpp: published values to overlay, read from the validation cases that hold them:
// the CM-1's Fig. 12 claims and DeHon's Table 3.4 yields.
#include "app/plot_references.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::app {

namespace {

const core::ValidationCase* find_case(const std::vector<core::ValidationCase>& cases, const std::string& id) {
  for (const core::ValidationCase& c : cases)
    if (c.id == id) return &c;
  return nullptr;
}

// The band a case accepts, as the absolute ends of a bar.
std::pair<double, double> band(const core::ValidationCase& c) {
  const double scale = c.tolerance.relative ? std::abs(c.expected) : 1.0;
  return {c.expected - c.tolerance.below * scale, c.expected + c.tolerance.above * scale};
}

constexpr const char* kCitation = "Kahle, Kuszmaul & Hillis 1989, sec. 4.1";

// Kahle, Kuszmaul and Hillis's Fig. 12 (petit cycles against VP ratio) lost its data; its prose survives:
// about 12 petit cycles at VP ratio 1 ("about a third" above the bound), approaching the bound 8v as v
// grows (sec. 4.1). Both come from the cm1.e4 cases, which hold them with their sources.
std::vector<io::FigureSeries> fig12_series(const ReferenceQuery& q,
                                           const std::vector<core::ValidationCase>& cases) {
  if (q.x != "traffic.vp_ratio" || q.y != "petit_cycles") return {};
  std::vector<io::FigureSeries> out;
  if (const core::ValidationCase* c = find_case(cases, "cm1.e4.petit_cycles_v1")) {
    const auto [low, high] = band(*c);
    out.push_back({.label = fmt::format(
                       "{}: about {:g} petit cycles at VP ratio 1, bar: 'about a third' above the bound "
                       "(Fig. 12's data is lost)",
                       kCitation, c->expected),
                   .x = {1},
                   .y = {c->expected},
                   .y_low = {low},
                   .y_high = {high},
                   .style = io::FigureSeries::Style::ReferencePoints});
  }
  if (const core::ValidationCase* c = find_case(cases, "cm1.e4.approaches_bound_v32")) {
    io::FigureSeries bound{
        .label = std::string(kCitation) + ": the lower bound 8v, approached as the VP ratio grows",
        .style = io::FigureSeries::Style::ReferenceLine};
    std::vector<double> xs = q.xs;
    xs.push_back(1);
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    for (const double v : xs) {
      bound.x.push_back(v);
      bound.y.push_back(c->expected * 8 * v);  // the case's p/8v = 1, in petit cycles
    }
    out.push_back(std::move(bound));
  }
  return out;
}

std::string config_value(const ResultFile& f, const std::string& key) {
  const auto it = f.config.find(key);
  return it == f.config.end() ? "" : it->second;
}

// The metro.r2 case of DeHon's Table 3.4 row for this yield run, or "" when the run is not one of its
// networks (4 x 2 routers, 3 or 4 stages, package faults, symmetric final pairing).
std::string table34_case(const ResultFile& f, const std::vector<core::ValidationCase>& cases) {
  if (config_value(f, "metro.topology") != "multibutterfly" || config_value(f, "metro.radix") != "4" ||
      config_value(f, "metro.dilation") != "2" || config_value(f, "faults.unit") != "package" ||
      config_value(f, "metro.final_pairing") != "symmetric")
    return "";
  const std::string stages = config_value(f, "metro.stages");
  const std::string nodes = stages == "3" ? "64" : stages == "4" ? "256" : "";
  const std::string wiring = config_value(f, "metro.wiring");
  const std::string label = wiring == "deterministic" ? "det" : wiring == "maximal_fanout" ? "rmf" : wiring;
  std::string endpoints = config_value(f, "metro.endpoints");
  if (endpoints == "auto")  // what "auto" resolves to (the metro.endpoints key's doc)
    endpoints = wiring == "deterministic" ? "block" : wiring == "random" ? "spread" : "random";
  if (nodes.empty()) return "";
  const std::string id = fmt::format("metro.r2.yield_{}_{}_ep_{}", nodes, label, endpoints);
  for (const std::string& candidate : {id, id + "_fitted"})
    if (find_case(cases, candidate) != nullptr) return candidate;
  return "";
}

// DeHon 1993, Table 3.4: expected faults tolerated for each network, placed at the run of that network.
std::vector<io::FigureSeries> table34_series(const ReferenceQuery& q,
                                             const std::vector<core::ValidationCase>& cases) {
  if (q.kind != "yield" || q.y != "expected_faults_tolerated" || !q.x_is_config_key) return {};
  io::FigureSeries s{.label = "DeHon 1993, Table 3.4: expected faults tolerated",
                     .style = io::FigureSeries::Style::ReferencePoints};
  for (std::size_t i = 0; i < q.files.size(); ++i) {
    const std::string id = table34_case(*q.files[i], cases);
    if (id.empty()) continue;
    s.x.push_back(q.file_x[i]);
    s.y.push_back(find_case(cases, id)->expected);
  }
  if (s.x.empty()) return {};
  return {s};
}

struct Known {
  Reference reference;
  const char* case_prefix;
};

const std::vector<Known>& known() {
  static const std::vector<Known> all = {
      {{"cm1.fig12",
        "CM-1 petit cycles against VP ratio (--x traffic.vp_ratio --y petit_cycles): the paper's "
        "value at VP ratio 1 and its bound 8v",
        fig12_series},
       "cm1.e4."},
      {{"metro.table3.4",
        "METRO expected faults tolerated (--y expected_faults_tolerated) of the networks in "
        "DeHon's Table 3.4",
        table34_series},
       "metro.r2.yield_"},
  };
  return all;
}

}  // namespace

std::vector<io::FigureSeries> reference_series(const std::string& requested, const ReferenceQuery& query,
                                               const std::vector<core::ValidationCase>& cases) {
  if (requested == "none") return {};
  std::vector<io::FigureSeries> out;
  if (requested.empty()) {
    for (const Known& k : known())
      for (io::FigureSeries& s : k.reference.series(query, cases)) out.push_back(std::move(s));
    return out;
  }
  std::string ids;
  for (const Known& k : known()) {
    ids += fmt::format("{}{}", ids.empty() ? "" : ", ", k.reference.id);
    if (requested != k.reference.id && !requested.starts_with(k.case_prefix)) continue;
    out = k.reference.series(query, cases);
    if (out.empty())
      throw core::ConfigError({"--reference " + requested, 0}, "",
                              fmt::format("does not fit this figure: it overlays {}", k.reference.summary));
    return out;
  }
  throw core::ConfigError({"--reference " + requested, 0}, "",
                          fmt::format("no such reference; expected one of {}, or none", ids));
}

}  // namespace mppnet::app
