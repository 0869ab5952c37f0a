// machines/cm5/diagnostic_network.cpp: {0,1,B} addresses, token steering, and the address sequences
// that select a given set of pods.
#include "machines/cm5/diagnostic_network.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::cm5 {

namespace {

constexpr int kMaxHeight = 24;  // 16M leaves: far beyond any CM-5, small enough for flat arrays

char digit_char(Digit d) {
  return d == Digit::Zero ? '0' : d == Digit::One ? '1' : 'B';
}

}  // namespace

DiagnosticAddress DiagnosticAddress::parse(std::string_view text, int height) {
  const std::string key = fmt::format("diagnostic address \"{}\"", text);
  if (text.empty()) throw core::ConfigError({}, key, "an address has at least one digit");
  if (static_cast<int>(text.size()) > height)
    throw core::ConfigError({}, key,
                            fmt::format("{} digits, more than the tree's height {}", text.size(), height));
  std::vector<Digit> digits;
  digits.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '0') {
      digits.push_back(Digit::Zero);
    } else if (c == '1') {
      digits.push_back(Digit::One);
    } else if (c == 'B' || c == 'b') {
      digits.push_back(Digit::Both);
    } else {
      throw core::ConfigError(
          {}, key, fmt::format("digit {} is '{}': a digit is 0, 1 or B", i + 1, std::string(1, c)));
    }
  }
  return DiagnosticAddress(std::move(digits));
}

DiagnosticAddress DiagnosticAddress::pod(int p, int height) {
  MPPNET_ASSERT(p >= 0 && p < (1 << height), "pod outside the tree");
  std::vector<Digit> digits(static_cast<std::size_t>(height));
  for (int i = 0; i < height; ++i) digits[static_cast<std::size_t>(i)] = Digit((p >> (height - 1 - i)) & 1);
  return DiagnosticAddress(std::move(digits));
}

std::string DiagnosticAddress::str() const {
  std::string s;
  for (const Digit d : digits_) s += digit_char(d);
  return s;
}

bool DiagnosticAddress::matches(int p, int height) const {
  MPPNET_ASSERT(size() == height, "matches() takes a full-length address");
  for (int i = 0; i < height; ++i) {
    const Digit d = digits_[static_cast<std::size_t>(i)];
    if (d != Digit::Both && static_cast<int>(d) != ((p >> (height - 1 - i)) & 1)) return false;
  }
  return true;
}

DiagnosticAddress DiagnosticAddress::with(int i, Digit d) const {
  DiagnosticAddress a = *this;
  a.digits_[static_cast<std::size_t>(i)] = d;
  return a;
}

std::optional<DiagnosticAddress> intersect(const DiagnosticAddress& a, const DiagnosticAddress& b) {
  MPPNET_ASSERT(a.size() == b.size(), "intersect() takes addresses of one length");
  std::vector<Digit> digits(static_cast<std::size_t>(a.size()));
  for (int i = 0; i < a.size(); ++i) {
    if (a[i] == Digit::Both) {
      digits[static_cast<std::size_t>(i)] = b[i];
    } else if (b[i] == Digit::Both || b[i] == a[i]) {
      digits[static_cast<std::size_t>(i)] = a[i];
    } else {
      return std::nullopt;  // one says left, the other right
    }
  }
  return DiagnosticAddress(std::move(digits));
}

int diagnostic_height_for(int pods) {
  int h = 1;
  while ((1 << h) < pods) ++h;
  return h;
}

namespace {

std::vector<bool> first_pods(int height, int pods) {
  MPPNET_ASSERT(height >= 1 && height <= kMaxHeight && pods >= 1 && pods <= (1 << height),
                "a diagnostic tree of 1 .. 2^height pods");
  std::vector<bool> present(static_cast<std::size_t>(1) << height, false);
  for (int p = 0; p < pods; ++p) present[static_cast<std::size_t>(p)] = true;
  return present;
}

}  // namespace

DiagnosticTree::DiagnosticTree(int height, int pods) : DiagnosticTree(height, first_pods(height, pods)) {}

DiagnosticTree::DiagnosticTree(int height, std::vector<bool> present) : height_(height) {
  MPPNET_ASSERT(height >= 1 && height <= kMaxHeight, "diagnostic tree height out of range");
  MPPNET_ASSERT(present.size() == (static_cast<std::size_t>(1) << height), "one presence flag a leaf");
  const std::size_t nodes = static_cast<std::size_t>(2) << height;
  below_.assign(nodes, 0);
  for (int p = 0; p < leaves(); ++p)
    below_[static_cast<std::size_t>(leaf_node(p))] = present[static_cast<std::size_t>(p)] ? 1 : 0;
  for (std::size_t n = (static_cast<std::size_t>(1) << height) - 1; n >= 1; --n)
    below_[n] = below_[2 * n] + below_[2 * n + 1];
  en_left_.assign(nodes, 0);
  en_right_.assign(nodes, 0);
  token_.assign(nodes, 0);
}

int DiagnosticTree::count_matching(const DiagnosticAddress& a) const {
  int n = 0;
  for (int p = 0; p < leaves(); ++p)
    if (present(p) && a.matches(p, height_)) ++n;
  return n;
}

