// app/plot_command_test.cpp: `mppnet plot`'s pure parts: reading each results format, the legend from
// the keys that differ, the figure (bars, saturation, categories), the references, and bad input.
#include "app/plot_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "app/plot_references.hpp"
#include "core/error.hpp"

namespace mppnet::app {
namespace {

using nlohmann::json;

// A network sweep's results.json as exp/results.cpp writes it (fields cut to those plotted).
std::string sweep_json(const std::string& kind, double ci, bool last_saturated) {
  const auto point = [&](double rate, bool saturated, double latency, double p99) {
    return json{{"value", rate},
                {"offered", rate},
                {"saturated", saturated},
                {"latency_avg", latency},
                {"latency_ci95", saturated ? 0 : ci},
                {"latency_p99", p99}};
  };
  return json{
      {"config_file", "configs/" + kind + ".toml"},
      {"swept_key", "traffic.rate"},
      {"seed", 1},
      {"config", {{"topology", {{"kind", kind}, {"k", 8}}}, {"run", {{"seed", 1}}}}},
      {"points",
       {point(0.2, false, 20.5, 40), point(0.1, false, 18.0, 30), point(0.3, last_saturated, 243, 900)}}}
      .dump();
}

// A CM-1 run's results.json (machines/cm1/run_command.cpp), cut likewise.
std::string router_run_json(int vp, const std::string& pattern, double petit) {
  return json{
      {"config_file", "configs/cm1.toml"},
      {"config", {{"machine", {{"model", "cm1"}}}, {"traffic", {{"vp_ratio", vp}, {"pattern", pattern}}}}},
      {"petit_cycles", petit},
      {"terminated", true}}
      .dump();
}

// A METRO yield.json (machines/metro/study_commands.cpp) of a Table 3.4 network.
std::string yield_json(const std::string& wiring, double mean) {
  return json{{"config_file", "configs/metro-64.toml"},
              {"config",
               {{"machine", {{"model", "metro"}}},
                {"metro",
                 {{"topology", "multibutterfly"},
                  {"radix", 4},
                  {"dilation", 2},
                  {"stages", 3},
                  {"wiring", wiring},
                  {"endpoints", "auto"},
                  {"final_pairing", "symmetric"}}},
                {"faults", {{"unit", "package"}}}}},
              {"fault_units", 48},
              {"expected_faults_tolerated", mean},
              {"std_error", 0.05},
              {"ci95_half_width", 0.098},
              {"p_complete", {1, 1, 0.9, 0.5, 0.1, 0}}}
      .dump();
}

TEST(PlotInputs, ReadsASweepWithItsKeyAsTheDefaultX) {
  const ResultFile f = parse_result_json(sweep_json("torus", 1.5, true), "results/torus/results.json");
  EXPECT_EQ(f.kind, "network");
  EXPECT_EQ(f.display, "results/torus");
  EXPECT_EQ(f.config_file, "configs/torus.toml");
  EXPECT_EQ(f.x_default, "traffic.rate");
  EXPECT_EQ(f.y_default, "latency_avg");
  ASSERT_EQ(f.rows.size(), 3u);
  EXPECT_EQ(f.rows[0].at("traffic.rate"), 0.2);
  EXPECT_EQ(f.rows[2].at("saturated"), 1.0);
  EXPECT_EQ(f.config.at("topology.kind"), "torus");
  EXPECT_EQ(f.config.at("topology.k"), "8");
}

TEST(PlotInputs, ReadsYieldHarvestAndCm1) {
  const ResultFile y = parse_result_json(yield_json("random", 4.6), "y/yield.json");
  EXPECT_EQ(y.kind, "yield");
  EXPECT_EQ(y.rows.size(), 6u);
  EXPECT_EQ(y.rows[3].at("faults"), 3);
  EXPECT_EQ(y.rows[3].at("p_complete"), 0.5);
  EXPECT_EQ(y.scalars.at("expected_faults_tolerated_ci95"), 0.098);

  const ResultFile h = parse_result_json(R"({"config": {}, "packages": 48, "points": [
      {"fault_fraction": 0.1, "faulty_packages": 5, "harvest": 0.9, "std_error": 0.01, "p_complete": 0.2}]})",
                                         "h/harvest.json");
  EXPECT_EQ(h.kind, "harvest");
  EXPECT_EQ(h.x_default, "fault_fraction");
  EXPECT_DOUBLE_EQ(h.rows[0].at("harvest_ci95"), 0.0196);  // 1.96 standard errors

  const ResultFile c = parse_result_json(router_run_json(4, "random_function", 40), "c/results.json");
  EXPECT_EQ(c.kind, "cm1");
  EXPECT_EQ(c.x_default, "");  // a run is one point: x comes from the keys that differ
  EXPECT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].at("petit_cycles"), 40);
}

