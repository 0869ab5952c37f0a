// app/booksim_import.cpp: BookSim configuration files translated into mppnet configs.
//
// What BookSim means by each key was read from its source (booksim2: booksim_config.cpp for the defaults,
// routers/iq_router.cpp for the pipeline, networks/ and routefunc.cpp for topologies and routing,
// traffic.cpp for the patterns); docs/router.md gives the table and the timing differences.
#include "app/booksim_import.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>

#include "app/booksim_file.hpp"
#include "app/booksim_translation.hpp"
#include "core/error.hpp"
#include "exp/experiment_config.hpp"
#include "io/printable.hpp"

namespace mppnet::app::booksim {

namespace {

// Keys that only steer what BookSim prints or traces: nothing to translate.
bool output_only(const std::string& key) {
  for (const char* prefix : {"print_", "watch_", "stats_", "power_", "sim_power", "viewer_trace",
                             "deadlock_warn_timeout", "tech_file", "channel_width", "channel_sweep"})
    if (key.rfind(prefix, 0) == 0) return true;
  return false;
}

// "{a,b,c}" -> {"a", "b", "c"}; a plain value -> {value}.
std::vector<std::string> list_items(const std::string& v) {
  if (v.size() < 2 || v.front() != '{' || v.back() != '}') return {v};
  std::vector<std::string> items;
  std::stringstream in(v.substr(1, v.size() - 2));
  for (std::string item; std::getline(in, item, ',');) items.push_back(booksim_trim(item));
  return items;
}

}  // namespace

std::string toml_real(double v) {
  std::string s = fmt::format("{:.12g}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

long long Translation::integer(const std::string& key) {
  const std::string& v = value(key);
  std::size_t used = 0;
  long long n = 0;
  try {
    n = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size()) {
    reject(key, fmt::format("expected an integer, got \"{}\"", v));
    return 0;
  }
  // No BookSim key means anything near the range of long long; refusing those here keeps the sums and
  // products of the translation from overflowing.
  constexpr long long kLargest = 1'000'000'000'000'000;
  if (n > kLargest || n < -kLargest) {
    reject(key, fmt::format("{} is beyond any value mppnet takes", v));
    return 0;
  }
  return n;
}

double Translation::real(const std::string& key) {
  const std::string& v = value(key);
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || !std::isfinite(x)) reject(key, fmt::format("expected a number, got \"{}\"", v));
  return x;
}

template <typename T>
std::vector<T> Translation::numbers(const std::string& key) {
  std::vector<T> out;
  for (const std::string& item : list_items(value(key))) {
    std::size_t used = 0;
    T x{};
    try {
      if constexpr (std::is_integral_v<T>) {
        x = std::stoll(item, &used);
      } else {
        x = std::stod(item, &used);
      }
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || !(x > 0)) {
      reject(key, fmt::format("\"{}\" is not a list of positive {}", settings_.at(key).value,
                              std::is_integral_v<T> ? "whole numbers" : "numbers"));
      return {};
    }
    out.push_back(x);
  }
  if (out.empty()) reject(key, "an empty list");
  return out;
}

void Translation::traffic() {
  const std::string pattern = value("traffic");
  // BookSim's uniform and random permutation may pick the source itself (traffic.cpp).
  static const std::map<std::string, std::pair<std::string, bool>> patterns = {
      {"uniform", {"uniform", true}},         {"randperm", {"random_permutation", true}},
      {"bitcomp", {"bit_complement", false}}, {"bitrev", {"bit_reverse", false}},
      {"transpose", {"transpose", false}},    {"shuffle", {"shuffle", false}}};
  const auto it = patterns.find(pattern);
  if (it == patterns.end()) {
    reject("traffic", pattern == "tornado" || pattern == "neighbor"
                          ? "BookSim's is digit by digit in base k; mppnet's acts on node numbers"
                          : "no such pattern in mppnet (uniform, randperm, bitcomp, bitrev, transpose and "
                            "shuffle translate)");
  } else {
    set("traffic", "pattern", quoted(it->second.first));
    if (it->second.second) set("traffic", "self", "true");
    if (pattern == "randperm")
      note("perm_seed",
           "BookSim draws its permutation from perm_seed; mppnet draws one of the same kind "
           "from run.seed");
  }
  // Sizes are whole flits and weights positive numbers; a short weight list repeats its last entry.
  const std::vector<long long> sizes = numbers<long long>("packet_size");
  const std::vector<double> rates = numbers<double>("packet_size_rate");
  double mean = 0, total = 0;
  std::string size_list, weight_list;
  for (std::size_t i = 0; i < sizes.size() && !rates.empty(); ++i) {
    const double rate = rates[std::min(i, rates.size() - 1)];
    mean += static_cast<double>(sizes[i]) * rate;
    total += rate;
    size_list += (i ? ", " : "") + std::to_string(sizes[i]);
    weight_list += (i ? ", " : "") + toml_real(rate);
  }
  mean = total > 0 ? mean / total : 1;  // total is 0 only when numbers() rejected a key
  if (sizes.empty() || rates.empty()) {
    // Nothing to write: the translation already failed on that key.
  } else if (sizes.size() == 1) {
    set("traffic", "packet_flits", std::to_string(sizes[0]));
  } else {
    set("traffic", "packet_sizes", "[" + size_list + "]");
    set("traffic", "packet_weights", "[" + weight_list + "]");
  }
  // BookSim's rate counts packets per node and cycle unless injection_rate_uses_flits.
  const double rate = real("injection_rate") * (integer("injection_rate_uses_flits") != 0 ? 1.0 : mean);
  offered_flits_ = rate;
  if (value("sim_type") == "throughput" && rate >= 1) {
    // Backlogged sources: mppnet's throughput mode (run_keys()) offers what the links take.
  } else if (!(rate > 0 && rate <= 1)) {
    reject("injection_rate", fmt::format("{} flits per node and cycle; mppnet offers (0, 1]", rate));
  } else {
    set("traffic", "rate", toml_real(rate));
  }
  if (value("injection_process") != "bernoulli")
    reject("injection_process",
           "mppnet's on/off source has other parameters (traffic.burst_packets, "
           "traffic.burst_rate); translate it by hand");
}

void Translation::run_keys() {
  const std::string& sim_type = value("sim_type");
  if (sim_type == "throughput") {
    // BookSim's throughput run injects at injection_rate and measures what is accepted, with no latency
    // limit and no drain. At a rate of a flit per node and cycle its sources never idle: mppnet's
    // throughput mode. Below it, mppnet's fixed mode runs open loop at the rate for as long as BookSim
    // at most would (max_samples periods).
    if (offered_flits_ >= 1) {
      set("run", "mode", quoted("throughput"));
    } else {
      set("run", "mode", quoted("fixed"));
      set("run", "cycles", std::to_string(integer("max_samples") * integer("sample_period")));
      note("sim_type",
           "throughput below a flit per node and cycle: mppnet's fixed mode runs all "
           "max_samples periods where BookSim may stop once accepted throughput converges");
    }
  } else if (sim_type != "latency") {
    reject("sim_type",
           "mppnet's run modes are latency, throughput (backlogged sources) and fixed "
           "(docs/running.md); none is BookSim's " +
               sim_type);
  }
  const long long period = integer("sample_period");
  const long long warmup = integer("warmup_periods");
  const long long samples = integer("max_samples");
  // Products and differences of whatever the file says must not overflow (found by fuzzing): values
  // that large are refused by mppnet's own range checks anyway, on the key the product becomes.
  long long warmup_cycles = 0, batches = 0;
  if (__builtin_mul_overflow(warmup, period, &warmup_cycles)) {
    reject("warmup_periods", "warmup_periods x sample_period is beyond any run length");
    return;
  }
  if (__builtin_sub_overflow(samples, warmup, &batches)) {
    reject("max_samples", "max_samples - warmup_periods is beyond any number of batches");
    return;
  }
  set("run", "batch_cycles", std::to_string(period));
  set("run", "warmup_cycles", std::to_string(warmup_cycles));
  // BookSim's rules (trafficmanager.cpp, _SingleSim): with warmup_periods > 0 the warm-up is exactly
  // that many sample periods, checked only against latency_thres; the measurement ends after three
  // sample periods in a row whose latency and accepted rate change by at most stopping_thres and
  // acc_stopping_thres, or when max_samples periods (warm-up included) have run.
  if (warmup > 0) {
    set("run", "warmup_rule", quoted("fixed"));
  } else {
    value("warmup_thres");
    note("warmup_periods",
         "0: BookSim warms up until latency and accepted rate change by at most "
         "warmup_thres and acc_warmup_thres; mppnet until the latency stops rising by "
         "more than 5% a batch (run.warmup_rule = \"settle\")");
    set("run", "max_warmup_cycles", std::to_string(std::max<long long>(20 * period, 20000)));
  }
  set("run", "stop_rule", quoted("converged"));
  const double stop = real("stopping_thres"), acc_stop = real("acc_stopping_thres");
  if (stop != acc_stop || !(stop > 0 && stop <= 1)) {
    reject(settings_.at("stopping_thres").line > 0 ? "stopping_thres" : "acc_stopping_thres",
           fmt::format("mppnet's converged rule has one threshold in (0, 1] (run.converge_change) for "
                       "latency and accepted rate; got stopping_thres = {}, acc_stopping_thres = {}",
                       stop, acc_stop));
  } else {
    set("run", "converge_change", toml_real(stop));
  }
  set("run", "min_batches", "3");  // BookSim ends after three converged sample periods
  set("run", "max_batches", std::to_string(std::max<long long>(3, batches)));
  set("run", "saturation_latency", toml_real(real("latency_thres")));
  if (sim_type == "latency")
    note("latency_thres",
         "BookSim's limit also counts the age of packets still in flight; mppnet's "
         "run.saturation_latency applies to each batch's delivered packets");
  if (value("seed") == "time") {
    reject("seed", "mppnet runs are reproducible: give a number");
  } else {
    set("run", "seed", std::to_string(integer("seed")));
  }
  require("include_queuing", "1", "mppnet's latency always includes the source queue");
  require("sim_count", "1", "run mppnet once per seed instead");
}

BooksimImport Translation::run() {
  if (!errors_.empty()) return {"", errors_};
  const int latency = channel_latency();
  topology();
  router(latency);
  traffic();
  run_keys();
  unread_keys();
  if (!errors_.empty()) return {"", errors_};
  std::string out = fmt::format(
      "# Translated from {} by `mppnet import booksim` (docs/router.md). BookSim's defaults fill the keys\n"
      "# the file does not set. At zero load BookSim reports one cycle more than mppnet for the same stage\n"
      "# delays (derived from its source, docs/router.md).\n",
      io::printable(file_));  // a comment line: a newline in the file's name must not end it
  for (const std::string& note : notes_) out += "# Note: " + io::printable(note) + ".\n";
  if (!at_default_.empty()) {
    out += "# At BookSim's default, nothing to translate:";
    for (const std::string& key : at_default_) out += " " + key;
    out += "\n";
  }
  if (!ignored_.empty()) {
    out += "# BookSim output options, not translated:";
    for (const std::string& key : ignored_) out += " " + key;
    out += "\n";
  }
  for (const char* section : {"topology", "router", "traffic", "run"}) {
    out += fmt::format("\n[{}]\n", section);
    for (const std::string& line : sections_[section]) out += line + "\n";
  }
  check_translation(out);
  if (!errors_.empty()) return {"", errors_};
  return {out, {}};
}

void Translation::unread_keys() {
  for (const auto& [key, s] : settings_) {
    if (s.line == 0) continue;
    // BookSim keeps the last of several assignments, and so does the translation; say so.
    if (s.earlier_line > 0)
      notes_.push_back(
          fmt::format("{} is set on line {} and again on line {}; BookSim keeps the last value, "
                      "{}, and so does this translation",
                      key, s.earlier_line, s.line, s.value));
    if (used_.count(key) > 0) continue;
    if (output_only(key)) {
      ignored_.push_back(key);
      continue;
    }
    const auto default_value = booksim_defaults().find(key);
    if (default_value == booksim_defaults().end()) {
      errors_.push_back(fmt::format("{}:{}: {}: BookSim has no such key (BookSim itself refuses this file)",
                                    file_, s.line, key));
      continue;
    }
    const std::string why = booksim_ignores(key, settings_);
    if (!why.empty()) {
      note(key, "ignored, as BookSim ignores it here: " + why);
    } else if (same_booksim_value(s.value, default_value->second)) {
      at_default_.push_back(key);
    } else {
      errors_.push_back(
          fmt::format("{}:{}: {}: no equivalent in mppnet for {} = {} (BookSim's default is {})", file_,
                      s.line, key, key, s.value, default_value->second));
    }
  }
}

void Translation::check_translation(const std::string& toml) {
  try {
    exp::load_experiment_text(toml, file_, {});
  } catch (const core::ConfigError& e) {
    const auto it = from_.find(e.key());
    if (it != from_.end() && !it->second.empty()) {
      reject(it->second, fmt::format("becomes {} in mppnet, which {}", e.key(), e.reason()));
    } else {
      errors_.push_back(
          fmt::format("{}: {}: {}", file_, e.key().empty() ? "translation" : e.key(), e.reason()));
    }
  }
}

}  // namespace mppnet::app::booksim

namespace mppnet::app {

BooksimImport import_booksim(const std::string& text, const std::string& file) {
  return booksim::Translation(text, file).run();
}

}  // namespace mppnet::app
