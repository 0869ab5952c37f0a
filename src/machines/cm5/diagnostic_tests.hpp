// machines/cm5/diagnostic_tests.hpp: group scan tests over the diagnostic network, divide-and-conquer
// isolation of a failing pod, and the serial chain test that finds the chip inside it.
//
// The paper (L762-771): the JTAG inputs are broadcast to all selected pods; their scan outputs are
// AND-combined where the expected bit is 1 (1 iff every pod gives 1) and OR-combined where it is 0
// (0 iff every pod gives 0). A group test therefore fails iff at least one selected pod deviates, which
// is what makes isolation by halves sound: if a failing set's first half passes, the second must fail
// and need not be tested.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cm5/diagnostic_network.hpp"
#include "machines/cm5/diagnostic_scan.hpp"

namespace mppnet::machines::cm5 {

struct GroupTestRecord {
  std::vector<DiagnosticAddress> addresses;  // issued after an erase
  int pods = 0;                              // pods they selected
  bool passed = true;
};

class GroupTester {
 public:
  // Both must outlive the tester; the tester steers `tree`.
  GroupTester(DiagnosticTree& tree, const ScanSystem& scan);

  // Erases, issues `addresses`, broadcasts the pattern set to the selected pods and combines their scan
  // outputs bit by bit. True when every combined bit is the expected one (so also when none is selected).
  bool test(const std::vector<DiagnosticAddress>& addresses);
  bool test(const DiagnosticAddress& a) { return test(std::vector<DiagnosticAddress>{a}); }

  // Within one pod (selected alone), each chip is scanned in turn with the others in JTAG BYPASS, the
  // standard way of narrowing a failing daisy chain to a chip. Returns the failing chips' places.
  std::vector<int> chain_test(int pod);

  const DiagnosticTree& tree() const { return tree_; }
  int group_tests() const { return static_cast<int>(log_.size()); }
  int chain_tests() const { return chain_tests_; }
  // Diagnostic clock cycles spent: selections (selection_cycles) and shifting. A test of V vectors on a
  // chain of L cells shifts (V + 1) * L cycles (each shift-in overlaps the previous shift-out; the last
  // response needs one more) plus one capture cycle a vector.
  std::int64_t cycles() const { return cycles_; }
  const std::vector<GroupTestRecord>& log() const { return log_; }

 private:
  // The pattern set on `pods`, chips chained in pod order; `chip` >= 0 scans that chip alone (BYPASS).
  bool run(const std::vector<int>& pods, int chip);
  std::int64_t shift_cycles(int chain_cells) const;

  DiagnosticTree& tree_;
  const ScanSystem& scan_;
  std::vector<GroupTestRecord> log_;
  int chain_tests_ = 0;
  std::int64_t cycles_ = 0;
};

struct Isolation {
  std::vector<int> pods;  // the failing pods found, ascending
  int tests = 0;          // group tests spent (the test that found `failing` failing is not counted)
};

// Finds failing pods in the set of `failing`, a full-length address whose group test failed: replace its
// first B by 0 and test; if that half fails recurse into it (and, unless `stop_at_first`, test the 1 half
// too), else recurse into the 1 half without testing it. A half with no present pod is skipped untested.
// With one faulty pod among 2^h and `failing` all B's, that is exactly one test a digit: h tests with
// `stop_at_first`; 2h - (ones in the pod's address) without.
Isolation isolate(GroupTester& tester, const DiagnosticAddress& failing, bool stop_at_first);

}  // namespace mppnet::machines::cm5
