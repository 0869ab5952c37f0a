// app/validate_command.cpp: `mppnet validate`: runs the registered cases and says what each shows.
#include "app/validate_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/exit_status.hpp"
#include "core/ordered_parallel.hpp"
#include "exp/validation.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/journal.hpp"
#include "io/output_directory.hpp"

namespace mppnet::app {

namespace {

using core::Verdict;

using Summary = std::map<core::Evidence, std::map<Verdict, int>>;
constexpr Verdict kVerdicts[] = {Verdict::Pass, Verdict::Differs, Verdict::Fail, Verdict::Calibrated};

int count(const std::map<Verdict, int>& counts, Verdict v) {
  const auto it = counts.find(v);
  return it == counts.end() ? 0 : it->second;
}

int cases_of(const std::map<Verdict, int>& counts) {
  int n = 0;
  for (const Verdict v : kVerdicts) n += count(counts, v);
  return n;
}

std::map<Verdict, int> totals(const Summary& summary) {
  std::map<Verdict, int> total;
  for (const auto& [evidence, counts] : summary)
    for (const Verdict v : kVerdicts) total[v] += count(counts, v);
  return total;
}

std::string totals_line(const std::map<Verdict, int>& total) {
  return fmt::format("{} pass, {} fail, {} documented differences, {} calibrated",
                     count(total, Verdict::Pass), count(total, Verdict::Fail), count(total, Verdict::Differs),
                     count(total, Verdict::Calibrated));
}

// What the cases are evidence of: how many compare the simulated machine with what its publication
// reports, and how many are of each other kind, so that the total is not read as that number.
std::string evidence_line(const Summary& summary) {
  const auto of = [&](core::Evidence e) {
    const auto it = summary.find(e);
    return it == summary.end() ? 0 : cases_of(it->second);
  };
  int all = 0;
  for (const auto& [evidence, counts] : summary) all += cases_of(counts);
  using core::Evidence;
  std::string line = fmt::format(
      "Evidence: of {} cases, {} compare the simulated machine with a figure or behaviour its publication "
      "reports (behaviour); {} are structural or closed-form, {} self-checks, {} against an independent "
      "model or derivation, {} against an implementation from the same notes (same-source), {} "
      "calibrations",
      all, of(Evidence::Behaviour), of(Evidence::ClosedForm), of(Evidence::SelfConsistency),
      of(Evidence::Independent), of(Evidence::SameSource), of(Evidence::Calibration));
  if (const int unclassified = of(Evidence::Unclassified); unclassified > 0)
    line += fmt::format(", {} unclassified", unclassified);
  return line;
}

// The table of verdicts by kind of evidence, then the totals; returns the number of failures.
int print_summary(const Summary& summary) {
  std::printf("\n%-14s %8s %8s %8s %8s %11s\n", "by kind", "cases", "pass", "differs", "FAIL", "calibrated");
  for (const auto& [evidence, counts] : summary) {
    std::printf("%-14s %8d", core::evidence_name(evidence), cases_of(counts));
    for (const Verdict v : kVerdicts)
      std::printf(v == Verdict::Calibrated ? " %11d" : " %8d", count(counts, v));
    std::printf("\n");
  }
  const auto total = totals(summary);
  std::printf("%s\n%s\n", totals_line(total).c_str(), evidence_line(summary).c_str());
  return count(total, Verdict::Fail);
}

// A Markdown table cell: no line breaks, no bare column separators.
std::string cell(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '|') {
      out += "\\|";
    } else {
      out += ch == '\n' ? ' ' : ch;
    }
  }
  return out;
}

// The summary by kind, the totals and one row per case, as docs/validation.md (all cases) and each
// machine's page (its own) show them: scripts/validation_doc.sh splices them in. Numbers have six
// significant digits, as printed.
std::string markdown_table(const Summary& summary, const std::string& rows) {
  std::string md = "| kind | cases | pass | differs | FAIL | calibrated |\n|---|---|---|---|---|---|\n";
  for (const auto& [evidence, counts] : summary) {
    md += fmt::format("| {} | {} |", core::evidence_name(evidence), cases_of(counts));
    for (const Verdict v : kVerdicts) md += fmt::format(" {} |", count(counts, v));
    md += "\n";
  }
  md += "\n" + totals_line(totals(summary)) + ".\n\n" + evidence_line(summary) + ".\n\n";
  md +=
      "| case | kind | source | expected | simulated | tolerance | tolerance from | pinned band | "
      "documented difference | modelling choices | result |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  return md + rows;
}

