// machines/cm5/diagnostic_validation.cpp: the diagnostic network's claims (Leiserson et al. 1992, §6)
// measured on the diagnostic network model (ids cm5.v27-v30).
//
// Sources cite Leiserson et al., "The Network Architecture of the Connection Machine CM-5" (SPAA 1992;
// docs/references.md) by section, with the line (L123) of its transcription, as in validation.cpp.
#include "machines/cm5/diagnostic_validation.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "core/rng.hpp"
#include "machines/cm5/diagnostic_geography.hpp"
#include "machines/cm5/diagnostic_network.hpp"
#include "machines/cm5/diagnostic_tests.hpp"

namespace mppnet::machines::cm5 {

namespace {

using core::Tolerance;
using core::ValidationCase;

// Every claim here is in the paper's §6, "The CM-5 Diagnostic Network".
constexpr const char* kDiagnosticPaper = "Leiserson et al. 1992, §6";

// Pods in one of the two sets and not the other.
double mismatches(const std::vector<int>& got, const std::set<int>& want) {
  const std::set<int> g(got.begin(), got.end());
  double n = 0;
  for (const int p : g) n += want.count(p) == 0 ? 1 : 0;
  for (const int p : want) n += g.count(p) == 0 ? 1 : 0;
  return n;
}

double address_decode_mismatches() {
  DiagnosticTree tree(6, 64);
  tree.apply(DiagnosticAddress::parse("00B10B", 6));
  return mismatches(tree.selected_pods(), {4, 5, 12, 13});
}

double union_mismatches() {
  // Left 00B10B = {4, 5, 12, 13}; right 1B0B11 = {35, 39, 51, 55}.
  DiagnosticTree tree(6, 64);
  for (const DiagnosticAddress& a :
       union_sequence(DiagnosticAddress::parse("00B10B", 6), DiagnosticAddress::parse("1B0B11", 6)))
    tree.apply(a);
  return mismatches(tree.selected_pods(), {4, 5, 12, 13, 35, 39, 51, 55});
}

constexpr int kV29Height = 10;
constexpr int kV29Faults = 64;

// Mean group tests, after the whole-machine test failed, to isolate one stuck-at pod of 2^10.
double isolation_tests() {
  const int h = kV29Height;
  DiagnosticTree tree(h, 1 << h);
  const DiagnosticAddress everything(std::vector<Digit>(static_cast<std::size_t>(h), Digit::Both));
  core::RandomStream draw(29, 0, core::Stream::Fault);
  double tests = 0;
  for (int k = 0; k < kV29Faults; ++k) {
    ScanSystem scan(1 << h, {.seed = static_cast<std::uint64_t>(k + 1)});
    const int pod = static_cast<int>(draw.below(1u << h));
    scan.inject({.pod = pod,
                 .chip = static_cast<int>(draw.below(4)),
                 .bit = static_cast<int>(draw.below(64)),
                 .value = k % 2});
    GroupTester tester(tree, scan);
    if (tester.test(everything)) return -1;  // the fault escaped detection
    const Isolation r = isolate(tester, everything, true);
    if (r.pods != std::vector<int>{pod}) return -1;
    tests += r.tests;
  }
  return tests / kV29Faults;
}

// The largest increase, over the doublings from 64 to 16,384 nodes and over the levels both sizes have,
// of the diagnostic cycles to select all data-network chips of one level; a huge value when a level
// needs more than h addresses (the paper's bound, L755-757).
double level_select_growth() {
  double worst = 0;
  std::vector<std::int64_t> previous;
  for (int nodes = 64; nodes <= 16384; nodes *= 2) {
    const FatTreeShape shape(nodes, {2, 2, 4});
    const DiagnosticGeography geo(shape);
    std::vector<std::int64_t> cycles;
    for (int level = 1; level <= shape.height(); ++level) {
      const std::vector<DiagnosticAddress> a = geo.level_addresses(level);
      if (a.empty() || static_cast<int>(a.size()) > geo.height()) return 1e9;
      cycles.push_back(selection_cycles(a));
    }
    for (std::size_t k = 0; k < std::min(previous.size(), cycles.size()); ++k)
      worst = std::max(worst, static_cast<double>(cycles[k] - previous[k]));
    previous = cycles;
  }
  return worst;
}

}  // namespace

std::vector<ValidationCase> diagnostic_validation_cases() {
  std::vector<ValidationCase> cases;
  cases.push_back({"cm5.v27.address_decode", std::string(kDiagnosticPaper) + ", L730-733",
                   "diagnostic tree of height 6 (64 pods), one address 00B10B issued after an erase",
                   "pods selected that are not in {4, 5, 12, 13}, plus those of it not selected", 0,
                   Tolerance::exact(), false, address_decode_mismatches});
  cases.back().tolerance_origin = "exact: the paper's worked example (§6, L732-733)";
  cases.push_back({"cm5.v28.union",
                   std::string(kDiagnosticPaper) +
                       ", L742-750, node state read as docs/assumptions.md \"CM-5 diagnostic network\" does",
                   "height 6: select 00B10B = {4, 5, 12, 13}, then 1B0B11 = {35, 39, 51, 55}, then B",
                   "pods of the union not selected, plus pods selected outside it", 0, Tolerance::exact(),
                   false, union_mismatches});
  cases.back().tolerance_origin = "exact: the paper's three-step union (§6, L744-750)";
  cases.push_back(
      {"cm5.v29.group_tests", std::string(kDiagnosticPaper) + ", L762-769",
       "1,024 pods (h = 10) of 4 chips with 64-cell scan chains, one stuck-at cell (0 or 1) in a random "
       "pod, 64 faults; AND/OR-combined group tests of 8 ATPG vectors; isolation by halves from BBBBBBBBBB, "
       "stopping at the first failing pod",
       "group tests after the failing whole-machine test, mean over the faults", kV29Height,
       // "About h": one test a digit is h exactly, and one individual confirmation of the pod found.
       Tolerance::absolute_band(0, 1), false, isolation_tests});
  cases.back().tolerance_origin =
      "the paper's 'about h' group tests (§6, L766-769): h, plus one individual confirmation of the "
      "pod found";
  // Isolation by halves takes h tests by construction: the case checks mppnet's search, not the machine.
  cases.back().evidence = core::Evidence::SelfConsistency;
  cases.push_back(
      {"cm5.v30.level_select_growth", std::string(kDiagnosticPaper) + ", L755-760",
       "CM-5s of 64, 128, ..., 16,384 nodes, data-network chips on boards of 4 of one level and side "
       "(docs/assumptions.md); for every level, erase then issue the addresses that select its chips; "
       "cost: 1 cycle an erase, 1 a digit, 2 an address (diagnostic clock, about 1 MHz)",
       "largest increase per doubling of the cycles to select one level (diagnostic cycles)", 1,
       // A doubling doubles every level's boards: one more digit (1 cycle). Crossing a power of 4 also
       // adds a top level, whose subtree can push the tree past the next power of two: one digit more.
       // So 0 to 2, "a small additive amount"; more than h addresses fails the case outright.
       Tolerance::absolute_band(1, 1), false, level_select_growth});
  cases.back().tolerance_origin =
      "the paper's 'a small additive amount' with at most h addresses (§6, L755-760), bounded by derivation: "
      "a doubling adds one digit, and a new top level at most one more (0 to 2 cycles)";
  // The cycles count mppnet's own layout and cost rule (docs/assumptions.md, "CM-5 diagnostic network"),
  // which the derivation works out too: a self-check.
  cases.back().evidence = core::Evidence::SelfConsistency;
  return cases;
}

}  // namespace mppnet::machines::cm5
