// machines/cm5/diagnostic_validation_test.cpp: V27-V30 pass within their stated tolerances.
#include "machines/cm5/diagnostic_validation.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cm5 {
namespace {

TEST(DiagnosticValidation, EveryCasePasses) {
  const auto cases = diagnostic_validation_cases();
  ASSERT_EQ(cases.size(), 4u);
  for (const core::ValidationCase& c : cases) {
    const double measured = c.measure();
    EXPECT_TRUE(c.tolerance.accepts(c.expected, measured)) << c.id << ": " << measured;
    std::printf("%s = %g (expected %g, %s)\n", c.id.c_str(), measured, c.expected,
                c.tolerance.describe().c_str());
  }
  // The exact values derived in diagnostic_tests_test.cpp and diagnostic_geography_test.cpp.
  EXPECT_EQ(cases[2].measure(), 10);  // one test a digit, h = 10
  EXPECT_EQ(cases[3].measure(), 2);   // heights 4, 6, 6, 8, ...: 64 -> 128 adds 2 digits
}

}  // namespace
}  // namespace mppnet::machines::cm5