// The pinned band of a case's documented difference, its reason and its margin's origin ("" without one).
struct DifferenceText {
  std::string band, reason, margin;
};

DifferenceText difference_text(const exp::ValidationCase& c) {
  if (!c.difference) return {};
  return {c.difference->describe(), c.difference->reason, c.difference->margin};
}

// The modelling choices of a case, one after another ("" without any).
std::string choices_text(const exp::ValidationCase& c) {
  std::string text;
  for (const core::ModellingChoice& choice : c.choices)
    text += (text.empty() ? "" : "; ") + core::describe(choice);
  return text;
}

nlohmann::json choices_json(const exp::ValidationCase& c) {
  nlohmann::json list = nlohmann::json::array();
  for (const core::ModellingChoice& choice : c.choices)
    list.push_back({{"what", choice.what},
                    {"reading", choice.reading},
                    {"other_readings", choice.others},
                    {"chosen_with_result_in_view", choice.chosen_with_result_in_view}});
  return list;
}

// A measurement as the tables give it: "0.0123", or over seeds "0.0123 ± 0.0045 (8 seeds)".
std::string simulated_text(const exp::ValidationOutcome& o) {
  if (o.seeds == 0) return fmt::format("{:.6g}", o.measured);
  return fmt::format("{:.6g} ± {:.3g} ({} seeds)", o.measured, o.interval, o.seeds);
}

// A case that takes this long says so on stderr as it ends.
constexpr double kSlowCaseSeconds = 10;

// The slowest cases this run measured (journaled ones were not timed), on stderr: where the time of a
// validation goes, without touching the results, which must not depend on the host.
void print_slowest(const std::vector<const exp::ValidationCase*>& chosen, const std::vector<double>& seconds,
                   double wall_seconds, int jobs) {
  std::vector<std::size_t> order;
  double total = 0;
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (seconds[i] >= 0) {
      order.push_back(i);
      total += seconds[i];
    }
  if (order.empty()) return;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return seconds[a] > seconds[b]; });
  std::fprintf(stderr,
               "mppnet: validate: %zu cases measured in %.0f s of case time, %.0f s of wall time on %d "
               "job%s; the slowest:\n",
               order.size(), total, wall_seconds, jobs, jobs == 1 ? "" : "s");
  for (std::size_t k = 0; k < order.size() && k < 5; ++k)
    std::fprintf(stderr, "  %-50s %7.1f s\n", chosen[order[k]]->id.c_str(), seconds[order[k]]);
}

}  // namespace

