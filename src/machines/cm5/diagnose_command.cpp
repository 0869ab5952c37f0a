// machines/cm5/diagnose_command.cpp: the options of `mppnet cm5-diagnose` and its exit status.
#include "machines/cm5/diagnose_command.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/json_csv.hpp"
#include "io/output_directory.hpp"
#include "machines/cm5/diagnose_run.hpp"

namespace mppnet::machines::cm5 {

namespace {

// The report's figures, and the options that produced them, as diagnose.json and (one row)
// diagnose.csv.
void write_report(const std::filesystem::path& out, const DiagnoseOptions& o, const DiagnoseReport& r,
                  bool passed) {
  const nlohmann::json doc{
      {"mppnet_version", MPPNET_VERSION},
      {"command", "cm5-diagnose"},
      {"options", {{"nodes", o.nodes}, {"stuck", o.stuck}, {"seed", o.seed}, {"messages", o.messages}}},
      {"injected_chip", r.injected},
      {"injected_bit", r.injected_bit},
      {"chips_found", r.chips_found},
      {"pods_found", r.pods_found},
      {"group_tests", r.group_tests},
      {"isolation_tests", r.isolation_tests},
      {"chain_tests", r.chain_tests},
      {"diagnostic_cycles", r.diagnostic_cycles},
      {"routed_around", r.routed_around},
      {"nodes_mapped_out", r.nodes_mapped_out},
      {"messages_sent", r.messages_sent},
      {"messages_delivered", r.messages_delivered},
      {"through_failed_chip", r.through_failed_chip},
      {"passed", passed}};
  io::write_file_atomically(out / "diagnose.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "diagnose.csv", io::scalar_fields_csv(doc, {}));
  std::printf("results: %s/diagnose.json, diagnose.csv\n", out.string().c_str());
}

}  // namespace

registry::Command diagnose_command_entry() {
  return {
      .name = "cm5-diagnose",
      .help = "CM-5 diagnostic network: find a stuck-at fault in a data-network chip, repair, check traffic",
      .model = "",
      .declare = [](CLI::App& command, const registry::Registry&) -> std::function<int()> {
        // Stable address: CLI11 binds each option to a field of these options.
        auto o = std::make_shared<DiagnoseOptions>();
        command.add_option("--nodes", o->nodes, "Processing nodes: a multiple of 32 from 32 to 16384")
            ->capture_default_str();
        command.add_option("--fault-chip", o->fault_chip,
                           "Data-network chip with the fault (default: drawn)");
        command.add_option("--fault-level", o->fault_level, "Level of the drawn faulty chip (0: any)")
            ->capture_default_str();
        command.add_option("--stuck", o->stuck, "Stuck-at value of the faulty scan cell, 0 or 1")
            ->capture_default_str();
        command.add_option("--fault-bit", o->fault_bit, "Faulty scan cell of the chip (default: drawn)");
        command.add_option("--seed", o->seed, "Seed of the fault, the test patterns and the traffic")
            ->capture_default_str();
        command
            .add_option("--messages", o->messages, "Random messages of the traffic check after the repair")
            ->capture_default_str();
        auto out = std::make_shared<std::string>("results/cm5-diagnose");
        command.add_option("--out", *out, "Directory for diagnose.json and diagnose.csv")
            ->capture_default_str();
        return [o, out] {
          const io::OutputDirectory output_directory(*out);  // checked and held before any work
          const DiagnoseReport r = run_diagnosis(*o);
          std::fputs(r.text.c_str(), stdout);
          const bool found = r.chips_found.size() == 1 && r.chips_found.front() == r.injected;
          const bool working = r.messages_delivered == r.messages_sent && r.through_failed_chip == 0;
          std::printf("%s\n", found && working ? "result: fault found and repaired; the machine works"
                                               : "result: FAILED (see above)");
          write_report(*out, *o, r, found && working);
          return found && working ? core::kExitSuccess : core::kExitRunFailed;
        };
      },
  };
}

}  // namespace mppnet::machines::cm5
