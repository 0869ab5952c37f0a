// machines/metro/validation_test.cpp: every fast METRO validation case passes; ids are unique.
#include "machines/metro/validation.hpp"

#include <set>

#include <gtest/gtest.h>

namespace mppnet::machines::metro {
namespace {

TEST(MetroValidation, IdsAreUniqueAndEveryCaseCitesASource) {
  std::set<std::string> ids;
  for (const auto& c : metro_validation_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_FALSE(c.source.empty()) << c.id;
    EXPECT_TRUE(static_cast<bool>(c.measure)) << c.id;
  }
}

TEST(MetroValidation, FastCasesPass) {
  for (const auto& c : metro_validation_cases()) {
    if (c.slow) continue;
    const double m = c.measure();
    EXPECT_TRUE(c.tolerance.accepts(c.expected, m))
        << c.id << ": expected " << c.expected << " " << c.tolerance.describe() << ", measured " << m;
  }
}

}  // namespace
}  // namespace mppnet::machines::metro
