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

TEST(LongRunNote, ProjectsTheWholeFromTheRateSoFarOnceARateIsMeasured) {
  // 10 s for 1% of 4000 trials: 1000 s in all, under an hour: no note.
  EXPECT_EQ(long_run_note(10, 40, 4000, "yield trials"), "");
  // 10 s for 40 of 40,000 trials: 10,000 s = 2.8 hours.
  EXPECT_EQ(
      long_run_note(10, 40, 40000, "yield trials"),
      "mppnet: note: at the rate of the first 10 s, these 40000 yield trials take about 2.8 hours in all\n");
  EXPECT_EQ(long_run_note(1.5, 1, 1000000, "points"), "");  // too soon to measure a rate
  EXPECT_EQ(long_run_note(5, 0, 10, "points"), "");         // nothing done yet
  EXPECT_EQ(long_run_note(5000, 10, 10, "points"), "");     // finished: nothing to warn of
}

}  // namespace
}  // namespace mppnet::io
