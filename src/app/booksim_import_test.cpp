// app/booksim_import_test.cpp: BookSim configuration files translated into mppnet configs.
#include "app/booksim_import.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exp/experiment_config.hpp"
#include "exp/open_loop.hpp"

namespace mppnet::app {
namespace {

exp::ExperimentConfig translate(const std::string& text) {
  const BooksimImport r = import_booksim(text, "b.cfg");
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
  return exp::load_experiment_text(r.toml, "b.toml", {});
}

const char* kThreeStageMesh = R"(// a three-stage speculative router
topology = mesh; k = 8; n = 2;
routing_function = dor;
num_vcs = 4; vc_buf_size = 8;
routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1; speculative = 1;
vc_allocator = separable_input_first; sw_allocator = separable_input_first;
traffic = uniform; packet_size = 4; injection_rate = 0.05;
print_csv_results = 1;
)";

TEST(BooksimImport, ATypicalMeshStudyTranslatesKeyByKey) {
  const exp::ExperimentConfig c = translate(kThreeStageMesh);
  EXPECT_EQ(c.router.vcs, 4);
  EXPECT_EQ(c.router.buffer_flits, 8);
  EXPECT_EQ(c.router.routing_delay, 0);
  EXPECT_EQ(c.router.vc_alloc_delay, 1);
  EXPECT_EQ(c.router.sw_alloc_delay, 1);
  EXPECT_EQ(c.router.st_delay, 1);  // BookSim's default st_final_delay
  EXPECT_EQ(c.router.pipeline_cycles, 2);
  EXPECT_TRUE(c.router.speculative);
  EXPECT_EQ(c.router.credit_delay, 1);  // the channel, then BookSim's credit_delay 0
  EXPECT_EQ(c.router.vc_allocator, net::VcAllocatorKind::InputFirst);
  EXPECT_DOUBLE_EQ(c.traffic.rate, 0.2);  // 0.05 packets of 4 flits per node and cycle
  EXPECT_TRUE(c.traffic.self);            // BookSim's uniform may pick the source
  EXPECT_EQ(c.run.batch_cycles, 1000);
  EXPECT_EQ(c.run.warmup_cycles, 3000);  // BookSim's 3 warm-up periods of 1,000 cycles
  EXPECT_EQ(c.run.seed, 0);
}

TEST(BooksimImport, ZeroLoadLatencyIsBooksimsMinusOneCycle) {
  // BookSim's zero-load packet latency, derived from its source (docs/router.md): Li + Le + 1 + H P +
  // (H - 1) L + S - 1 with P = routing + max(VC, switch) + crossbar = 0 + 1 + 1 = 2 for this router,
  // L = Li = Le = 1, H = 15 routers from corner to corner of the 8x8 mesh, S = 4: 3 + 30 + 14 + 3 = 50.
  // mppnet's for the translated config is one cycle less.
  const exp::ExperimentConfig c = translate(kThreeStageMesh);
  EXPECT_EQ(exp::ProbeNetwork(c).send(0, 63, 4).latency, 50 - 1);
}

TEST(BooksimImport, AConcentratedMeshWithOneCycleLinksImportsWithBooksimsZeroLoadLatencyLessOne) {
  // BookSim's cmesh example (4 x 4 routers of 4 nodes, dor_no_express) with use_noc_latency = 0 (every
  // link 1 cycle) and the three-stage router above. Node 0 is on router 0 and node 63 on router 15 (the
  // corners), so the packet passes H = 3 + 3 + 1 = 7 routers: BookSim's Li + Le + 1 + H P + (H - 1) L +
  // S - 1 = 3 + 14 + 6 + 3 = 26, and mppnet's one cycle less. Nodes 0 and 9 share router 0 (H = 1): 3 +
  // 2 + 0 + 3 = 8, less one.
  const exp::ExperimentConfig c = translate(
      "topology = cmesh; k = 4; n = 2; c = 4; xr = 2; yr = 2; x = 4; y = 4;\n"
      "routing_function = dor_no_express; use_noc_latency = 0;\n"
      "num_vcs = 4; routing_delay = 0; speculative = 1; vc_allocator = separable_input_first;\n"
      "sw_allocator = separable_input_first; packet_size = 4; injection_rate = 0.05;\n");
  EXPECT_EQ(c.topology.kind, "cmesh");
  exp::ProbeNetwork probe(c);
  EXPECT_EQ(probe.send(0, 63, 4).latency, 26 - 1);
  EXPECT_EQ(probe.send(0, 9, 4).latency, 8 - 1);
  EXPECT_EQ(probe.send(0, 63, 4).hops, 7);
}

TEST(BooksimImport, BooksimsDefaultsFillTheKeysTheFileDoesNotSet) {
  const exp::ExperimentConfig c = translate("use_noc_latency = 0; routing_function = dim_order;");
  EXPECT_EQ(c.topology.kind, "torus");  // BookSim's default topology, an 8-ary 2-cube
  EXPECT_EQ(c.router.vcs, 16);
  EXPECT_EQ(c.router.routing_delay, 1);
  EXPECT_EQ(c.router.vc_alloc_delay, 1);
  EXPECT_FALSE(c.router.speculative);
  EXPECT_EQ(c.router.allocator, net::AllocatorKind::OutputFirst);  // iSLIP: request, grant, accept
  EXPECT_EQ(c.traffic.packet_flits, 1);
  EXPECT_DOUBLE_EQ(c.traffic.rate, 0.1);
}

TEST(BooksimImport, FatTreeRoutingChoosesTheUpRouting) {
  const exp::ExperimentConfig nca = translate("topology = fattree; k = 4; n = 3; routing_function = nca;");
  const exp::ExperimentConfig anca = translate("topology = fattree; k = 4; n = 3; routing_function = anca;");
  EXPECT_EQ(exp::to_json(nca)["topology"]["up_routing"], "random");
  EXPECT_EQ(exp::to_json(anca)["topology"]["up_routing"], "adaptive");
  EXPECT_EQ(exp::to_json(nca)["topology"]["children"], 4);
}

TEST(BooksimImport, EveryKeyWithoutAMeaningIsNamedWithItsLineAndNothingIsWritten) {
  const BooksimImport r = import_booksim(
      "topology = mesh;\nrouting_function = romm;\ntraffic = tornado;\nsw_allocator = pim;\nfoo = 3;\n"
      "print_activity = 1;\n",
      "b.cfg");
  EXPECT_TRUE(r.toml.empty());
  ASSERT_EQ(r.errors.size(), 4u);
  auto has = [&](const std::string& text) {
    for (const auto& e : r.errors)
      if (e.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("b.cfg:2: routing_function:"));
  EXPECT_TRUE(has("b.cfg:3: traffic:"));
  EXPECT_TRUE(has("b.cfg:4: sw_allocator:"));
  EXPECT_TRUE(has("b.cfg:5: foo: BookSim has no such key"));
}

TEST(BooksimImport, PacketSizesMustBePositiveWholeNumbersAndTheDelaysBooksimRefusesAreRefused) {
  auto names = [](const std::string& text, const std::string& where) {
    const BooksimImport r = import_booksim(text, "b.cfg");
    for (const auto& e : r.errors)
      if (e.find(where) != std::string::npos) return r.toml.empty();
    return false;
  };
  EXPECT_TRUE(names("packet_size = {4,8};\npacket_size_rate = {};\n", "b.cfg:2: packet_size_rate:"));
  EXPECT_TRUE(names("packet_size = {4,x};\n", "b.cfg:1: packet_size:"));
  EXPECT_TRUE(names("vc_alloc_delay = 0;\n", "b.cfg:1: vc_alloc_delay:"));
  // Weights: 8-flit packets three times as often as 4-flit ones, 0.1 packets per node and cycle.
  const exp::ExperimentConfig mixed = translate(
      "use_noc_latency = 0; routing_function = dim_order; packet_size = {4,8}; packet_size_rate = {1,3};");
  EXPECT_EQ(mixed.traffic.packet_sizes, (std::vector<int>{4, 8}));
  EXPECT_DOUBLE_EQ(mixed.traffic.rate, 0.1 * (4 * 1 + 8 * 3) / 4.0);
}

TEST(BooksimImport, AnAllocatorWhoseParenthesesDoNotBalanceIsRefused) {
  for (const char* spec : {"islip(3", "islip(3))", "islip(3x)", "islip((3)", "islip()x"}) {
    const BooksimImport r = import_booksim(
        fmt::format("sw_allocator = {};\nuse_noc_latency = 0; routing_function = dim_order;\n", spec),
        "b.cfg");
    EXPECT_TRUE(r.toml.empty()) << spec;
    ASSERT_EQ(r.errors.size(), 1u) << spec;
    EXPECT_NE(r.errors[0].find("b.cfg:1: sw_allocator:"), std::string::npos) << r.errors[0];
  }
  EXPECT_EQ(translate("sw_allocator = islip(3); use_noc_latency = 0; routing_function = dim_order;")
                .router.allocator_iterations,
            3);
}

TEST(BooksimImport, AFileNameWithANewlineCannotAddALineToTheConfig) {
  const BooksimImport r =
      import_booksim("use_noc_latency = 0; routing_function = dim_order;\n", "evil\n[run]\nseed = 99\n.cfg");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_NE(r.toml.find("evil\\x0a[run]\\x0aseed = 99\\x0a.cfg"), std::string::npos) << r.toml;
  EXPECT_NE(exp::load_experiment_text(r.toml, "b.toml", {}).run.seed, 99);
}

TEST(BooksimImport, ALongStatementIsRead) {
  // 4 MB in one statement: a scan that re-reads the statement at each character (as one once did) makes
  // 10^13 steps and never ends within the test's time-out; a linear one reads it at once.
  const std::string text =
      "use_noc_latency = 0; routing_function = dim_order;\nk = " + std::string(4 << 20, ' ') + "4;\n";
  const BooksimImport r = import_booksim(text, "b.cfg");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_NE(r.toml.find("\nk = 4\n"), std::string::npos) << r.toml;
}

TEST(BooksimImport, SyntaxErrorsAreReportedWithTheirLine) {
  const BooksimImport r = import_booksim("k = 8;\nn 2;\n", "b.cfg");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("b.cfg:2:"), std::string::npos) << r.errors[0];
}

// Found by fuzz/booksim_fuzz.cpp: values the translation passes on unchanged but mppnet refuses were
// written into a config that then failed to load.
TEST(BooksimImport, AValueMppnetRefusesIsAnErrorOnItsBooksimKey) {
  const BooksimImport zero =
      import_booksim("topology = mesh; k = 8; n = 2; routing_function = dor;\nnum_vcs = 0;\n", "b.cfg");
  ASSERT_EQ(zero.errors.size(), 1u);
  EXPECT_TRUE(zero.toml.empty());
  EXPECT_EQ(zero.errors[0],
            "b.cfg:2: num_vcs: becomes router.vcs in mppnet, which must be between 1 and 64 (got 0)");
  const BooksimImport wide =
      import_booksim("topology = mesh; k = 4000; n = 3; routing_function = dor;\n", "b.cfg");
  ASSERT_EQ(wide.errors.size(), 1u);
  EXPECT_NE(wide.errors[0].find("b.cfg:1: k: becomes topology.k"), std::string::npos) << wide.errors[0];
}

TEST(BooksimImport, AKeyThatIsNoIdentifierIsAnError) {
  const BooksimImport r = import_booksim("k = 8;\nprint_\xa1\x8c results = 1;\n", "b.cfg");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("b.cfg:2: \"print_"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("is not a BookSim key name"), std::string::npos) << r.errors[0];
}

// Found by fuzz/booksim_fuzz.cpp: warmup_periods x sample_period overflowed (undefined behaviour).
TEST(BooksimImport, RunLengthsThatOverflowAreRefused) {
  const BooksimImport r = import_booksim(
      "topology = mesh; k = 8; n = 2; routing_function = dor;\nwarmup_periods = 1000000000000000;\n"
      "sample_period = 100000;\n",
      "b.cfg");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("b.cfg:2: warmup_periods"), std::string::npos) << r.errors[0];
}

}  // namespace
}  // namespace mppnet::app
