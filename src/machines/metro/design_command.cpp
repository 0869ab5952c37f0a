// machines/metro/design_command.cpp: `mppnet design CALCULATOR [--option value]...`, one subcommand per
// calculator of design_calculators.cpp.
#include "machines/metro/design_command.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/output_directory.hpp"
#include "machines/metro/design_calculator.hpp"

namespace mppnet::machines::metro {

namespace {

// The calculator's options and result lines as design.json and design.csv (label, text).
void write_results(const std::filesystem::path& out, const design::CalculatorState& s,
                   const std::vector<std::pair<std::string, std::string>>& rows) {
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, value] : s.values) options[name] = value;
  for (const auto& [name, on] : s.flags) options[name] = on;
  nlohmann::json lines = nlohmann::json::array();
  io::CsvTable csv({"label", "text"});
  for (const auto& [label, text] : rows) {
    lines.push_back({{"label", label}, {"text", text}});
    csv.add_row({io::cell(label), io::cell(text)});
  }
  const nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                           {"command", std::string("design ") + s.calculator->name},
                           {"options", options},
                           {"rows", lines}};
  io::write_file_atomically(out / "design.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "design.csv", csv.str());
  std::printf("results: %s/design.json, design.csv\n", out.string().c_str());
}

}  // namespace

using design::Args;
using design::Calculator;
using design::CalculatorState;
using design::OptionSpec;

registry::Command design_command_entry() {
  return {
      .name = "design",
      .help = "Design calculators of DeHon's thesis (mppnet design --help)",
      .model = "",
      .declare = [](CLI::App& command, const registry::Registry&) -> std::function<int()> {
        command.require_subcommand(1);
        // Stable addresses: CLI11 binds each option to a value inside these states.
        auto states = std::make_shared<std::vector<std::unique_ptr<CalculatorState>>>();
        for (const Calculator& c : design::calculators()) {
          auto s = std::make_unique<CalculatorState>();
          s->calculator = &c;
          s->command = command.add_subcommand(c.name, c.help);
          for (const OptionSpec& o : c.options) {
            std::string& value = s->values[o.name];
            value = o.value;
            auto* option =
                s->command->add_option(std::string("--") + o.name, value, o.help)->type_name(o.type);
            if (*o.value) option->capture_default_str();
          }
          for (const OptionSpec& f : c.flags)
            s->command->add_flag(std::string("--") + f.name, s->flags[f.name], f.help);
          s->out = std::string("results/design-") + c.name;
          s->command->add_option("--out", s->out, "Directory for design.json and design.csv")
              ->capture_default_str();
          states->push_back(std::move(s));
        }
        return [states] {
          for (const auto& s : *states) {
            if (!s->command->parsed()) continue;
            const io::OutputDirectory output_directory(s->out);  // checked and held before any work
            std::vector<std::pair<std::string, std::string>> rows;
            {
              const design::RowCapture capture(rows);
              s->calculator->run(Args(*s));
            }
            write_results(s->out, *s, rows);
            return 0;
          }
          MPPNET_ASSERT(false,
                        "mppnet design ran without a calculator; require_subcommand(1) should prevent it");
          return 0;
        };
      },
  };
}

}  // namespace mppnet::machines::metro
