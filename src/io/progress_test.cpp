// io/progress_test.cpp: the bar stays silent when stderr is not a terminal (CI logs, pipes, ctest).
#include "io/progress.hpp"

#include <gtest/gtest.h>

namespace mppnet::io {
namespace {

TEST(ProgressBar, SilentWhenStderrIsNotATerminal) {
  ::testing::internal::CaptureStderr();  // stderr becomes a file, so isatty(2) is false from here on
  {
    ProgressBar bar;
    bar.update(0, 10, "start");
    bar.update(5, 10, "half");
    bar.update(10, 10, "done");
    bar.update(3, 0, "no total");
    bar.finish();
    bar.finish();  // twice is harmless
  }                // the destructor finishes too
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace mppnet::io
