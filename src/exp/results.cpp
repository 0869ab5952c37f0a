// exp/results.cpp: tables, JSON, CSV and plots of open-loop results.
#include "exp/results.hpp"

#include <fmt/format.h>

#include "core/clock_domain.hpp"
#include "core/process_usage.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/plot.hpp"

namespace mppnet::exp {

nlohmann::json to_json(const OpenLoopResult& r) {
  // The journal's record (every field) as results.json shows it: latency also in nanoseconds, no
  // node-cycle count (a speed figure), and the accepted interval and per-source rates only in the
  // throughput and fixed modes, which measure them.
  nlohmann::json j = to_record(r);
  j.erase("node_cycles");
  j["latency_avg_ns"] =
      r.latency_avg * static_cast<double>(core::ClockDomain(r.cycle_ps).period_ps()) / 1000.0;
  if (r.mode == "latency")
    for (const char* key :
         {"mode", "accepted_ci95", "accepted_min_source", "accepted_max_source", "accepted_per_source"})
      j.erase(key);
  else
    j.erase("last_batch_latency_avg");  // batches of latency are the latency mode's
  return j;
}

nlohmann::json to_record(const OpenLoopResult& r) {
  return {
      {"mode", r.mode},
      {"offered", r.offered},
      {"saturated", r.saturated},
      {"saturation_reason", r.saturation_reason},
      {"accepted", r.accepted},
      {"accepted_ci95", r.accepted_ci95},
      {"accepted_min_source", r.accepted_min_source},
      {"accepted_max_source", r.accepted_max_source},
      {"accepted_per_source", r.accepted_per_source},
      {"latency_avg", r.latency_avg},
      {"latency_p50", r.latency_p50},
      {"latency_p99", r.latency_p99},
      {"latency_max", r.latency_max},
      {"latency_ci95", r.latency_ci95},
      {"last_batch_latency_avg", r.last_batch_latency_avg},
      {"network_latency_avg", r.network_latency_avg},
      {"hops_avg", r.hops_avg},
      {"channel_utilization", r.channel_utilization},
      {"packets_measured", r.packets_measured},
      {"batches", r.batches},
      {"warmup_cycles", r.warmup_cycles},
      {"measure_cycles", r.measure_cycles},
      {"drain_cycles", r.drain_cycles},
      {"flit_hops", r.flit_hops},
      {"simulated_cycles", r.simulated_cycles},
      {"node_cycles", r.node_cycles},
      {"cycle_ps", r.cycle_ps},
  };
}

OpenLoopResult result_from_record(const nlohmann::json& j) {
  OpenLoopResult r;
  j.at("mode").get_to(r.mode);
  j.at("offered").get_to(r.offered);
  j.at("saturated").get_to(r.saturated);
  j.at("saturation_reason").get_to(r.saturation_reason);
  j.at("accepted").get_to(r.accepted);
  j.at("accepted_ci95").get_to(r.accepted_ci95);
  j.at("accepted_min_source").get_to(r.accepted_min_source);
  j.at("accepted_max_source").get_to(r.accepted_max_source);
  j.at("accepted_per_source").get_to(r.accepted_per_source);
  j.at("latency_avg").get_to(r.latency_avg);
  j.at("latency_p50").get_to(r.latency_p50);
  j.at("latency_p99").get_to(r.latency_p99);
  j.at("latency_max").get_to(r.latency_max);
  j.at("latency_ci95").get_to(r.latency_ci95);
  // A journal an older version left has no such field: its point reads 0 (resumed sweeps only).
  r.last_batch_latency_avg = j.value("last_batch_latency_avg", 0.0);
  j.at("network_latency_avg").get_to(r.network_latency_avg);
  j.at("hops_avg").get_to(r.hops_avg);
  j.at("channel_utilization").get_to(r.channel_utilization);
  j.at("packets_measured").get_to(r.packets_measured);
  j.at("batches").get_to(r.batches);
  j.at("warmup_cycles").get_to(r.warmup_cycles);
  j.at("measure_cycles").get_to(r.measure_cycles);
  j.at("drain_cycles").get_to(r.drain_cycles);
  j.at("flit_hops").get_to(r.flit_hops);
  j.at("simulated_cycles").get_to(r.simulated_cycles);
  j.at("node_cycles").get_to(r.node_cycles);
  j.at("cycle_ps").get_to(r.cycle_ps);
  return r;
}

nlohmann::json cost_json(const std::vector<SweepPoint>& points) {
  nlohmann::json rows = nlohmann::json::array();
  double total = 0;
  for (const SweepPoint& p : points) {
    const OpenLoopResult& r = p.result;
    total += p.wall_seconds;
    rows.push_back({{"value", p.value},
                    {"wall_seconds", p.wall_seconds},
                    {"simulated_cycles", r.simulated_cycles},
                    {"flit_hops", r.flit_hops},
                    {"flit_hops_per_second",
                     p.wall_seconds > 0 ? static_cast<double>(r.flit_hops) / p.wall_seconds : 0.0}});
  }
  return {{"wall_seconds", total}, {"peak_memory_bytes", core::peak_memory_bytes()}, {"points", rows}};
}

std::string format_table(const std::string& key, const std::vector<SweepPoint>& points) {
  // Throughput and fixed runs measure accepted throughput with an interval of its own.
  const bool window = !points.empty() && points.front().result.mode != "latency";
  std::string out = fmt::format("{:>14} {:>9} {}{:>9} {:>9} {:>7} {:>7} {:>6} {:>6}\n", key, "accepted",
                                window ? fmt::format("{:>9} ", "±95%") : "", "latency", "±95%", "p50", "p99",
                                "hops", "util");
  std::string reasons;
  for (const SweepPoint& p : points) {
    const OpenLoopResult& r = p.result;
    if (r.packets_measured == 0 && !r.saturated) {
      // Zeros would read as an idle network's figures; there are none.
      out += fmt::format(
          "{:>14g} no packet was measured: the load is too light for the run's length (raise "
          "traffic.rate, or run.max_batches, or run.cycles in a fixed run)\n",
          p.value);
      continue;
    }
    out += fmt::format("{:>14g} {:>9.4f} {}{:>9.2f} {:>9.2f} {:>7} {:>7} {:>6.2f} {:>6.3f}{}\n", p.value,
                       r.accepted, window ? fmt::format("{:>9.4f} ", r.accepted_ci95) : "", r.latency_avg,
                       r.latency_ci95, r.latency_p50, r.latency_p99, r.hops_avg, r.channel_utilization,
                       r.saturated ? "  saturated" : "");
    // The reason may quote one batch's mean latency; the table's latency is the mean of every packet the
    // window delivered: say which is which, so that the two numbers do not read as a contradiction.
    if (r.saturated)
      reasons += fmt::format(
          "{} = {:g} saturated: {}; the table's latency {:.1f} is the mean of all {} packets delivered "
          "before "
          "the stop (a lower bound: the slowest never arrived), the last batch's mean {:.1f}\n",
          key, p.value, r.saturation_reason, r.latency_avg, r.packets_measured, r.last_batch_latency_avg);
  }
  if (!reasons.empty())
    out += "A saturated point's figures cover the packets delivered before it stopped (docs/running.md).\n" +
           reasons;
  return out;
}

std::optional<io::PlotOutcome> write_results(const std::filesystem::path& out, const ExperimentConfig& cfg,
                                             const std::string& key, const std::vector<SweepPoint>& points,
                                             const nlohmann::json& cost, bool plot) {
  nlohmann::json doc;
  doc["mppnet_version"] = MPPNET_VERSION;
  doc["config_file"] = cfg.source_file;
  doc["seed"] = cfg.run.seed;
  doc["config"] = to_json(cfg);
  doc["swept_key"] = key;
  nlohmann::json rows = nlohmann::json::array();
  for (const SweepPoint& p : points) {
    nlohmann::json row = to_json(p.result);
    row["value"] = p.value;
    rows.push_back(std::move(row));
  }
  doc["points"] = std::move(rows);
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "cost.json", cost.dump(2) + "\n");

