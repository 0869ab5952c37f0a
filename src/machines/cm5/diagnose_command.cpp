// machines/cm5/diagnose_command.cpp: the options of `mppnet cm5-diagnose` and its exit status.
#include "machines/cm5/diagnose_command.hpp"

#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/exit_status.hpp"
#include "machines/cm5/diagnose_run.hpp"

namespace mppnet::machines::cm5 {

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
        return [o] {
          const DiagnoseReport r = run_diagnosis(*o);
          std::fputs(r.text.c_str(), stdout);
          const bool found = r.chips_found.size() == 1 && r.chips_found.front() == r.injected;
          const bool working = r.messages_delivered == r.messages_sent && r.through_failed_chip == 0;
          std::printf("%s\n", found && working ? "result: fault found and repaired; the machine works"
                                               : "result: FAILED (see above)");
          return found && working ? core::kExitSuccess : core::kExitRunFailed;
        };
      },
  };
}

}  // namespace mppnet::machines::cm5
