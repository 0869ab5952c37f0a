// machines/cns1/validation_test.cpp: every t1.* case measures what it claims: behaviours pass, the
// calibrated costs land on their values, and the measurements can fail (a moved value is judged FAIL).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "machines/cns1/validation.hpp"

namespace mppnet::machines::cns1::validation_test {
namespace {

using core::Verdict;

TEST(T1Validation, EveryCaseIsMeasuredAndJudgedAsDeclared) {
  const auto cases = t1_validation_cases();
  std::set<std::string> ids;
  for (const auto& c : cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind("t1.", 0), 0u) << c.id;
    ASSERT_TRUE(c.measure) << c.id;
    const double measured = c.measure();
    const core::Judgement j = core::judge(c, measured);
    const Verdict want = c.evidence == core::Evidence::Calibration ? Verdict::Calibrated : Verdict::Pass;
    EXPECT_EQ(j.verdict, want) << c.id << " measured " << measured << ": " << j.problem;
    // A value two units off (or 50% for a count of 1) must not pass.
    EXPECT_NE(core::judge(c, c.expected + 2).verdict, want) << c.id;
  }
  for (const char* id :
       {"t1.c1.enter_crit_cycles", "t1.c4.availability_poll_cycles", "t1.c6.dispatch_and_hret_cycles",
        "t1.c8.one_way_overhead_5_words", "t1.b22.row_multicast_copies",
        "t1.b23.two_multicasts_cover_the_ring", "t1.b28.get_put_nodes_correct"})
    EXPECT_EQ(ids.count(id), 1u) << id;
}

TEST(T1Validation, TheCostsProgramMeasuresTheDocumentsSequences) {
  // Each measured exactly, so that a change of the NI's costs shows: C1-C4 the instruction counts
  // (1, 2, 3, 4), C5 4 instructions and a setup (5), C6 dispatch 3 + HRET 2 (5), C7 3 + 4 + 2 (9), C8 4 + 5
  // (9) with or without the 32-word vector, C10 4 + 100 + 2 (106).
  const std::map<std::string, double> want = {{"t1.c1.enter_crit_cycles", 1},
                                              {"t1.c2.exit_crit_cycles", 2},
                                              {"t1.c3.ni_poll_cycles", 3},
                                              {"t1.c4.availability_poll_cycles", 4},
                                              {"t1.c5.send_and_check_cycles", 5},
                                              {"t1.c6.dispatch_and_hret_cycles", 5},
                                              {"t1.c7.short_handler_cycles", 9},
                                              {"t1.c8.one_way_overhead_5_words", 9},
                                              {"t1.c8.one_way_overhead_37_words", 9},
                                              {"t1.c8.overhead_growth_5_to_37_words", 0},
                                              {"t1.c10.kernel_trap_one_way_overhead_5_words", 106}};
  for (const auto& c : t1_validation_cases()) {
    const auto it = want.find(c.id);
    if (it != want.end()) {
      EXPECT_EQ(c.measure(), it->second) << c.id;
    }
  }
}

}  // namespace
}  // namespace mppnet::machines::cns1::validation_test
