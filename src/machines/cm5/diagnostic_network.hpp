// machines/cm5/diagnostic_network.hpp: the CM-5 diagnostic network's tree of pods and its {0,1,B}
// addresses, steered as tokens (Leiserson et al. 1992, the CM-5 network, L712-750; note 000 §2.5, §5.17).
//
// The tree is binary, of height h, and need not be complete: a leaf (pod) may be absent, and a node
// exists when a pod below it does. Pod p's physical address is p in h binary digits, high digit first
// (digit i chooses the subtree at depth i). An address of fewer than h digits names internal nodes.
//
// Node state is the note's reading A33: each node keeps a left and a right path enable and a token.
// An address overwrites the enables only of the nodes it visits; the nodes its frontier reaches when it
// ends take a token; nothing below is touched. A pod is selected when it holds a token and the path from
// the root to it is enabled all the way. That is what lets the paper's three-step union work (L744-750).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mppnet::machines::cm5 {

enum class Digit : std::uint8_t { Zero = 0, One = 1, Both = 2 };  // Both is the paper's "B"

class DiagnosticAddress {
 public:
  DiagnosticAddress() = default;
  explicit DiagnosticAddress(std::vector<Digit> digits) : digits_(std::move(digits)) {}

  // Parses "00B10B" ('b' is taken for 'B'). Throws core::ConfigError naming the address and the reason
  // when it is empty, has more than `height` digits or holds a character other than 0, 1 and B.
  static DiagnosticAddress parse(std::string_view text, int height);
  // Pod p's physical address: h binary digits, high digit first. REQUIRES 0 <= p < 2^h.
  static DiagnosticAddress pod(int p, int height);

  int size() const { return static_cast<int>(digits_.size()); }
  Digit operator[](int i) const { return digits_[static_cast<std::size_t>(i)]; }
  const std::vector<Digit>& digits() const { return digits_; }
  std::string str() const;  // "00B10B"; "" for the empty (root) address
  // Whether pod p lies in the set this full-length (h-digit) address names.
  bool matches(int p, int height) const;
  // The same digits with digit i replaced.
  DiagnosticAddress with(int i, Digit d) const;
  bool operator==(const DiagnosticAddress&) const = default;

 private:
  std::vector<Digit> digits_;
};

// Digit-wise intersection (note A34: the paper lists intersections, L709, without a mechanism):
// 0∧0 = 0, 0∧B = 0, B∧B = B, 0∧1 = nothing. std::nullopt when the sets do not meet.
// REQUIRES: a.size() == b.size().
std::optional<DiagnosticAddress> intersect(const DiagnosticAddress& a, const DiagnosticAddress& b);

// The smallest h with 2^h >= pods, at least 1.
int diagnostic_height_for(int pods);

class DiagnosticTree {
 public:
  // Pods 0 .. pods-1 present, the rest of the 2^height leaves absent. REQUIRES 1 <= pods <= 2^height.
  DiagnosticTree(int height, int pods);
  // Pod p present when present[p]. REQUIRES present.size() == 2^height, 1 <= height <= 24.
  DiagnosticTree(int height, std::vector<bool> present);

  int height() const { return height_; }
  int leaves() const { return 1 << height_; }
  bool present(int pod) const { return exists(leaf_node(pod)); }
  int present_pods() const { return below_[1]; }
  // Present pods in the set a full-length address names.
  int count_matching(const DiagnosticAddress& a) const;

  // Steers a token down from the root, digit by digit (note §5.17). REQUIRES a.size() <= height().
  void apply(const DiagnosticAddress& a);
  // Clears every enable and token.
  void erase();
  // Pods holding a token and reachable from the root through enabled edges, ascending.
  std::vector<int> selected_pods() const;

  // Digits and addresses sent since construction, and explicit erases: the inputs of the cost model
  // (diagnostic_geography.hpp, selection_cycles).
  std::int64_t digits_sent() const { return digits_sent_; }
  std::int64_t addresses_sent() const { return addresses_sent_; }
  std::int64_t erases() const { return erases_; }

 private:
  // Heap numbering: root 1, children 2n and 2n+1; pod p is leaf 2^h + p.
  int leaf_node(int pod) const { return (1 << height_) + pod; }
  bool exists(int node) const { return below_[static_cast<std::size_t>(node)] > 0; }
  void collect(int node, int depth, std::vector<int>& out) const;

  int height_;
  std::vector<int> below_;  // present pods under each node (0: the node is absent)
  std::vector<std::uint8_t> en_left_, en_right_, token_;
  std::int64_t digits_sent_ = 0;
  std::int64_t addresses_sent_ = 0;
  std::int64_t erases_ = 0;
};

// The paper's union of a set in the root's left half and one in its right half (L744-750): select the
// left set ("0..."), then the right ("1..."), then the one-digit address "B", which re-enables both of
// the root's children. REQUIRES left[0] == 0, right[0] == 1.
std::vector<DiagnosticAddress> union_sequence(const DiagnosticAddress& left, const DiagnosticAddress& right);

// The cost model of selection (docs/cm5.md): the diagnostic clock runs at about 1 MHz (L777); an address
// costs one cycle a digit, since it is piped digit-serially and each node decodes a digit a cycle
// (L737-739), plus a constant for inserting the token at the root and marking the address's end; an
// explicit erase is one broadcast cycle. Pipeline latency down the tree overlaps the next address.
constexpr int kAddressOverheadCycles = 2;
constexpr int kEraseCycles = 1;
constexpr double kDiagnosticClockHz = 1e6;
// Diagnostic clock cycles to erase, then issue `addresses`.
std::int64_t selection_cycles(const std::vector<DiagnosticAddress>& addresses);

// Addresses that, issued in order after erase(), select exactly the present pods with wanted[p] (absent
// pods are "don't care"). Built bottom-up: a subtree wholly wanted takes one address of B's; two halves
// with the same pattern share their addresses through a B digit; two different halves are selected one
// after the other and merged with an address ending in B, as in the union above. Empty when nothing
// present is wanted. REQUIRES wanted.size() == 2^height.
std::vector<DiagnosticAddress> selection_sequence(const DiagnosticTree& tree,
                                                  const std::vector<bool>& wanted);

}  // namespace mppnet::machines::cm5
