// app/validation_registry_test.cpp: every registered validation case says what kind of evidence it is
// and where its tolerance comes from, so that the summary `mppnet validate` prints cannot overstate.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "exp/validation.hpp"

namespace mppnet::app {
namespace {

TEST(ValidationRegistry, EveryCaseDeclaresItsKindSourceAndToleranceOrigin) {
  const auto& cases = exp::validation_cases();
  ASSERT_GT(cases.size(), 100u);
  std::set<std::string> ids;
  for (const auto& c : cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "two cases named " << c.id;
    EXPECT_NE(c.evidence, core::Evidence::Unclassified) << c.id;
    EXPECT_FALSE(c.source.empty()) << c.id;
    EXPECT_FALSE(c.tolerance_origin.empty()) << c.id << " does not say where its tolerance comes from";
    EXPECT_TRUE(c.measure) << c.id;
    // A band open on both sides accepts everything: such a case could not fail.
    EXPECT_FALSE(std::isinf(c.tolerance.below) && std::isinf(c.tolerance.above)) << c.id;
  }
}

}  // namespace
}  // namespace mppnet::app
