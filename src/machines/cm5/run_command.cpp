// machines/cm5/run_command.cpp: `mppnet run` on a CM-5 config: the bandwidth-by-locality table, its
// result files and its plot.
#include "machines/cm5/run_command.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/output_directory.hpp"
#include "io/plot.hpp"
#include "machines/cm5/config.hpp"
#include "machines/cm5/locality.hpp"
#include "machines/cm5/open_loop.hpp"

namespace mppnet::machines::cm5 {

namespace {

constexpr double kCycleNs = 25.0;  // 40 MHz

std::string table(const Cm5Config& cfg, const std::vector<LocalityRow>& rows) {
  std::string s = fmt::format(
      "{} data network, {} nodes, {}-word messages on both sides, every node always sending\n"
      "{:<10} {:>12} {:>12} {:>14} {:>12}  {}\n",
      cfg.machine.name, cfg.machine.nodes, cfg.run.words, "traffic", "paper raw", "sim raw", "sim payload",
      "latency us", "paper source");
  for (const LocalityRow& r : rows) {
    s += fmt::format("{:<10} {:>12.1f} {:>12.2f} {:>14.2f} {:>12.2f}  {}\n", r.traffic, r.paper_raw_mb_s,
                     r.raw_per_node(), r.payload_per_node(), r.result.latency_avg_cycles * kCycleNs / 1000,
                     r.paper_source);
  }
  s += "MB/s per node, sent and received; raw counts every 4-bit link cycle of a message (route, length, "
       "tag,\n"
       "data, CRC), payload its data words; latency from the head leaving the node to the tail's arrival;\n"
       "each node sends to one partner (a shift in its group, or a random permutation), always backlogged;\n"
       "no processor software in these figures.\n";
  return s;
}

// One pattern open loop (traffic.pattern other than locality): a line on stdout and results.json.
int run_pattern(const Cm5Config& cfg, const StreamRun& run, const std::filesystem::path& out) {
  DataNetworkParams params = network_params(cfg);
  DataNetwork network(params);
  if (const ChipId failed = failed_chip(cfg); failed != kNoChip) network.route_around(failed);
  const auto pattern_name = to_json(cfg)["traffic"]["pattern"].get<std::string>();
  const OpenLoopResult r = run_open_loop(network, open_loop_pattern(cfg.traffic.pattern, cfg.machine.nodes),
                                         cfg.traffic.load, run, static_cast<std::uint64_t>(cfg.run.seed));
  const double latency_us = r.latency_avg_cycles * kCycleNs / 1000;
  const double network_latency_us = r.network_latency_avg_cycles * kCycleNs / 1000;
  std::printf(
      "%s data network, %d nodes, %s at load %.3f, %d-word messages, open loop\n"
      "offered %.2f MB/s raw per node, accepted %.2f raw (%.2f payload); latency %.3f us from creation "
      "(%.3f in the network)%s\n",
      cfg.machine.name.c_str(), cfg.machine.nodes, pattern_name.c_str(), cfg.traffic.load, cfg.run.words,
      r.offered_raw_mb_per_s, r.accepted_raw_mb_per_s, r.accepted_payload_mb_per_s, latency_us,
      network_latency_us, r.saturated ? "; SATURATED: the network did not keep up with the offer" : "");
  const nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                           {"config_file", cfg.source_file},
                           {"config", to_json(cfg)},
                           {"cycle_ns", kCycleNs},
                           {"pattern", pattern_name},
                           {"load", cfg.traffic.load},
                           {"offered_raw_mb_per_s", r.offered_raw_mb_per_s},
                           {"accepted_raw_mb_per_s", r.accepted_raw_mb_per_s},
                           {"accepted_payload_mb_per_s", r.accepted_payload_mb_per_s},
                           {"latency_avg_us", latency_us},
                           {"network_latency_avg_us", network_latency_us},
                           {"created", r.created},
                           {"delivered", r.delivered},
                           {"saturated", r.saturated}};
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  std::printf("results: %s/results.json\n", out.string().c_str());
  return core::kExitSuccess;
}

}  // namespace

int run_command(const registry::ConfigRequest& request) {
  // [am] and [app] are for `mppnet app` on the same file.
  const Cm5Config cfg = load_cm5(request.file, request.sets, {"am", "app"});
  const std::filesystem::path& out = request.out;
  const io::OutputDirectory output_directory(out);
  const StreamRun run{.words = cfg.run.words,
                      .warmup_cycles = cfg.run.warmup_cycles,
                      .measure_cycles = cfg.run.measure_cycles,
                      .both_sides = true};
  if (cfg.traffic.pattern != TrafficPattern::Locality) return run_pattern(cfg, run, out);
  // A failed chip is routed around; mapped-out nodes concern node programs (`mppnet app`) only.
  const std::vector<LocalityRow> rows = run_locality(network_params(cfg), run, 0, failed_chip(cfg));
  std::fputs(table(cfg, rows).c_str(), stdout);

  nlohmann::json list = nlohmann::json::array();
  io::CsvTable csv({"traffic", "group_nodes", "paper_raw_mb_s", "raw_mb_s", "payload_mb_s", "latency_us",
                    "messages", "senders"});
  io::PlotSeries paper{"paper (raw)", {}, {}};
  io::PlotSeries raw{"simulated raw", {}, {}};
  io::PlotSeries payload{"simulated payload", {}, {}};
  for (const LocalityRow& r : rows) {
    const double latency_us = r.result.latency_avg_cycles * kCycleNs / 1000;
    list.push_back({{"traffic", r.traffic},
                    {"group_nodes", r.group},
                    {"shift", r.shift},
                    {"paper_raw_mb_s", r.paper_raw_mb_s},
                    {"paper_source", r.paper_source},
                    {"raw_mb_s", r.raw_per_node()},
                    {"payload_mb_s", r.payload_per_node()},
                    {"latency_us", latency_us},
                    {"messages", r.result.messages},
                    {"senders", r.result.senders}});
    csv.add_row({io::cell(r.traffic), io::cell(r.group), io::cell(r.paper_raw_mb_s),
                 io::cell(r.raw_per_node()), io::cell(r.payload_per_node()), io::cell(latency_us),
                 io::cell(r.result.messages), io::cell(r.result.senders)});
    for (io::PlotSeries* s : {&paper, &raw, &payload}) s->x.push_back(r.group);
    paper.y.push_back(r.paper_raw_mb_s);
    raw.y.push_back(r.raw_per_node());
    payload.y.push_back(r.payload_per_node());
  }
  const nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                           {"config_file", cfg.source_file},
                           {"config", to_json(cfg)},
                           {"cycle_ns", kCycleNs},
                           {"locality", list}};
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "bandwidth.csv", csv.str());
  const io::PlotOutcome plotted =
      io::plot_lines(out / "bandwidth", fmt::format("{}: {} nodes", cfg.machine.name, cfg.machine.nodes),
                     "destinations within a group of (nodes)", "MB/s per node", {paper, raw, payload},
                     {.log_x = true, .key = "top right"});
  std::printf("results: %s/results.json, bandwidth.csv, %s\n", out.string().c_str(),
              plotted == io::PlotOutcome::Drawn ? "bandwidth.svg, bandwidth.png"
                                                : "bandwidth.gp (gnuplot not found: not drawn)");
  return core::kExitSuccess;
}

}  // namespace mppnet::machines::cm5