int validate_command(const std::vector<std::string>& ids, bool list_only, bool fast_only, int jobs,
                     const std::filesystem::path& out) {
  const auto& cases = exp::validation_cases();
  std::vector<const exp::ValidationCase*> chosen;
  // An id names its case; a name without a dot (a machine's, "t1") names every case whose id starts with
  // it and a dot.
  const auto names = [](const std::string& id, const std::string& case_id) {
    return case_id == id || (id.find('.') == std::string::npos && case_id.rfind(id + ".", 0) == 0);
  };
  for (const auto& c : cases) {
    const bool named = std::any_of(ids.begin(), ids.end(), [&](const auto& id) { return names(id, c.id); });
    if (ids.empty() ? !(fast_only && c.slow) : named) chosen.push_back(&c);
  }
  for (const auto& id : ids) {
    if (std::none_of(cases.begin(), cases.end(), [&](const auto& c) { return names(id, c.id); }))
      throw core::ConfigError({}, "",
                              fmt::format("no validation case \"{}\" (see mppnet validate --list)", id));
  }
  if (list_only) {
    for (const auto* c : chosen)
      std::printf("%-40s %s%s\n", c->id.c_str(), c->source.c_str(), c->slow ? " [slow]" : "");
    return 0;
  }
  const io::OutputDirectory output_directory(out);
  const auto started = std::chrono::steady_clock::now();
  // Each finished case is journaled (io/journal.hpp): a rerun after a kill measures only the rest. A
  // case's measurement is a pure function of the case, which the version and the id fix.
  nlohmann::json ids_chosen = nlohmann::json::array();
  for (const auto* c : chosen) ids_chosen.push_back(c->id);
  io::Journal journal(out, "validate",
                      {{"command", "validate"},
                       {"mppnet_version", MPPNET_VERSION},
                       {"cases", ids_chosen},
                       {"fast", fast_only}});
  if (journal.resumed() > 0)
    std::fprintf(stderr, "mppnet: resuming: %zu of %zu cases were done (%s)\n", journal.resumed(),
                 chosen.size(), journal.dir().string().c_str());
  if (fast_only)
    std::printf(
        "--fast: slow cases left out; a random quantity is the mean of %d seeds, its 95%% interval "
        "shown but not required to be narrower than the tolerance\n",
        exp::kFastSeeds);
  std::printf("%-38s %-12s %12s %12s %12s  %s\n", "case", "kind", "expected", "simulated", "tolerance",
              "result");
  nlohmann::json rows = nlohmann::json::array();
  std::string md_rows;
  io::CsvTable csv({"id", "kind", "expected", "simulated", "interval95", "seeds", "tolerance",
                    "tolerance_origin", "pinned_band", "pinned_band_from", "documented_difference",
                    "modelling_choices", "verdict", "source"});
  Summary summary;
  // The same per machine (the id's first part: "cm1", "metro", ...), for the machine's own page.
  std::map<std::string, std::pair<Summary, std::string>> by_prefix;
  const auto journal_name = [](std::size_t i) { return fmt::format("case-{:04}", i); };
  std::vector<std::optional<exp::ValidationOutcome>> journaled(chosen.size());
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    journaled[i] = journal.decoded(journal_name(i), [&](const nlohmann::json& done) {
      // JSON has no NaN: a measurement that was not a number is saved as null.
      const nlohmann::json& m = done.at("measured");
      if (done.at("id").get<std::string>() != chosen[i]->id) throw std::invalid_argument("another case");
      return exp::ValidationOutcome{chosen[i], m.is_null() ? std::nan("") : m.get<double>(),
                                    done.at("passed").get<bool>(), done.at("interval").get<double>(),
                                    done.at("seeds").get<int>()};
    });
  }
  // The cases run on `jobs` threads (each is a pure function of itself); they are printed, journaled
  // and tabled here in their order, so every output is the same for any number of jobs.
  // Wall time per case measured here, each index on one thread; it reaches stderr only, never a result.
  std::vector<double> seconds(chosen.size(), -1);
  const auto run = [&](std::size_t i) {
    if (journaled[i]) return *journaled[i];
    const auto start = std::chrono::steady_clock::now();
    exp::ValidationOutcome o = exp::run_case(*chosen[i], fast_only);
    seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return o;
  };
  core::for_each_ordered<exp::ValidationOutcome>(
      chosen.size(), jobs, run, [&](std::size_t i, exp::ValidationOutcome o) {
        const exp::ValidationCase* c = chosen[i];
        if (!journaled[i])
          journal.save(journal_name(i), {{"id", c->id},
                                         {"measured", o.measured},
                                         {"passed", o.passed},
                                         {"interval", o.interval},
                                         {"seeds", o.seeds}});
        const core::Judgement j = core::judge(*c, o.measured, o.interval, !fast_only);
        const std::string simulated = simulated_text(o);
        const Verdict v = j.verdict;
        const DifferenceText d = difference_text(*c);
        const std::string choices = choices_text(*c);
        ++summary[c->evidence][v];
        std::printf("%-38s %-12s %12.6g %12s %12s  %s\n", c->id.c_str(), core::evidence_name(c->evidence),
                    c->expected, fmt::format("{:.6g}", o.measured).c_str(), c->tolerance.describe().c_str(),
                    core::verdict_name(v));
        if (o.seeds > 0) std::printf("  mean over seeds: %s\n", simulated.c_str());
        std::printf("  %s\n  setup: %s\n  source: %s\n", c->quantity.c_str(), c->setup.c_str(),
                    c->source.c_str());
        if (!c->tolerance_origin.empty()) std::printf("  tolerance from: %s\n", c->tolerance_origin.c_str());
        if (c->difference)
          std::printf("  documented difference: %s\n  pinned to %s: %s\n", d.reason.c_str(), d.band.c_str(),
                      d.margin.c_str());
        for (const core::ModellingChoice& choice : c->choices)
          std::printf("  choice: %s\n", core::describe(choice).c_str());
        if (!j.problem.empty()) std::printf("  FAIL: %s\n", j.problem.c_str());
        std::fflush(stdout);
        if (seconds[i] >= kSlowCaseSeconds)
          std::fprintf(stderr, "mppnet: validate: %s took %.1f s\n", c->id.c_str(), seconds[i]);
        const std::string result = v == Verdict::Differs ? "differs (documented)" : core::verdict_name(v);
        const std::string row =
            fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c->id,
                        core::evidence_name(c->evidence), cell(c->source), fmt::format("{:.6g}", c->expected),
                        simulated, cell(c->tolerance.describe()), cell(c->tolerance_origin),
                        cell(d.band.empty() ? "" : d.band + " (" + d.margin + ")"), cell(d.reason),
                        cell(choices), j.problem.empty() ? result : result + ": " + cell(j.problem));
        md_rows += row;
        csv.add_row({io::cell(c->id), io::cell(std::string(core::evidence_name(c->evidence))),
                     io::cell(c->expected), io::cell(o.measured), io::cell(o.interval), io::cell(o.seeds),
                     io::cell(c->tolerance.describe()), io::cell(c->tolerance_origin), io::cell(d.band),
                     io::cell(d.margin), io::cell(d.reason), io::cell(choices),
                     io::cell(std::string(core::verdict_name(v))), io::cell(c->source)});
        auto& [prefix_summary, prefix_rows] = by_prefix[c->id.substr(0, c->id.find('.'))];
        ++prefix_summary[c->evidence][v];
        prefix_rows += row;
        nlohmann::json pinned = nullptr;
        if (c->difference)
          pinned = {{"low", c->difference->low},
                    {"high", c->difference->high},
                    {"reason", d.reason},
                    {"band_from", d.margin}};
        rows.push_back({{"id", c->id},
                        {"source", c->source},
                        {"setup", c->setup},
                        {"quantity", c->quantity},
                        {"expected", c->expected},
                        {"tolerance", c->tolerance.describe()},
                        {"tolerance_origin", c->tolerance_origin},
                        {"simulated", o.measured},
                        {"interval95", o.interval},
                        {"seeds", o.seeds},
                        {"passed", v == Verdict::Pass},
                        {"within_tolerance", o.passed},
                        {"evidence", core::evidence_name(c->evidence)},
                        {"verdict", core::verdict_name(v)},
                        {"problem", j.problem},
                        {"pinned_difference", pinned},
                        {"modelling_choices", choices_json(*c)},
                        {"documented_difference", v == Verdict::Differs ? d.reason : ""}});
      });
  nlohmann::json doc{{"mppnet_version", MPPNET_VERSION}, {"cases", rows}};
  io::write_file_atomically(out / "validation.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "validation.csv", csv.str());
  io::write_file_atomically(out / "validation.md", markdown_table(summary, md_rows));
  for (const auto& [prefix, table] : by_prefix)
    io::write_file_atomically(out / fmt::format("validation-{}.md", prefix),
                              markdown_table(table.first, table.second));
  journal.remove();
  const int failures = print_summary(summary);
  print_slowest(chosen, seconds,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), jobs);
  return failures == 0 ? 0 : core::kExitRunFailed;
}

}  // namespace mppnet::app
