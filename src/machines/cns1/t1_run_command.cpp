// machines/cns1/t1_run_command.cpp: the T1 machine's run, its table and its result files.
#include "machines/cns1/t1_run_command.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/json_csv.hpp"
#include "io/output_directory.hpp"

namespace mppnet::machines::cns1 {

namespace {

const char* machine_end_name(MachineEnd e) {
  switch (e) {
    case MachineEnd::AllExited:
      return "all_exited";
    case MachineEnd::NodeFailed:
      return "node_failed";
    case MachineEnd::TimeLimit:
      return "time_limit";
  }
  return "?";
}

nlohmann::json node_record(const T1Node& n) {
  const auto& ev = n.ni().events_taken();
  nlohmann::json j{{"node", n.id()},
                   {"end", end_name(n.end())},
                   {"exit_status", n.exit_status()},
                   {"cycles", n.cpu().cycles()},
                   {"instructions", n.cpu().instructions()},
                   {"sends", n.ni().sends()},
                   {"failed_sends", n.ni().failed_sends()},
                   {"hp_message_events", ev[static_cast<int>(Event::HighMessage)]},
                   {"lp_message_events", ev[static_cast<int>(Event::LowMessage)]},
                   {"timelet_events", ev[static_cast<int>(Event::Timelet)]},
                   {"outlet_events", ev[static_cast<int>(Event::Outlet)]},
                   {"hazard_violations", n.ni().hazard_violations().size()},
                   {"output", n.output()}};
  if (!n.message().empty()) j["message"] = n.message();
  return j;
}

std::string nodes_csv(const T1Machine& m) {
  io::CsvTable t({"node", "end", "exit_status", "cycles", "instructions", "sends", "failed_sends",
                  "hp_message_events", "lp_message_events", "timelet_events", "outlet_events"});
  for (int v = 0; v < m.nodes(); ++v) {
    const T1Node& n = m.node(v);
    const auto& ev = n.ni().events_taken();
    auto count = [](std::uint64_t x) { return io::cell(static_cast<std::int64_t>(x)); };
    t.add_row({io::cell(v), io::cell(std::string(end_name(n.end()))), io::cell(n.exit_status()),
               count(n.cpu().cycles()), count(n.cpu().instructions()), count(n.ni().sends()),
               count(n.ni().failed_sends()), count(ev[0]), count(ev[1]), count(ev[2]), count(ev[3])});
  }
  return t.str();
}

}  // namespace

nlohmann::json run_record(const T1Machine& m, const MachineResult& r) {
  const T1Config& c = m.config();
  std::uint64_t instructions = 0, max_cycles = 0;
  int failed_programs = 0;
  nlohmann::json nodes = nlohmann::json::array();
  for (int v = 0; v < m.nodes(); ++v) {
    const T1Node& n = m.node(v);
    instructions += n.cpu().instructions();
    max_cycles = std::max(max_cycles, n.cpu().cycles());
    failed_programs += n.end() != NodeEnd::Exited || n.exit_status() != 0;
    nodes.push_back(node_record(n));
  }
  return {{"mppnet_version", MPPNET_VERSION},
          {"config_file", c.source_file},
          {"config", to_json(c)},
          {"program", c.machine.program},
          {"nodes", m.nodes()},
          {"mesh_side", mesh_side(c)},
          {"end", machine_end_name(r.end)},
          {"programs_not_exiting_0", failed_programs},
          {"time_ns", static_cast<double>(r.time_ps) / 1000.0},
          {"max_cycles", max_cycles},
          {"instructions", instructions},
          {"network_cycles", r.network_cycles},
          {"messages_sent", m.mesh().messages_sent()},
          {"message_copies_delivered", m.mesh().copies_delivered()},
          {"flits_sent", m.mesh().flits_sent()},
          {"per_node", std::move(nodes)}};
}

int t1_run_command(const registry::ConfigRequest& request) {
  const T1Config cfg = load_t1(request.file, request.sets);
  const io::OutputDirectory output_directory(request.out);
  T1Machine machine(cfg);
  machine.load_program();
  const MachineResult r = machine.run();
  const nlohmann::json doc = run_record(machine, r);

  std::printf("%s: %d nodes (%d x %d mesh, columns rings), program %s\n", cfg.machine.name.c_str(),
              machine.nodes(), mesh_side(cfg), mesh_side(cfg), cfg.machine.program.c_str());
  std::printf("%6s %-11s %6s %14s %14s %10s %10s\n", "node", "end", "status", "cycles", "instructions",
              "sends", "events");
  for (int v = 0; v < machine.nodes(); ++v) {
    const T1Node& n = machine.node(v);
    const auto& ev = n.ni().events_taken();
    std::printf("%6d %-11s %6d %14llu %14llu %10llu %10llu\n", v, end_name(n.end()), n.exit_status(),
                static_cast<unsigned long long>(n.cpu().cycles()),
                static_cast<unsigned long long>(n.cpu().instructions()),
                static_cast<unsigned long long>(n.ni().sends()),
                static_cast<unsigned long long>(ev[0] + ev[1] + ev[2] + ev[3]));
  }
  // What each program wrote, every line under its node's number.
  for (int v = 0; v < machine.nodes(); ++v) {
    const std::string& out = machine.node(v).output();
    for (std::size_t at = 0; at < out.size();) {
      const std::size_t end = std::min(out.find('\n', at), out.size());
      std::printf("node %d: %.*s\n", v, static_cast<int>(end - at), out.data() + at);
      at = end + 1;
    }
  }
  io::write_file_atomically(request.out / "results.json", doc.dump(2) + "\n");
  io::write_file_atomically(request.out / "results.csv", io::scalar_fields_csv(doc, {"config"}));
  io::write_file_atomically(request.out / "nodes.csv", nodes_csv(machine));
  std::printf("results: %s/results.json, results.csv, nodes.csv\n", request.out.string().c_str());

  for (int v = 0; v < machine.nodes(); ++v) {
    const T1Node& n = machine.node(v);
    if (n.end() == NodeEnd::Fault || n.end() == NodeEnd::Unsupported) {
      std::fprintf(stderr, "mppnet: node %d: %s\n", v, n.message().c_str());
      return core::kExitRunFailed;
    }
  }
  if (r.end == MachineEnd::TimeLimit) {
    std::fprintf(stderr,
                 "mppnet: the programs had not all exited after run.max_cycles = %lld processor cycles\n",
                 static_cast<long long>(cfg.run.max_cycles));
    return core::kExitRunFailed;
  }
  for (int v = 0; v < machine.nodes(); ++v)
    if (machine.node(v).exit_status() != 0) {
      std::fprintf(stderr, "mppnet: node %d's program exited with status %d\n", v,
                   machine.node(v).exit_status());
      return core::kExitRunFailed;
    }
  return core::kExitSuccess;
}

}  // namespace mppnet::machines::cns1
