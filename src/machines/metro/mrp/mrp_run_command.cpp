// machines/metro/mrp/mrp_run_command.cpp: `mppnet run` on a METRO config: the run, its table and files.
#include "machines/metro/mrp/mrp_run_command.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/json_csv.hpp"
#include "io/output_directory.hpp"
#include "machines/metro/metro_config.hpp"

namespace mppnet::machines::metro::mrp {

nlohmann::json result_json(const MetroConfig& cfg, const MrpRunResult& r) {
  const EndpointStats& s = r.stats;
  return nlohmann::json{
      {"mppnet_version", MPPNET_VERSION},
      {"config_file", cfg.source_file},
      {"config", to_json(cfg)},
      {"nodes", r.nodes},
      {"cycles", r.cycles},
      {"completed", r.completed},
      {"period_ps", cfg.mrp.period_ps},
      {"messages_created", s.created},
      {"messages_delivered", s.delivered},
      {"messages_failed", s.failed},
      {"messages_accepted", s.accepted},
      {"duplicate_arrivals", s.duplicates},
      {"attempts", s.attempts},
      {"attempts_blocked", s.blocked},
      {"attempts_back_dropped", s.blocked_fast},
      {"attempts_corrupted", s.corrupted},
      {"attempts_protocol", s.protocol},
      {"router_checksum_mismatches", s.checksum_mismatches},
      {"mean_latency_cycles", r.mean_latency_cycles},
      {"mean_latency_ns", r.mean_latency_cycles * static_cast<double>(cfg.mrp.period_ps) / 1000.0},
      {"min_latency_cycles", r.latency_min},
      {"max_latency_cycles", s.latency_max},
      {"retries_per_message", r.retries_per_message},
      {"io_bandwidth_utilisation", r.io_utilisation},
      {"delivered_words_per_cycle_per_node", r.delivered_bytes_per_cycle_per_node},
      {"phases_completed", static_cast<int>(r.phase_end.size())},
      {"phase_end_cycles", r.phase_end},
      {"faulty_packages", cfg.mrp.faulty_packages},
      {"faulty_package_ids", r.faulty},
      {"fault_draws", r.fault_draws},
      {"network_complete", r.network_complete},
      {"masked_ports", r.masked_ports}};
}

int run_command(const registry::ConfigRequest& request) {
  const MetroConfig cfg = load_metro(request.file, request.sets);
  check_mrp_run(cfg);
  const std::filesystem::path& out = request.out;
  const io::OutputDirectory output_directory(out);
  const MrpRunResult r = run_mrp(cfg.metro.multibutterfly, cfg.mrp, static_cast<std::uint64_t>(cfg.run.seed));
  std::fputs(format_mrp_result(cfg.mrp, r).c_str(), stdout);
  const nlohmann::json doc = result_json(cfg, r);
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "results.csv", io::scalar_fields_csv(doc, {"config"}));
  std::printf("results: %s/results.json, results.csv\n", out.string().c_str());
  if (!r.network_complete) {
    // Fig 3.27 measures complete networks only: a fault set that cuts some pair is reported, not run.
    std::fprintf(stderr,
                 "mppnet: no complete network with %d faulty packages in faults.max_draws (%d) draws; "
                 "nothing was run\n",
                 cfg.mrp.faulty_packages, cfg.mrp.fault_draws);
    return core::kExitRunFailed;
  }
  if (!r.completed) {
    std::fprintf(stderr, "mppnet: metro.mrp.max_cycles (%lld) reached with %lld of %lld messages delivered\n",
                 static_cast<long long>(cfg.mrp.max_cycles), static_cast<long long>(r.stats.delivered),
                 static_cast<long long>(r.stats.created));
    return core::kExitRunFailed;
  }
  if (r.stats.failed > 0) {
    std::fprintf(stderr, "mppnet: %lld messages failed after metro.mrp.max_attempts (%d) attempts\n",
                 static_cast<long long>(r.stats.failed), cfg.mrp.max_attempts);
    return core::kExitRunFailed;
  }
  return core::kExitSuccess;
}

}  // namespace mppnet::machines::metro::mrp
