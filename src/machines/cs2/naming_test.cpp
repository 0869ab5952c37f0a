// machines/cs2/naming_test.cpp: Meiko's names, levels and route strings.
#include "machines/cs2/naming.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cs2 {
namespace {

TEST(Cs2Naming, PeSeventeenOfSizeSixIsOneZeroOne) {
  // L320-L326: PE 17 = 1.0.1 in the size-6 network of Fig 2-4.
  const LayerShape s(64, Doubling::EightWayTop);
  EXPECT_EQ(pe_route_string(s, 0), "0.0.0");
  EXPECT_EQ(pe_route_string(s, 17), "1.0.1");
  EXPECT_EQ(pe_name(s, 17), "PE 17: level 6, network id 17, route 1.0.1");
}

TEST(Cs2Naming, AnEightWayTopDigitIsBaseEight) {
  const LayerShape s(128, Doubling::EightWayTop);
  EXPECT_EQ(pe_route_string(s, 127), "7.3.3");
  EXPECT_EQ(s.level(3), 0);
  EXPECT_EQ(s.level(2), 3);
  EXPECT_EQ(s.level(1), 5) << "size 7: stages at levels 0, 3, 5 (note §2.4.2)";
}

TEST(Cs2Naming, SwitchNamesGiveLevelIdentifierRouteAndPlane) {
  const LayerShape s(64, Doubling::EightWayTop);
  EXPECT_EQ(switch_name(s, 1, {2, 1, 3}), "layer 1 stage 2 (level 2) network id 1 (route 1) plane 3");
  EXPECT_EQ(switch_name(s, 0, {1, 6, 0}), "layer 0 stage 1 (level 4) network id 6 (route 1.2) plane 0");
  EXPECT_EQ(switch_name(s, 0, {3, 0, 15}), "layer 0 stage 3 (level 0) network id 0 (route -) plane 15");
}

TEST(Cs2Naming, CountsOnTheGraphFollowTheDocumentsFormulas) {
  // L329-L333 for size 6: level 0 has 1 route x 16 planes, level 2 4 x 4, level 4 16 x 1.
  const LayerShape s(64, Doubling::EightWayTop);
  const auto rows = level_counts(s, build_layer(s));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].level, 0);
  EXPECT_EQ(rows[0].identifiers, 1);
  EXPECT_EQ(rows[0].planes, 16);
  EXPECT_EQ(rows[1].identifiers, 4);
  EXPECT_EQ(rows[1].planes, 4);
  EXPECT_EQ(rows[2].identifiers, 16);
  EXPECT_EQ(rows[2].planes, 1);
  for (const auto& r : rows) EXPECT_EQ(r.switches, 16);
  EXPECT_EQ(naming_formula_violations(s, build_layer(s)), 0);
  // An incomplete network breaks the complete network's formulas, and the count says so.
  const LayerShape part(40, Doubling::EightWayTop);
  EXPECT_GT(naming_formula_violations(part, build_layer(part)), 0);
}

}  // namespace
}  // namespace mppnet::machines::cs2
