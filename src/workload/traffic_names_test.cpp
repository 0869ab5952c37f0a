// workload/traffic_names_test.cpp: name <-> enum tables.
#include "workload/traffic_names.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mppnet::workload {
namespace {

TEST(TrafficNames, PatternNamesMatchTheConfigSpelling) {
  EXPECT_STREQ(name(PatternKind::Uniform), "uniform");
  EXPECT_STREQ(name(PatternKind::RandomPermutation), "random_permutation");
  EXPECT_STREQ(name(PatternKind::BitComplement), "bit_complement");
  EXPECT_STREQ(name(PatternKind::BitReverse), "bit_reverse");
  EXPECT_STREQ(name(PatternKind::Transpose), "transpose");
  EXPECT_STREQ(name(PatternKind::Shuffle), "shuffle");
  EXPECT_STREQ(name(PatternKind::Tornado), "tornado");
  EXPECT_STREQ(name(PatternKind::Neighbor), "neighbor");
  EXPECT_STREQ(name(PatternKind::HotSpot), "hot_spot");
  EXPECT_STREQ(name(InjectionKind::Bernoulli), "bernoulli");
  EXPECT_STREQ(name(InjectionKind::OnOff), "on_off");
}

TEST(TrafficNames, TablesAreInEnumOrderUniqueAndRoundTrip) {
  std::set<std::string> seen;
  ASSERT_EQ(pattern_names().size(), 9u);
  for (std::size_t i = 0; i < pattern_names().size(); ++i) {
    const auto k = static_cast<PatternKind>(i);
    EXPECT_STREQ(pattern_names()[i], name(k));
    EXPECT_EQ(pattern_from_name(name(k)), k);
    EXPECT_TRUE(seen.insert(name(k)).second) << name(k);
  }
  ASSERT_EQ(injection_names().size(), 2u);
  for (std::size_t i = 0; i < injection_names().size(); ++i) {
    const auto k = static_cast<InjectionKind>(i);
    EXPECT_STREQ(injection_names()[i], name(k));
    EXPECT_EQ(injection_from_name(name(k)), k);
  }
}

TEST(TrafficNames, CountsCoverEveryEnumerator) {
  // One past the last counted enumerator has no name; if an enumerator is added without updating
  // kPatternCount / kInjectionCount, it gets a name and this fails.
  EXPECT_STREQ(name(static_cast<PatternKind>(kPatternCount)), "?");
  EXPECT_STREQ(name(static_cast<InjectionKind>(kInjectionCount)), "?");
}

TEST(TrafficNames, UnknownNamesAreNotMapped) {
  EXPECT_EQ(pattern_from_name("bitreverse"), std::nullopt);
  EXPECT_EQ(pattern_from_name(""), std::nullopt);
  EXPECT_EQ(injection_from_name("onoff"), std::nullopt);
}

static_assert(pattern_from_name("tornado") == PatternKind::Tornado);

}  // namespace
}  // namespace mppnet::workload
