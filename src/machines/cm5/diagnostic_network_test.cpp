// machines/cm5/diagnostic_network_test.cpp: {0,1,B} addresses, token steering with persistent enables,
// the paper's union, intersections, and selection sequences (paper L712-750, note 000 §5.17).
#include "machines/cm5/diagnostic_network.hpp"

#include <gtest/gtest.h>

#include "core/error_testing.hpp"
#include "core/rng.hpp"

namespace mppnet::machines::cm5 {
namespace {

std::vector<int> select(DiagnosticTree& tree, const std::vector<std::string>& addresses) {
  tree.erase();
  for (const std::string& a : addresses) tree.apply(DiagnosticAddress::parse(a, tree.height()));
  return tree.selected_pods();
}

TEST(DiagnosticAddress, PaperExampleSelectsPods4_5_12_13) {
  // V27, paper L732-733: 00B10B = {000100, 000101, 001100, 001101}.
  DiagnosticTree tree(6, 64);
  EXPECT_EQ(select(tree, {"00B10B"}), (std::vector<int>{4, 5, 12, 13}));
}

TEST(DiagnosticAddress, ParseErrorsNameTheAddressAndTheReason) {
  EXPECT_EQ(core::config_error_of([] { DiagnosticAddress::parse("00B10B1", 6); }),
            "diagnostic address \"00B10B1\": 7 digits, more than the tree's height 6");
  EXPECT_EQ(core::config_error_of([] { DiagnosticAddress::parse("00X10B", 6); }),
            "diagnostic address \"00X10B\": digit 3 is 'X': a digit is 0, 1 or B");
  EXPECT_EQ(core::config_error_of([] { DiagnosticAddress::parse("", 6); }),
            "diagnostic address \"\": an address has at least one digit");
  EXPECT_EQ(DiagnosticAddress::parse("0b1", 3).str(), "0B1");
}

TEST(DiagnosticAddress, ShortAddressesSelectInternalNodesAndNoPod) {
  DiagnosticTree tree(3, 8);
  EXPECT_TRUE(select(tree, {"0B"}).empty());
}

TEST(DiagnosticAddress, ANewAddressOverwritesOnlyTheNodesItVisits) {
  DiagnosticTree tree(6, 64);
  // 000100 then 000101: node 00010 now enables only its right child, so pod 4 (still holding its
  // token) is cut off and pod 5 alone is selected.
  EXPECT_EQ(select(tree, {"000100", "000101"}), (std::vector<int>{5}));
  // 00B10B then 000000: the root, 0, 00 and 000 now enable left only; 4, 5, 12 and 13 are cut off.
  EXPECT_EQ(select(tree, {"00B10B", "000000"}), (std::vector<int>{0}));
}

TEST(DiagnosticAddress, UnionOfALeftAndARightSetInThreeSteps) {
  // V28, paper L744-750. Left 00B10B = {4, 5, 12, 13}; right 1B0B11 = 1x0y11 = {35, 39, 51, 55}.
  DiagnosticTree tree(6, 64);
  EXPECT_EQ(select(tree, {"00B10B", "1B0B11"}), (std::vector<int>{35, 39, 51, 55}));  // left cut off
  const auto seq =
      union_sequence(DiagnosticAddress::parse("00B10B", 6), DiagnosticAddress::parse("1B0B11", 6));
  ASSERT_EQ(seq.size(), 3u);
  EXPECT_EQ(seq[2].str(), "B");
  tree.erase();
  for (const DiagnosticAddress& a : seq) tree.apply(a);
  EXPECT_EQ(tree.selected_pods(), (std::vector<int>{4, 5, 12, 13, 35, 39, 51, 55}));
}

TEST(DiagnosticAddress, IntersectionDigitByDigit) {
  const auto a = DiagnosticAddress::parse("0B1B", 4), b = DiagnosticAddress::parse("B01B", 4);
  ASSERT_TRUE(intersect(a, b).has_value());
  EXPECT_EQ(intersect(a, b)->str(), "001B");
  EXPECT_FALSE(intersect(DiagnosticAddress::parse("0BB", 3), DiagnosticAddress::parse("1BB", 3)).has_value());
  // Set semantics: the intersection selects exactly the pods both select.
  const auto x = DiagnosticAddress::parse("B0B1B", 5), y = DiagnosticAddress::parse("1BB1B", 5);
  const auto xy = intersect(x, y);
  ASSERT_TRUE(xy.has_value());
  for (int p = 0; p < 32; ++p) EXPECT_EQ(xy->matches(p, 5), x.matches(p, 5) && y.matches(p, 5)) << p;
}

TEST(DiagnosticTree, AnIncompleteTreeHasNoMissingLeaves) {
  DiagnosticTree tree(3, 5);  // pods 0..4; 5, 6, 7 absent
  EXPECT_EQ(select(tree, {"BBB"}), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(select(tree, {"1B1"}), (std::vector<int>{}));
  EXPECT_EQ(tree.count_matching(DiagnosticAddress::parse("1BB", 3)), 1);
}

TEST(DiagnosticTree, SelectionSequenceOfThePaperUnionIsThePapersThreeSteps) {
  // {0, 1, 5, 7} of 8: left half {0, 1} = 00B; right half {5, 7} = 1B1 (its two quarters alike); then B.
  DiagnosticTree tree(3, 8);
  std::vector<bool> wanted(8, false);
  for (const int p : {0, 1, 5, 7}) wanted[static_cast<std::size_t>(p)] = true;
  std::vector<std::string> got;
  for (const DiagnosticAddress& a : selection_sequence(tree, wanted)) got.push_back(a.str());
  EXPECT_EQ(got, (std::vector<std::string>{"00B", "1B1", "B"}));
  std::vector<bool> all(8, true);
  ASSERT_EQ(selection_sequence(tree, all).size(), 1u);
  EXPECT_EQ(selection_sequence(tree, all)[0].str(), "BBB");
}

TEST(DiagnosticTree, SelectionSequencesSelectExactlyTheWantedPods) {
  // Random sets on incomplete trees with holes: the sequence, applied after an erase, selects the wanted
  // present pods and nothing else, and never needs more addresses than two a wanted pod.
  core::RandomStream r(3, 0, core::Stream::Setup);
  for (int trial = 0; trial < 200; ++trial) {
    const int h = 1 + static_cast<int>(r.below(7));
    std::vector<bool> present(static_cast<std::size_t>(1) << h), wanted(present.size());
    std::vector<int> expect;
    bool any = false;
    for (std::size_t p = 0; p < present.size(); ++p) {
      present[p] = r.bernoulli(0.8);
      any |= present[p];
      wanted[p] = r.bernoulli(trial % 2 == 0 ? 0.3 : 0.7);
      if (present[p] && wanted[p]) expect.push_back(static_cast<int>(p));
    }
    if (!any) continue;
    DiagnosticTree tree(h, present);
    const auto seq = selection_sequence(tree, wanted);
    tree.erase();
    for (const DiagnosticAddress& a : seq) tree.apply(a);
    EXPECT_EQ(tree.selected_pods(), expect) << "trial " << trial;
    EXPECT_LE(seq.size(), 2 * expect.size()) << "trial " << trial;
  }
}

TEST(DiagnosticTree, SelectionCostIsADigitACyclePlusAConstant) {
  // Erase (1) + two addresses of 6 digits, each with 2 cycles of token insertion and end mark.
  EXPECT_EQ(selection_cycles({DiagnosticAddress::parse("00B10B", 6), DiagnosticAddress::parse("1BBBBB", 6)}),
            1 + 2 * (6 + 2));
}

}  // namespace
}  // namespace mppnet::machines::cm5
