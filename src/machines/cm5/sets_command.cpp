// machines/cm5/sets_command.cpp: the options of `mppnet cm5-sets`, its table and its result files.
#include "machines/cm5/sets_command.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>

#include "core/exit_status.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/output_directory.hpp"
#include "machines/cm5/sets_run.hpp"

namespace mppnet::machines::cm5 {

namespace {

std::string table(const SetsOptions& o, const std::vector<SetRow>& rows) {
  std::string s = fmt::format(
      "CM-5 data network, {} nodes, {}-word messages, {}-nibble chip buffers, {} up-links; every message "
      "queued at once, sides alternating per source\n{:<16} {:>10} {:>12} {:>12} {:>8} {:>14}\n",
      o.nodes, o.words, o.buffer_nibbles, o.deterministic ? "deterministic" : "random", "set", "messages",
      "bound", "completion", "ratio", "busiest link");
  for (const SetRow& r : rows) {
    s += fmt::format("{:<16} {:>10} {:>12} {:>12} {:>8.3f} {:>14}\n", r.set, r.messages, r.bound,
                     r.completion, r.ratio(), r.busiest_link);
  }
  s += fmt::format(
      "bound: the paper's load estimate in 40 MHz cycles (the worst arm's load over its bandwidth, a lower "
      "bound; Leiserson et al. 1992, §3); completion: first injection to last delivery; ratio: completion / "
      "bound (mppnet reads the paper's 'nearly as well as the bandwidths allow' as at most 1.5); busiest "
      "link: messages through the busiest chip output. Permutations {} times over; all-to-all rounds from "
      "{}{}.\n",
      o.copies, o.first_round, o.rounds > 0 ? fmt::format(", {} of them", o.rounds) : "");
  return s;
}

void write_results(const std::filesystem::path& out, const SetsOptions& o, const SetsResult& result) {
  nlohmann::json list = nlohmann::json::array();
  io::CsvTable csv(
      {"set", "messages", "bound_cycles", "completion_cycles", "ratio", "busiest_link_messages"});
  for (const SetRow& r : result.rows) {
    list.push_back({{"set", r.set},
                    {"messages", r.messages},
                    {"bound_cycles", r.bound},
                    {"completion_cycles", r.completion},
                    {"ratio", r.ratio()},
                    {"busiest_link_messages", r.busiest_link}});
    csv.add_row({io::cell(r.set), io::cell(r.messages), io::cell(r.bound), io::cell(r.completion),
                 io::cell(r.ratio()), io::cell(r.busiest_link)});
  }
  const nlohmann::json doc{{"mppnet_version", MPPNET_VERSION},
                           {"command", "cm5-sets"},
                           {"options",
                            {{"nodes", o.nodes},
                             {"copies", o.copies},
                             {"first_round", o.first_round},
                             {"rounds", o.rounds},
                             {"words", o.words},
                             {"buffer_nibbles", o.buffer_nibbles},
                             {"deterministic", o.deterministic},
                             {"seed", o.seed}}},
                           {"sets", list},
                           {"left_out", result.left_out}};
  io::write_file_atomically(out / "sets.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "sets.csv", csv.str());
  std::printf("results: %s/sets.json, sets.csv\n", out.string().c_str());
}

}  // namespace

registry::Command sets_command_entry() {
  return {
      .name = "cm5-sets",
      .help =
          "CM-5 data network: whole message sets (permutations, all-to-all) against the paper's load bound",
      .model = "",
      .declare = [](CLI::App& command, const registry::Registry&) -> std::function<int()> {
        // Stable address: CLI11 binds each option to a field of these options.
        auto o = std::make_shared<SetsOptions>();
        command.add_option("--nodes", o->nodes, "Processing nodes: a multiple of 32 from 32 to 16384")
            ->capture_default_str();
        command
            .add_option("--sets", o->sets,
                        "Sets to run (default: every set the size allows): random, transpose, bit_reversal, "
                        "perfect_shuffle, across_root, all_to_all, all_to_all_xor")
            ->delimiter(',');
        command.add_option("--copies", o->copies, "Times each permutation is repeated")
            ->capture_default_str();
        command.add_option("--first-round", o->first_round, "First round of the all-to-all sets")
            ->capture_default_str();
        command.add_option("--rounds", o->rounds, "Rounds of the all-to-all sets (0: all from the first)")
            ->capture_default_str();
        command.add_option("--words", o->words, "Data words per message, 1 to 5")->capture_default_str();
        command.add_option("--buffer-nibbles", o->buffer_nibbles, "Each chip input's buffer")
            ->capture_default_str();
        command.add_flag("--deterministic", o->deterministic, "Every chip takes its first parent link");
        command.add_option("--seed", o->seed, "Seed of the random permutation and the up-link choices")
            ->capture_default_str();
        auto out = std::make_shared<std::string>("results/cm5-sets");
        command.add_option("--out", *out, "Directory for sets.json and sets.csv")->capture_default_str();
        return [o, out] {
          const io::OutputDirectory output_directory(*out);  // checked and held before any work
          const SetsResult result = run_message_sets(*o, [](std::int64_t messages) {
            // The slowest rate measured on 16,384 nodes (docs/performance.md): about 40,000 messages/s.
            const double hours = static_cast<double>(messages) / 40'000 / 3600;
            if (hours >= 1)
              std::fprintf(stderr,
                           "mppnet: note: these sets hold %lld messages, about %.1f hours at the 40,000 "
                           "messages per second measured on 16,384 nodes\n",
                           static_cast<long long>(messages), hours);
          });
          std::fputs(table(*o, result.rows).c_str(), stdout);
          for (const std::string& why : result.left_out) std::printf("left out: %s\n", why.c_str());
          write_results(*out, *o, result);
          return core::kExitSuccess;
        };
      },
  };
}

}  // namespace mppnet::machines::cm5
