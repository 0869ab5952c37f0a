// machines/cm1/run_command.cpp: `mppnet run` on a CM-1/CM-2 config: the routing run, its table and its
// result file.
#include "machines/cm1/run_command.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/json_csv.hpp"
#include "io/output_directory.hpp"
#include "machines/cm1/config.hpp"
#include "machines/cm1/run.hpp"

namespace mppnet::machines::cm1 {

int run_command(const registry::ConfigRequest& request) {
  const Cm1Config cfg = load_cm1(request.file, request.sets);
  const std::filesystem::path& out = request.out;
  const io::OutputDirectory output_directory(out);
  const RoutingResult r = run_routing(cfg);
  std::fputs(format_result(cfg, r).c_str(), stdout);
  const RoutingStats& s = r.stats;
  nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                     {"config_file", cfg.source_file},
                     {"config", to_json(cfg)},
                     {"petit_cycles", s.petit_cycles},
                     {"terminated", s.terminated},
                     {"splits", s.splits},
                     {"messages", s.messages},
                     {"delivered", s.delivered},
                     {"desperation_routed", s.desperation},
                     {"combined", s.combined},
                     {"message_bits", r.message_bits},
                     {"bit_times", r.bit_times},
                     {"wire_utilisation", r.wire_utilisation},
                     {"productive_fraction", r.productive_fraction},
                     {"lower_bound_petit_cycles", r.lower_bound},
                     {"mean_latency_petit_cycles", r.mean_latency_petit_cycles},
                     {"messages_per_bit_time", r.messages_per_bit_time},
                     {"clock_hz", r.clock_hz},
                     {"messages_per_second", r.messages_per_second},
                     {"invariant_checks", cfg.cm1.check_invariants},
                     {"invariant_violations", s.invariant_violations},
                     {"total_petit_cycles", r.total_petit_cycles},
                     {"total_bit_times", r.total_bit_times}};
  if (cfg.traffic.operation == Operation::Read)
    doc["read"] = {{"request_arrivals", r.read.arrivals},
                   {"reply_messages", r.read.reply_messages},
                   {"reply_rounds", r.read.reply_rounds},
                   {"reply_petit_cycles", r.read.reply_petit_cycles},
                   {"answered", r.read.answered}};
  const auto& f = r.fetch_add;
  if (cfg.traffic.operation == Operation::FetchAndAdd)
    doc["fetch_and_add"] = {{"requests", f.requests},
                            {"targets", f.targets},
                            {"sort_passes", f.sort_passes},
                            {"sort_petit_cycles", f.sort_petit_cycles},
                            {"send_petit_cycles", f.send_petit_cycles},
                            {"reply_petit_cycles", f.reply_petit_cycles},
                            {"return_petit_cycles", f.return_petit_cycles},
                            {"scans", f.scans},
                            {"scan_bit_times", f.scan_bit_times},
                            {"routing_instructions", f.routing_instructions},
                            {"terminated", f.terminated}};
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  // The same figures as one CSV row (the config is in the JSON).
  io::write_file_atomically(out / "results.csv", io::scalar_fields_csv(doc, {"config"}));
  std::printf("results: %s/results.json, results.csv\n", out.string().c_str());
  if (s.invariant_violations > 0)
    std::fprintf(stderr, "mppnet: %lld invariant violations (cm1.check_invariants)\n",
                 static_cast<long long>(s.invariant_violations));
  if (s.invariant_violations > 0) return core::kExitRunFailed;
  // A livelock is the router's own outcome, not a failed run: the timeout is the CM-1's (paper L155).
  if (!(s.terminated && r.read.terminated && f.terminated)) {
    std::fprintf(stderr,
                 "mppnet: livelock: the router's timeout expired with %lld of %lld messages delivered "
                 "(cm1.timeout_petit_cycles, cm1.max_splits; docs/cm1.md)\n",
                 static_cast<long long>(s.delivered), static_cast<long long>(s.messages));
    return core::kExitLivelock;
  }
  return core::kExitSuccess;
}

}  // namespace mppnet::machines::cm1
