// app/booksim_keys_test.cpp: which BookSim keys the importer accepts, notes or refuses, and why.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/booksim_import.hpp"
#include "exp/experiment_config.hpp"

namespace mppnet::app {
namespace {

// A mesh study that imports; each test adds the keys it is about.
const std::string kMesh = "topology = mesh; k = 4; n = 2; routing_function = dor;\n";

BooksimImport import(const std::string& extra) {
  return import_booksim(kMesh + extra, "b.cfg");
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `r` imported and its header contains `text` (a note, a comment).
void expect_in_header(const BooksimImport& r, const std::string& text) {
  EXPECT_TRUE(has(r.toml, text)) << r.toml;
}

// The config `r` translates to; `r` must import.
exp::ExperimentConfig loaded(const BooksimImport& r) {
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
  return r.errors.empty() ? exp::load_experiment_text(r.toml, "b.toml", {}) : exp::ExperimentConfig{};
}

// The one error of `r`, which must refuse and name "b.cfg:LINE: KEY:".
std::string refusal(const BooksimImport& r) {
  EXPECT_TRUE(r.toml.empty());
  EXPECT_EQ(r.errors.size(), 1u);
  return r.errors.empty() ? "" : r.errors.front();
}

TEST(BooksimKeys, ReadWriteVcRangesAndBatchKeysAreNotedAsIgnoredWhenBooksimDoesNotReadThem) {
  const BooksimImport r =
      import("read_request_begin_vc = 0;\nread_reply_end_vc = 12;\nmax_outstanding_requests = 4;\n");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  expect_in_header(r,
                   "# Note: read_request_begin_vc (line 2): ignored, as BookSim ignores it here: it is "
                   "read only with use_read_write = 1.\n");
  expect_in_header(r, "# Note: read_reply_end_vc (line 3): ignored");
  expect_in_header(r,
                   "# Note: max_outstanding_requests (line 4): ignored, as BookSim ignores it here: it "
                   "is read only with sim_type = batch.\n");
}

TEST(BooksimKeys, ConcentrationKeysOnAFatTreeAreNotedAsIgnored) {
  const BooksimImport r = import_booksim(
      "topology = fattree; k = 4; n = 3; routing_function = nca;\nxr = 2;\nyr = 2;\n", "b.cfg");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  expect_in_header(r,
                   "# Note: xr (line 2): ignored, as BookSim ignores it here: only cmesh and flatfly "
                   "read it, not fattree.\n");
  expect_in_header(r, "# Note: yr (line 3): ignored");
}

TEST(BooksimKeys, KeysAtBooksimsDefaultThatMppnetLacksAreAccepted) {
  const BooksimImport r = import("vc_shuffle_requests = 0;\nvc_priority_donation = 0;\n");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  expect_in_header(
      r, "# At BookSim's default, nothing to translate: vc_priority_donation vc_shuffle_requests\n");
  // The same key away from its default has no equivalent: refused with its line and both values.
  EXPECT_EQ(refusal(import("vc_shuffle_requests = 1;\n")),
            "b.cfg:2: vc_shuffle_requests: no equivalent in mppnet for vc_shuffle_requests = 1 (BookSim's "
            "default is 0)");
}

TEST(BooksimKeys, PermSeedBesideRandpermIsAcceptedWithANote) {
  const BooksimImport r = import("traffic = randperm;\nperm_seed = 0;\n");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  expect_in_header(r, "# Note: perm_seed (line 3): BookSim draws its permutation from perm_seed");
  EXPECT_EQ(exp::to_json(exp::load_experiment_text(r.toml, "b.toml", {}))["traffic"]["pattern"],
            "random_permutation");
  // Without randperm BookSim never reads it.
  EXPECT_TRUE(has(import("perm_seed = 7;\n").toml, "perm_seed (line 2): ignored"))
      << import("perm_seed = 7;\n").toml;
}

TEST(BooksimKeys, ThroughputSimulationsMapToThroughputOrFixedRuns) {
  // A flit per node and cycle: BookSim's sources never idle, which is mppnet's throughput mode.
  const BooksimImport full = import("sim_type = throughput;\ninjection_rate = 1.0;\n");
  EXPECT_EQ(loaded(full).run.mode, exp::RunMode::Throughput);
  // Below it, open loop at the rate for BookSim's longest run: 10 samples of 1,000 cycles.
  const BooksimImport part = import("sim_type = throughput;\ninjection_rate = 0.3;\n");
  ASSERT_TRUE(part.errors.empty()) << part.errors.front();
  const exp::ExperimentConfig c = exp::load_experiment_text(part.toml, "b.toml", {});
  EXPECT_EQ(c.run.mode, exp::RunMode::Fixed);
  EXPECT_EQ(c.run.cycles, 10 * 1000);
  EXPECT_DOUBLE_EQ(c.traffic.rate, 0.3);
  expect_in_header(part, "# Note: sim_type (line 2): throughput below a flit");
  EXPECT_TRUE(has(refusal(import("sim_type = batch;\n")), "b.cfg:2: sim_type:"));
}

TEST(BooksimKeys, AKeyGivenTwiceTakesItsLastValueWithANote) {
  const BooksimImport r = import("num_vcs = 2;\nnum_vcs = 4;\n");
  EXPECT_EQ(loaded(r).router.vcs, 4);
  expect_in_header(r,
                   "# Note: num_vcs is set on line 2 and again on line 3; BookSim keeps the last value, "
                   "4, and so does this translation.\n");
}

TEST(BooksimKeys, SpeculationIsNotedAndItsNonDefaultChecksAreRefused) {
  const BooksimImport r = import("speculative = 1;\n");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  expect_in_header(r, "# Note: spec_sw_allocator (BookSim's default prio): BookSim arbitrates speculative");
  EXPECT_TRUE(has(refusal(import("speculative = 1;\nspec_check_cred = 0;\n")), "b.cfg:3: spec_check_cred:"));
  // Without speculation BookSim never reads them.
  const BooksimImport off = import("spec_sw_allocator = islip;\n");
  ASSERT_TRUE(off.errors.empty()) << off.errors.front();
  expect_in_header(off,
                   "spec_sw_allocator (line 2): ignored, as BookSim ignores it here: it is read only "
                   "with speculative = 1");
}

TEST(BooksimKeys, TheLatencyLimitIsTranslatedWithANoteOnWhatItCounts) {
  const BooksimImport r = import("latency_thres = 300;\n");
  EXPECT_DOUBLE_EQ(loaded(r).run.saturation_latency, 300);
  expect_in_header(r,
                   "# Note: latency_thres (line 2): BookSim's limit also counts the age of packets "
                   "still in flight");
}

TEST(BooksimKeys, AKeyBooksimDoesNotDeclareIsRefusedAsBooksimRefusesIt) {
  EXPECT_EQ(refusal(import("limit = 64;\n")),
            "b.cfg:2: limit: BookSim has no such key (BookSim itself refuses this file)");
}

TEST(BooksimKeys, FeaturesThatNeedRouterChangesAreRefusedWithKeyLineAndReason) {
  EXPECT_TRUE(
      has(refusal(import("wait_for_tail_credit = 1;\n")),
          "b.cfg:2: wait_for_tail_credit: wait_for_tail_credit = 1: mppnet frees an output VC when the "
          "tail leaves"));
  EXPECT_TRUE(has(refusal(import("hold_switch_for_packet = 1;\n")), "b.cfg:2: hold_switch_for_packet:"));
  EXPECT_TRUE(has(refusal(import("input_speedup = 2;\n")), "b.cfg:2: input_speedup:"));
  EXPECT_TRUE(has(refusal(import("internal_speedup = 1.7;\n")),
                  "b.cfg:2: internal_speedup: mppnet's crossbar speedup is a whole number"));
  // A whole number written as BookSim's float default is no refusal.
  EXPECT_TRUE(import("internal_speedup = 1.0;\ninput_speedup = 1;\n").errors.empty());
}

TEST(BooksimKeys, IslipWithoutParenthesesRunsAllocItersIterations) {
  const BooksimImport r =
      import("sw_allocator = islip;\nvc_allocator = separable_input_first;\nalloc_iters = 2;\n");
  EXPECT_EQ(loaded(r).router.allocator_iterations, 2);
  // mppnet's VC allocators run one pass: a two-iteration iSLIP VC allocator is refused.
  EXPECT_TRUE(has(refusal(import("vc_allocator = islip;\nalloc_iters = 2;\n")),
                  "b.cfg:2: vc_allocator: islip runs 2"));
}

TEST(BooksimKeys, BooksimsWarmupAndStoppingRulesAreSelected) {
  const exp::ExperimentConfig c =
      exp::load_experiment_text(import("warmup_periods = 3;\n").toml, "b.toml", {});
  EXPECT_EQ(c.run.warmup_rule, exp::WarmupRule::Fixed);
  EXPECT_EQ(c.run.warmup_cycles, 3000);
  EXPECT_EQ(c.run.stop_rule, exp::StopRule::Converged);
  EXPECT_DOUBLE_EQ(c.run.converge_change, 0.05);
  EXPECT_EQ(c.run.min_batches, 3);
  EXPECT_EQ(c.run.max_batches, 10 - 3);  // max_samples counts the warm-up periods
  // 3 periods of 10,000 cycles pass the settle rule's default limit of 20,000, which the fixed rule
  // does not read.
  EXPECT_EQ(loaded(import("sample_period = 10000;\n")).run.warmup_cycles, 30000);
  // The settle rule's limit is not set from warmup_cycles, so it cannot flag a point BookSim runs.
  EXPECT_FALSE(has(import("warmup_periods = 3;\n").toml, "max_warmup_cycles"));
  const BooksimImport adaptive = import("warmup_periods = 0;\n");
  EXPECT_EQ(exp::load_experiment_text(adaptive.toml, "b.toml", {}).run.warmup_rule, exp::WarmupRule::Settle);
  expect_in_header(adaptive, "# Note: warmup_periods (line 2): 0: BookSim warms up until");
  EXPECT_TRUE(has(refusal(import("stopping_thres = 0.1;\n")), "b.cfg:2: stopping_thres:"));
}

}  // namespace
}  // namespace mppnet::app