TEST(PlotInputs, ReadsCsvByItsName) {
  const ResultFile f = parse_result_csv(
      "router.vcs,saturated,latency_avg,latency_ci95\n2,0,30,1\n4,1,20,\"2\"\n", "r/results.csv");
  EXPECT_EQ(f.kind, "network");
  EXPECT_EQ(f.x_default, "router.vcs");
  EXPECT_TRUE(f.config.empty());
  EXPECT_EQ(f.rows[1].at("latency_ci95"), 2);
  EXPECT_EQ(parse_result_csv("faults,p_complete\n0,1\n", "yield.csv").kind, "yield");
  EXPECT_THROW(parse_result_csv("a,b\n1\n", "x.csv"), core::ConfigError);
}

TEST(PlotInputs, RejectsWhatIsNotAResult) {
  EXPECT_THROW(parse_result_json("{\"cases\": []}", "validation.json"), core::ConfigError);
  EXPECT_THROW(parse_result_json("not json", "x.json"), core::ConfigError);
  try {
    read_result("/nonexistent/results.json");
    FAIL();
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/results.json: cannot read the result file: No such file or directory");
  }
}

TEST(PlotInputs, AMalformedResultIsRefusedByNameNeverDrawnAtZero) {
  const auto refusal = [](const std::string& text) {
    try {
      parse_result_json(text, "r.json");
    } catch (const core::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // A yield figure given as text: once a raw JSON exception.
  nlohmann::json yield = nlohmann::json::parse(yield_json("random", 4.6));
  yield["p_complete"][1] = "x";
  EXPECT_NE(refusal(yield.dump()).find("r.json: a malformed result file"), std::string::npos)
      << refusal(yield.dump());
  // A sweep point whose value is true: once drawn at x = 1 (and false at x = 0).
  nlohmann::json sweep = nlohmann::json::parse(sweep_json("mesh", 1, false));
  ASSERT_TRUE(sweep["points"].is_array() && !sweep["points"].empty()) << sweep.dump();
  sweep["points"][0]["value"] = true;
  EXPECT_NE(refusal(sweep.dump()).find("not a number or a word"), std::string::npos) << refusal(sweep.dump());
}

TEST(PlotInputs, ADirectoryMustHoldOneResult) {
  const auto dir = std::filesystem::temp_directory_path() / ("mppnet_plot_in_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "yield.json") << yield_json("random", 4.6);
  std::ofstream(dir / "yield.csv") << "faults,p_complete\n0,1\n";
  EXPECT_EQ(read_result(dir.string()).path, (dir / "yield.json").string());  // the JSON has the config
  std::ofstream(dir / "harvest.json") << "{}";
  EXPECT_THROW(read_result(dir.string()), core::ConfigError);
  std::filesystem::remove_all(dir);
}

TEST(PlotLegend, NamesTheKeysThatDiffer) {
  const std::vector<ResultFile> files = {parse_result_json(sweep_json("torus", 1, false), "t/results.json"),
                                         parse_result_json(sweep_json("mesh", 1, false), "m/results.json")};
  const std::vector<std::string> keys = differing_keys(files);
  EXPECT_EQ(keys, std::vector<std::string>{"topology.kind"});
  EXPECT_EQ(legend_label(files[1], keys), "topology.kind=mesh");
  EXPECT_EQ(legend_label(files[1], {}), "m");  // nothing differs: the directory names the run
  ResultFile third = files[0];
  third.config["router.vcs"] = "4";  // a key only one file sets differs too
  EXPECT_EQ(differing_keys({files[0], third}), std::vector<std::string>{"router.vcs"});
  EXPECT_EQ(legend_label(files[0], {"router.vcs"}), "router.vcs=(none)");
  third = files[0];
  third.config["sweep.to"] = "0.9";  // the range on x is not a condition of the run
  EXPECT_EQ(differing_keys({files[0], third}), std::vector<std::string>{});
}

TEST(PlotFigure, OverlaysRunsWithBarsAndSaturation) {
  const std::vector<ResultFile> files = {parse_result_json(sweep_json("torus", 1.5, true), "t/results.json"),
                                         parse_result_json(sweep_json("mesh", 2, false), "m/results.json")};
  const io::Figure fig = build_figure(files, {}, {});
  EXPECT_EQ(fig.title, "mean latency against offered load, by topology.kind");
  EXPECT_EQ(fig.x_label, "offered load (flits/node/cycle) [traffic.rate]");
  ASSERT_EQ(fig.series.size(), 2u);
  const io::FigureSeries& torus = fig.series[0];
  EXPECT_EQ(torus.label, "topology.kind=torus");
  EXPECT_EQ(torus.x, (std::vector<double>{0.1, 0.2, 0.3}));  // sorted by x
  EXPECT_EQ(torus.y_low, (std::vector<double>{16.5, 19.0, 243}));
  EXPECT_EQ(torus.y_high, (std::vector<double>{19.5, 22.0, 243}));
  EXPECT_EQ(torus.saturated, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(fig.series[1].saturated, (std::vector<bool>{false, false, false}));

  PlotRequest p99;
  p99.y = "latency_p99";  // no interval for it: no bars
  EXPECT_TRUE(build_figure(files, p99, {}).series[0].y_low.empty());
}

TEST(PlotFigure, SameConfigTwiceIsNamedByItsFiles) {
  const std::vector<ResultFile> files = {parse_result_json(sweep_json("torus", 1, false), "a/results.json"),
                                         parse_result_json(sweep_json("torus", 1, false), "b/results.json")};
  const io::Figure fig = build_figure(files, {}, {});
  EXPECT_EQ(fig.series[0].label, "a");
  EXPECT_EQ(fig.series[1].label, "b");
}

TEST(PlotFigure, SingleRunsJoinIntoOneCurve) {
  // `mppnet run` at three rates: one point each, one curve (the rate is x, so nothing else differs).
  std::vector<ResultFile> files;
  for (const double rate : {0.3, 0.1}) {
    ResultFile f = parse_result_json(sweep_json("torus", 1, false), "r");
    f.rows = {f.rows[0]};
    f.rows[0]["traffic.rate"] = rate;
    f.config["traffic.rate"] = std::to_string(rate);
    files.push_back(f);
  }
  const io::Figure fig = build_figure(files, {}, {});
  ASSERT_EQ(fig.series.size(), 1u);
  EXPECT_EQ(fig.series[0].label, "simulated (2 runs)");
  EXPECT_EQ(fig.series[0].x, (std::vector<double>{0.1, 0.3}));
}

TEST(PlotFigure, BadInputIsOneClearError) {
  const ResultFile sweep = parse_result_json(sweep_json("torus", 1, false), "t/results.json");
  const ResultFile yield = parse_result_json(yield_json("random", 4.6), "y/yield.json");
  const auto message = [](const std::vector<ResultFile>& files, const PlotRequest& r) {
    try {
      build_figure(files, r, {});
    } catch (const core::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(
      message({sweep, yield}, {}),
      "y/yield.json: a yield result cannot be overlaid on a network result (t/results.json): they measure "
      "different things; plot them separately");
  PlotRequest typo;
  typo.y = "latency_avgg";
  EXPECT_EQ(message({sweep}, typo)
                .rfind("--y latency_avgg: no column \"latency_avgg\" in t/results.json (did you "
                       "mean latency_avg?); it has: ",
                       0),
            0u);
  PlotRequest curve_per_run;
  curve_per_run.x = "metro.wiring";
  EXPECT_NE(message({yield}, curve_per_run).find("one per row"), std::string::npos);
}

std::vector<core::ValidationCase> fake_cases() {
  std::vector<core::ValidationCase> cases(3);
  cases[0].id = "cm1.e4.petit_cycles_v1";
  cases[0].expected = 12;
  cases[0].tolerance = core::Tolerance::absolute_band(1.67, 0.75);
  cases[1].id = "cm1.e4.approaches_bound_v32";
  cases[1].expected = 1.0;
  cases[2].id = "metro.r2.yield_64_random_ep_spread_fitted";
  cases[2].expected = 5.0;
  return cases;
}

TEST(PlotFigure, Cm1RunsArePointsAlongTheKeyThatDiffersWithFig12Overlaid) {
  std::vector<ResultFile> files;
  for (const int v : {4, 1, 2})
    files.push_back(parse_result_json(router_run_json(v, "random_function", 14.0 * v), "c"));
  const io::Figure fig = build_figure(files, {}, fake_cases());
  ASSERT_EQ(fig.series.size(), 3u);
  EXPECT_EQ(fig.series[0].x, (std::vector<double>{1, 2, 4}));
  EXPECT_EQ(fig.series[0].y, (std::vector<double>{14, 28, 56}));
  EXPECT_EQ(fig.series[1].style, io::FigureSeries::Style::ReferencePoints);
  EXPECT_EQ(fig.series[1].y_low, (std::vector<double>{12 - 1.67}));
  EXPECT_EQ(fig.series[2].style, io::FigureSeries::Style::ReferenceLine);
  EXPECT_EQ(fig.series[2].y, (std::vector<double>{8, 16, 32}));  // the bound 8v
  EXPECT_FALSE(fig.log_x);                                       // 1 to 4: a linear axis
  std::vector<ResultFile> to_8 = files;
  to_8.push_back(parse_result_json(router_run_json(8, "random_function", 100), "c"));
  EXPECT_TRUE(build_figure(to_8, {}, {}).log_x);  // 1 to 8 in doublings: base-2 log

  PlotRequest none;
  none.reference = "none";
  EXPECT_EQ(build_figure(files, none, fake_cases()).series.size(), 1u);
  PlotRequest unknown;
  unknown.reference = "cm1.fig13";
  EXPECT_THROW(build_figure(files, unknown, fake_cases()), core::ConfigError);
  PlotRequest unfit;
  unfit.reference = "metro.table3.4";
  EXPECT_THROW(build_figure(files, unfit, fake_cases()), core::ConfigError);

  // Two patterns: a curve each, named by the pattern; x is named because two keys differ.
  files.push_back(parse_result_json(router_run_json(1, "random_permutation", 13), "p"));
  PlotRequest by_vp;
  by_vp.x = "traffic.vp_ratio";
  const io::Figure two = build_figure(files, by_vp, {});
  ASSERT_EQ(two.series.size(), 2u);
  EXPECT_EQ(two.series[1].label, "traffic.pattern=random_permutation");
  EXPECT_EQ(build_figure(files, {}, {}).series.size(), 2u);  // the one numeric key that differs is x
  EXPECT_THROW(build_figure({files[1], files[3]}, {}, {}), core::ConfigError);  // no numeric key differs
}

TEST(PlotFigure, YieldsByWiringOnACategoricalAxisWithTable34) {
  const std::vector<ResultFile> files = {parse_result_json(yield_json("deterministic", 8.1), "d/yield.json"),
                                         parse_result_json(yield_json("random", 5.1), "r/yield.json")};
  PlotRequest r;
  r.x = "metro.wiring";
  r.y = "expected_faults_tolerated";
  const io::Figure fig = build_figure(files, r, fake_cases());
  EXPECT_EQ(fig.x_categories, (std::vector<std::string>{"deterministic", "random"}));
  ASSERT_EQ(fig.series.size(), 2u);
  EXPECT_EQ(fig.series[0].x, (std::vector<double>{0, 1}));
  EXPECT_DOUBLE_EQ(fig.series[0].y_high[1], 5.1 + 0.098);
  // Only the random network's row is among the cases given; "auto" endpoints are the fitted spread.
  EXPECT_EQ(fig.series[1].x, (std::vector<double>{1}));
  EXPECT_EQ(fig.series[1].y, (std::vector<double>{5.0}));
}

// A sweep.json of `mppnet sweep` over a key of words (app/model_sweep.cpp), cut to what is plotted.
std::string word_sweep_json(const std::string& runs_with, const std::vector<std::string>& words,
                            const std::vector<double>& means) {
  json points = json::array();
  for (std::size_t i = 0; i < words.size(); ++i)
    points.push_back(
        {{"value", words[i]}, {"expected_faults_tolerated", means[i]}, {"ci95_half_width", 0.5}});
  return json{{"command", "sweep"},
              {"config_file", "configs/metro-64.toml"},
              {"config", {{"machine", {{"model", "metro"}}}}},
              {"model", "metro"},
              {"runs_with", runs_with},
              {"swept_key", "metro.wiring"},
              {"points", points}}
      .dump();
}

TEST(PlotInputs, ASweepOverWordsNumbersThemAndNamesItsCommand) {
  const ResultFile f = parse_result_json(
      word_sweep_json("mppnet yield", {"deterministic", "random"}, {8.3, 5.1}), "s/sweep.json");
  EXPECT_EQ(f.kind, "yield-sweep");
  EXPECT_EQ(f.x_default, "metro.wiring");
  EXPECT_EQ(f.y_default, "expected_faults_tolerated");
  EXPECT_EQ(f.categories.at("metro.wiring"), (std::vector<std::string>{"deterministic", "random"}));
  ASSERT_EQ(f.rows.size(), 2u);
  EXPECT_EQ(f.rows[1].at("metro.wiring"), 1);
  EXPECT_EQ(f.rows[1].at("expected_faults_tolerated_ci95"), 0.5);  // the point's own interval
  EXPECT_EQ(parse_result_json(word_sweep_json("mppnet harvest", {"random"}, {1}), "h/sweep.json").kind,
            "harvest-sweep");
}

TEST(PlotFigure, SweepsOverWordsShareOneCategoricalAxis) {
  // Two sweeps that bring their words in different orders: each point lands on its word's tick.
  const std::vector<ResultFile> files = {
      parse_result_json(word_sweep_json("mppnet yield", {"deterministic", "random"}, {8.3, 5.1}),
                        "a/sweep.json"),
      parse_result_json(word_sweep_json("mppnet yield", {"maximal_fanout", "random"}, {6.0, 5.2}),
                        "b/sweep.json")};
  const io::Figure fig = build_figure(files, PlotRequest{}, {});
  EXPECT_EQ(fig.x_categories, (std::vector<std::string>{"deterministic", "random", "maximal_fanout"}));
  ASSERT_EQ(fig.series.size(), 2u);
  EXPECT_EQ(fig.series[1].x, (std::vector<double>{1, 2}));  // sorted by x: random (1), maximal_fanout (2)
  EXPECT_EQ(fig.series[1].y, (std::vector<double>{5.2, 6.0}));
  EXPECT_DOUBLE_EQ(fig.series[0].y_low[0], 8.3 - 0.5);
}

}  // namespace
}  // namespace mppnet::app
