// machines/cs2/names_command.cpp: the options, the printed names and the result files of
// `mppnet cs2-names` (names_command.hpp).
#include "machines/cs2/names_command.hpp"

#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>

#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/output_directory.hpp"
#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/naming.hpp"
#include "machines/cs2/routes.hpp"
#include "registry/config_command.hpp"

namespace mppnet::machines::cs2 {

namespace {

void check_pe(const Cs2Config& c, const char* option, std::int64_t pe) {
  if (pe >= 0 && pe < c.machine.pes) return;
  throw core::ConfigError(
      {}, option, fmt::format("PE {} does not exist: the machine has PEs 0 .. {}", pe, c.machine.pes - 1));
}

}  // namespace

NamesReport names_report(const Cs2Config& c, const std::vector<std::int64_t>& pes,
                         const std::vector<std::int64_t>& to) {
  for (const std::int64_t pe : pes) check_pe(c, "--pe", pe);
  for (const std::int64_t d : to) check_pe(c, "--to", d);
  const LayerShape shape = layer_shape(c);
  const topo::Graph g = build_layer(shape);
  NamesReport r;
  r.text = fmt::format("{}: {} PEs, size {}, {} stages, {} switches per layer, {} layer{}{}\n",
                       c.machine.name, shape.pes(), shape.size(), shape.stages(), shape.switches(),
                       c.machine.layers, c.machine.layers == 1 ? "" : "s",
                       shape.odd() ? fmt::format(" (odd size: {})", doubling_name(shape.doubling())) : "");
  r.json = {{"mppnet_version", MPPNET_VERSION},
            {"command", "cs2-names"},
            {"config_file", c.source_file},
            {"config", to_json(c)},
            {"size", shape.size()},
            {"stages", shape.stages()},
            {"switches_per_layer", shape.switches()}};
  nlohmann::json pe_list = nlohmann::json::array();
  for (const std::int64_t pe : pes) {
    const SwitchId s{1, shape.prefix(pe, 1), 0};
    const std::string sw = switch_name(shape, 0, s);
    r.text += fmt::format("{}\n  on {}, port {}\n", pe_name(shape, pe), sw, shape.digit(pe, 0));
    pe_list.push_back(
        {{"pe", pe}, {"name", pe_name(shape, pe)}, {"route", pe_route_string(shape, pe)}, {"switch", sw}});
  }
  r.json["pes"] = pe_list;
  nlohmann::json routes = nlohmann::json::array();
  for (const std::int64_t x : pes)
    for (const std::int64_t d : to) {
      const auto entry =
          table_entry(shape, x, d, c.routing.policy, c.routing.turn, c.routing.alternatives, c.run.seed);
      r.text += fmt::format("route {} -> {} (policy {}, turn {}; the same table on every layer):\n", x, d,
                            policy_name(c.routing.policy), turn_name(c.routing.turn));
      nlohmann::json alts = nlohmann::json::array();
      for (int a = 0; a < kAlternatives; ++a) {
        std::vector<std::string> passed;
        follow_route(g, static_cast<NodeId>(x), entry[a], [&](int channel) {
          passed.push_back(switch_name(shape, 0, shape.switch_of(channel / kElitePorts)));
        });
        const std::string bytes = topo::format_source_route(entry[a]);
        r.text += fmt::format("  alternative {}: {} ({} switches)\n", a, bytes, entry[a].length);
        if (a == 0)
          for (const std::string& s : passed) r.text += fmt::format("    via {}\n", s);
        std::string joined;
        for (const std::string& s : passed) joined += (joined.empty() ? "" : "; ") + s;
        alts.push_back({{"alternative", a}, {"bytes", bytes}, {"switches", passed}});
        r.csv_rows.push_back({std::to_string(x), std::to_string(d), std::to_string(a), bytes, joined});
      }
      routes.push_back({{"src", x}, {"dest", d}, {"alternatives", alts}});
    }
  r.json["routes"] = routes;
  return r;
}

registry::Command names_command_entry() {
  return {
      .name = "cs2-names",
      .help = "CS-2: Meiko's names of PEs and switches and the route bytes of a PE's table",
      .model = "cs2",
      .declare = [](CLI::App& command, const registry::Registry& all) -> std::function<int()> {
        struct State {
          registry::ConfigArguments args;
          std::vector<std::int64_t> pes = {0};
          std::vector<std::int64_t> to;
        };
        auto state = std::make_shared<State>();
        registry::add_config_arguments(command, state->args, "TOML CS-2 file (e.g. configs/cs2-64.toml)",
                                       "Directory for names.json and names.csv (default results/<config>)");
        command.add_option("--pe", state->pes, "PEs to name, and the sources of the routes (default 0)")
            ->capture_default_str();
        command.add_option("--to", state->to, "Destinations: print each --pe's route-table entry for them");
        return [state, &all] {
          const io::ConfigFile file = registry::open_config_of_model(state->args, "cs2", "cs2-names", all);
          const Cs2Config c = load_cs2(file, state->args.sets, {"am", "app"});
          const NamesReport report = names_report(c, state->pes, state->to);
          const std::filesystem::path out = registry::output_directory(state->args.config, state->args.out);
          const io::OutputDirectory output_directory(out);
          std::fputs(report.text.c_str(), stdout);
          io::write_file_atomically(out / "names.json", report.json.dump(2) + "\n");
          io::CsvTable csv({"src", "dest", "alternative", "bytes", "switches"});
          for (const auto& row : report.csv_rows) {
            std::vector<std::string> cells;
            for (const std::string& s : row) cells.push_back(io::cell(s));
            csv.add_row(cells);
          }
          io::write_file_atomically(out / "names.csv", csv.str());
          std::printf("results: %s/names.json, names.csv\n", out.string().c_str());
          return 0;
        };
      },
  };
}

}  // namespace mppnet::machines::cs2
