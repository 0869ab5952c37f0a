// machines/cm5/diagnostic_tests.cpp: AND/OR-combined group scan tests, isolation by halves, chain tests.
#include "machines/cm5/diagnostic_tests.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::cm5 {

GroupTester::GroupTester(DiagnosticTree& tree, const ScanSystem& scan) : tree_(tree), scan_(scan) {}

std::int64_t GroupTester::shift_cycles(int chain_cells) const {
  const std::int64_t v = scan_.vectors();
  return (v + 1) * chain_cells + v;
}

bool GroupTester::run(const std::vector<int>& pods, int chip) {
  const int words = scan_.words();
  std::vector<std::uint64_t> all_ones(static_cast<std::size_t>(words)), any_one(all_ones.size()), out;
  for (int t = 0; t < scan_.vectors(); ++t) {
    const std::vector<std::uint64_t>& e = scan_.expected(t);
    const int first = chip >= 0 ? chip : 0;
    const int last = chip >= 0 ? chip + 1 : scan_.params().chips_per_pod;
    for (int c = first; c < last; ++c) {  // the chips' segments of the daisy chain, in order
      std::fill(all_ones.begin(), all_ones.end(), ~std::uint64_t{0});
      std::fill(any_one.begin(), any_one.end(), 0);
      for (const int p : pods) {
        scan_.scan_out(p, c, t, out);
        for (int w = 0; w < words; ++w) {
          all_ones[static_cast<std::size_t>(w)] &= out[static_cast<std::size_t>(w)];  // AND combiner
          any_one[static_cast<std::size_t>(w)] |= out[static_cast<std::size_t>(w)];   // OR combiner
        }
      }
      if (pods.empty()) return true;
      for (int w = 0; w < words; ++w) {
        const auto uw = static_cast<std::size_t>(w);
        // Where the expected bit is 1 the diagnostic processor reads the AND, where it is 0 the OR.
        const std::uint64_t combined = (all_ones[uw] & e[uw]) | (any_one[uw] & ~e[uw]);
        const std::uint64_t keep = w + 1 == words ? scan_.last_word_mask() : ~std::uint64_t{0};
        if (((combined ^ e[uw]) & keep) != 0) return false;
      }
    }
  }
  return true;
}

bool GroupTester::test(const std::vector<DiagnosticAddress>& addresses) {
  tree_.erase();
  for (const DiagnosticAddress& a : addresses) tree_.apply(a);
  const std::vector<int> pods = tree_.selected_pods();
  const bool passed = run(pods, -1);
  cycles_ +=
      selection_cycles(addresses) + shift_cycles(scan_.params().chips_per_pod * scan_.params().chain_bits);
  log_.push_back({addresses, static_cast<int>(pods.size()), passed});
  return passed;
}

std::vector<int> GroupTester::chain_test(int pod) {
  const DiagnosticAddress a = DiagnosticAddress::pod(pod, tree_.height());
  tree_.erase();
  tree_.apply(a);
  const std::vector<int> pods = tree_.selected_pods();
  cycles_ += selection_cycles({a});
  std::vector<int> failing;
  const int chips = scan_.params().chips_per_pod;
  for (int c = 0; c < chips; ++c) {
    ++chain_tests_;
    // The chip's own chain plus one BYPASS cell for each other chip of the pod.
    cycles_ += shift_cycles(scan_.params().chain_bits + chips - 1);
    if (!run(pods, c)) failing.push_back(c);
  }
  return failing;
}

namespace {

int first_both(const DiagnosticAddress& a) {
  for (int i = 0; i < a.size(); ++i)
    if (a[i] == Digit::Both) return i;
  return -1;
}

void isolate_into(GroupTester& tester, const DiagnosticAddress& failing, bool stop_at_first, Isolation& r) {
  const int i = first_both(failing);
  if (i < 0) {
    r.pods.push_back([&] {
      int p = 0;
      for (int k = 0; k < failing.size(); ++k) p = 2 * p + static_cast<int>(failing[k]);
      return p;
    }());
    return;
  }
  const DiagnosticAddress zero = failing.with(i, Digit::Zero), one = failing.with(i, Digit::One);
  // An empty half cannot fail: the whole failure lies in the other, with no test spent.
  if (tester.tree().count_matching(zero) == 0) return isolate_into(tester, one, stop_at_first, r);
  if (tester.tree().count_matching(one) == 0) return isolate_into(tester, zero, stop_at_first, r);
  ++r.tests;
  if (tester.test(zero)) return isolate_into(tester, one, stop_at_first, r);  // deduced: the 1 half fails
  isolate_into(tester, zero, stop_at_first, r);
  if (stop_at_first) return;
  ++r.tests;
  if (!tester.test(one)) isolate_into(tester, one, stop_at_first, r);
}

}  // namespace

Isolation isolate(GroupTester& tester, const DiagnosticAddress& failing, bool stop_at_first) {
  MPPNET_ASSERT(failing.size() == tester.tree().height(), "isolation starts from a full-length address");
  Isolation r;
  isolate_into(tester, failing, stop_at_first, r);
  std::sort(r.pods.begin(), r.pods.end());
  return r;
}

}  // namespace mppnet::machines::cm5