  // latency_avg averages latency_packets packets; last_batch_latency_avg is the one batch a saturation
  // reason quotes (docs/running.md, "Results").
  io::CsvTable csv({key, "saturated", "offered", "accepted", "latency_avg", "latency_ci95", "latency_p50",
                    "latency_p99", "latency_max", "network_latency_avg", "hops_avg", "channel_utilization",
                    "accepted_ci95", "accepted_min_source", "accepted_max_source", "latency_packets",
                    "last_batch_latency_avg"});
  for (const SweepPoint& p : points) {
    const OpenLoopResult& r = p.result;
    csv.add_row({io::cell(p.value), io::cell(r.saturated ? 1 : 0), io::cell(r.offered), io::cell(r.accepted),
                 io::cell(r.latency_avg), io::cell(r.latency_ci95), io::cell(r.latency_p50),
                 io::cell(r.latency_p99), io::cell(r.latency_max), io::cell(r.network_latency_avg),
                 io::cell(r.hops_avg), io::cell(r.channel_utilization), io::cell(r.accepted_ci95),
                 io::cell(r.accepted_min_source), io::cell(r.accepted_max_source),
                 io::cell(r.packets_measured), io::cell(r.last_batch_latency_avg)});
  }
  io::write_file_atomically(out / "results.csv", csv.str());

  if (!plot) return std::nullopt;
  io::PlotSeries avg{"average latency", {}, {}}, p99{"p99 latency", {}, {}};
  for (const SweepPoint& p : points) {
    if (p.result.saturated) continue;
    avg.x.push_back(p.value);
    avg.y.push_back(p.result.latency_avg);
    p99.x.push_back(p.value);
    p99.y.push_back(static_cast<double>(p.result.latency_p99));
  }
  if (avg.x.size() < 2) return std::nullopt;
  // The title is the config file's name, whatever characters it holds: plot_lines passes it as data.
  if (key == "traffic.rate") return io::plot_latency_vs_load(out / "latency", cfg.source_file, {avg, p99});
  return io::plot_lines(out / "latency", cfg.source_file, key, "latency (cycles)", {avg, p99});
}

}  // namespace mppnet::exp
