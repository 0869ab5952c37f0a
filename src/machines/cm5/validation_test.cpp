// machines/cm5/validation_test.cpp: every CM-5 case passes, or fails as its documented difference says.
#include "machines/cm5/validation.hpp"

#include <gtest/gtest.h>

#include <set>

namespace mppnet::machines::cm5 {
namespace {

TEST(Cm5Validation, CasesHaveUniqueIdsAndSources) {
  std::set<std::string> ids;
  for (const auto& c : cm5_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind("cm5.v", 0), 0u) << c.id;
    EXPECT_NE(c.source.find(" L"), std::string::npos) << c.id << ": cites a line";
    EXPECT_FALSE(c.setup.empty()) << c.id;
  }
}

TEST(Cm5Validation, CasesPassUnlessTheyAreDocumentedDifferences) {
  for (const auto& c : cm5_validation_cases()) {
    if (c.slow) continue;
    const double measured = c.measure();
    EXPECT_EQ(c.tolerance.accepts(c.expected, measured), c.discrepancy.empty())
        << c.id << ": expected " << c.expected << " (" << c.tolerance.describe() << "), measured "
        << measured;
  }
}

}  // namespace
}  // namespace mppnet::machines::cm5