void DiagnosticTree::apply(const DiagnosticAddress& a) {
  MPPNET_ASSERT(a.size() <= height_, "an address longer than the tree");
  ++addresses_sent_;
  digits_sent_ += a.size();
  std::vector<int> frontier = {1}, next;
  for (const Digit d : a.digits()) {
    next.clear();
    for (const int n : frontier) {
      // Overwrite this node's enables only: nodes below keep theirs (A33).
      const auto un = static_cast<std::size_t>(n);
      en_left_[un] = d != Digit::One;
      en_right_[un] = d != Digit::Zero;
      if (en_left_[un] && exists(2 * n)) next.push_back(2 * n);
      if (en_right_[un] && exists(2 * n + 1)) next.push_back(2 * n + 1);
    }
    frontier.swap(next);
  }
  for (const int n : frontier) token_[static_cast<std::size_t>(n)] = 1;
}

void DiagnosticTree::erase() {
  ++erases_;
  std::fill(en_left_.begin(), en_left_.end(), 0);
  std::fill(en_right_.begin(), en_right_.end(), 0);
  std::fill(token_.begin(), token_.end(), 0);
}

void DiagnosticTree::collect(int node, int depth, std::vector<int>& out) const {
  const auto un = static_cast<std::size_t>(node);
  if (depth == height_) {
    if (token_[un]) out.push_back(node - (1 << height_));
    return;
  }
  if (en_left_[un] && exists(2 * node)) collect(2 * node, depth + 1, out);
  if (en_right_[un] && exists(2 * node + 1)) collect(2 * node + 1, depth + 1, out);
}

std::vector<int> DiagnosticTree::selected_pods() const {
  std::vector<int> out;
  collect(1, 0, out);
  return out;
}

std::vector<DiagnosticAddress> union_sequence(const DiagnosticAddress& left, const DiagnosticAddress& right) {
  MPPNET_ASSERT(left.size() >= 1 && left[0] == Digit::Zero, "the left set's address starts with 0");
  MPPNET_ASSERT(right.size() >= 1 && right[0] == Digit::One, "the right set's address starts with 1");
  return {left, right, DiagnosticAddress({Digit::Both})};
}

std::int64_t selection_cycles(const std::vector<DiagnosticAddress>& addresses) {
  std::int64_t cycles = kEraseCycles;
  for (const DiagnosticAddress& a : addresses) cycles += a.size() + kAddressOverheadCycles;
  return cycles;
}

namespace {

enum Mark : std::uint8_t { kOut = 0, kIn = 1, kAny = 2 };  // kAny: an absent pod

using Digits = std::vector<Digit>;

// The address suffixes (below the subtree whose leaves `pattern` marks) that select its kIn leaves.
std::vector<Digits> suffixes(const std::vector<std::uint8_t>& pattern, int levels) {
  bool any_in = false, any_out = false;
  for (const std::uint8_t m : pattern) {
    any_in |= m == kIn;
    any_out |= m == kOut;
  }
  if (!any_in) return {};
  if (!any_out) return {Digits(static_cast<std::size_t>(levels), Digit::Both)};
  // levels >= 1 here: a single leaf is either in or out.
  const std::size_t half = pattern.size() / 2;
  const std::vector<std::uint8_t> left(pattern.begin(), pattern.begin() + static_cast<std::ptrdiff_t>(half));
  const std::vector<std::uint8_t> right(pattern.begin() + static_cast<std::ptrdiff_t>(half), pattern.end());
  auto prefixed = [](Digit d, std::vector<Digits> rest) {
    for (Digits& s : rest) s.insert(s.begin(), d);
    return rest;
  };
  bool left_in = false, right_in = false, compatible = true;
  std::vector<std::uint8_t> merged(half);
  for (std::size_t i = 0; i < half; ++i) {
    left_in |= left[i] == kIn;
    right_in |= right[i] == kIn;
    if ((left[i] == kIn && right[i] == kOut) || (left[i] == kOut && right[i] == kIn)) compatible = false;
    merged[i] = left[i] == kAny ? right[i] : left[i];
  }
  if (!right_in) return prefixed(Digit::Zero, suffixes(left, levels - 1));
  if (!left_in) return prefixed(Digit::One, suffixes(right, levels - 1));
  // Both halves alike: one sequence steered into both through a B digit.
  if (compatible) return prefixed(Digit::Both, suffixes(merged, levels - 1));
  // Different halves: the left, then the right (which leaves the left intact but cut off), then "B" at
  // this node to enable both again (the paper's union, one level down).
  std::vector<Digits> out = prefixed(Digit::Zero, suffixes(left, levels - 1));
  for (Digits& s : prefixed(Digit::One, suffixes(right, levels - 1))) out.push_back(std::move(s));
  out.push_back({Digit::Both});
  return out;
}

}  // namespace

std::vector<DiagnosticAddress> selection_sequence(const DiagnosticTree& tree,
                                                  const std::vector<bool>& wanted) {
  MPPNET_ASSERT(wanted.size() == static_cast<std::size_t>(tree.leaves()), "one wanted flag a leaf");
  std::vector<std::uint8_t> pattern(wanted.size());
  for (int p = 0; p < tree.leaves(); ++p)
    pattern[static_cast<std::size_t>(p)] = !tree.present(p)                      ? kAny
                                           : wanted[static_cast<std::size_t>(p)] ? kIn
                                                                                 : kOut;
  std::vector<DiagnosticAddress> out;
  for (Digits& s : suffixes(pattern, tree.height())) out.emplace_back(std::move(s));
  return out;
}

}  // namespace mppnet::machines::cm5
