// machines/cm1/validation_test.cpp: every fast validation case passes; ids are unique and cite a source.
#include "machines/cm1/validation.hpp"

#include <set>

#include <gtest/gtest.h>

namespace mppnet::machines::cm1 {
namespace {

TEST(Cm1Validation, CasesHaveUniqueIdsAndSources) {
  std::set<std::string> ids;
  for (const auto& c : cm1_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind("cm1.e", 0), 0u) << c.id;
    EXPECT_FALSE(c.source.empty()) << c.id;
    EXPECT_FALSE(c.setup.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.measure)) << c.id;
  }
  EXPECT_GE(ids.size(), 25u);
}

TEST(Cm1Validation, FastCasesPass) {
  for (const auto& c : cm1_validation_cases()) {
    if (c.slow) continue;
    const double measured = c.measure();
    EXPECT_TRUE(c.tolerance.accepts(c.expected, measured))
        << c.id << ": expected " << c.expected << " (" << c.tolerance.describe() << "), measured "
        << measured;
  }
}

}  // namespace
}  // namespace mppnet::machines::cm1
