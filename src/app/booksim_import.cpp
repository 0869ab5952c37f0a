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

#include "core/error.hpp"
#include "exp/experiment_config.hpp"
#include "io/printable.hpp"

namespace mppnet::app {

namespace {

// BookSim's defaults for every key the translation reads (booksim_config.cpp).
const std::map<std::string, std::string>& booksim_defaults() {
  static const std::map<std::string, std::string> defaults = {
      {"topology", "torus"},
      {"k", "8"},
      {"n", "2"},
      {"c", "1"},
      {"x", "8"},
      {"y", "8"},
      {"xr", "1"},
      {"yr", "1"},
      {"routing_function", "none"},
      {"use_noc_latency", "1"},
      {"subnets", "1"},
      {"router", "iq"},
      {"num_vcs", "16"},
      {"vc_buf_size", "8"},
      {"buf_size", "-1"},
      {"buffer_policy", "private"},
      {"routing_delay", "1"},
      {"vc_alloc_delay", "1"},
      {"sw_alloc_delay", "1"},
      {"st_prepare_delay", "0"},
      {"st_final_delay", "1"},
      {"credit_delay", "0"},
      {"speculative", "0"},
      {"spec_check_elig", "1"},
      {"spec_check_cred", "1"},
      {"spec_mask_by_reqs", "0"},
      {"spec_sw_allocator", "prio"},
      {"vc_allocator", "islip"},
      {"sw_allocator", "islip"},
      {"alloc_iters", "1"},
      {"arb_type", "round_robin"},
      {"internal_speedup", "1.0"},
      {"input_speedup", "1"},
      {"output_speedup", "1"},
      {"wait_for_tail_credit", "0"},
      {"vc_busy_when_full", "0"},
      {"vc_prioritize_empty", "0"},
      {"hold_switch_for_packet", "0"},
      {"noq", "0"},
      {"output_buffer_size", "-1"},
      {"classes", "1"},
      {"traffic", "uniform"},
      {"injection_rate", "0.1"},
      {"injection_rate_uses_flits", "0"},
      {"injection_process", "bernoulli"},
      {"packet_size", "1"},
      {"packet_size_rate", "1"},
      {"priority", "none"},
      {"use_read_write", "0"},
      {"sim_type", "latency"},
      {"sample_period", "1000"},
      {"warmup_periods", "3"},
      {"max_samples", "10"},
      {"latency_thres", "500.0"},
      {"warmup_thres", "0.05"},
      {"stopping_thres", "0.05"},
      {"acc_warmup_thres", "0.05"},
      {"acc_stopping_thres", "0.05"},
      {"sim_count", "1"},
      {"include_queuing", "1"},
      {"seed", "0"},
  };
  return defaults;
}

// Keys that only steer what BookSim prints or traces: nothing to translate.
bool output_only(const std::string& key) {
  for (const char* prefix : {"print_", "watch_", "stats_", "power_", "sim_power", "viewer_trace",
                             "deadlock_warn_timeout", "tech_file", "channel_width", "channel_sweep"})
    if (key.rfind(prefix, 0) == 0) return true;
  return false;
}

struct Setting {
  std::string value;
  int line = 0;  // 0: BookSim's default
};

class Translation {
 public:
  Translation(const std::string& text, const std::string& file) : file_(file) {
    for (const auto& [key, value] : booksim_defaults()) settings_[key] = {value, 0};
    parse(text);
  }

  BooksimImport run();

 private:
  void parse(const std::string& text);
  const std::string& value(const std::string& key) {
    used_.insert(key);
    if (read_since_set_.empty()) read_since_set_ = key;
    return settings_.at(key).value;
  }
  long long integer(const std::string& key);
  double real(const std::string& key);
  // A value or {a,b,...} list of positive numbers (T = long long: whole ones); empty, with the key
  // rejected, when it is not one.
  template <typename T>
  std::vector<T> numbers(const std::string& key);
  // Records that `key` (its value as read) has no meaning in mppnet.
  void reject(const std::string& key, const std::string& why) {
    used_.insert(key);
    const Setting& s = settings_.count(key) ? settings_.at(key) : Setting{};
    errors_.push_back(s.line > 0
                          ? fmt::format("{}:{}: {}: {}", file_, s.line, key, why)
                          : fmt::format("{}: {} (BookSim's default {}): {}", file_, key, s.value, why));
  }
  // The key must keep the value BookSim's default gives it: mppnet models only that behaviour.
  void require(const std::string& key, const std::string& want, const std::string& why) {
    if (value(key) != want) reject(key, fmt::format("{} = {}: {}", key, settings_.at(key).value, why));
  }
  // Writes `key` (in `section`) of the mppnet config. The first BookSim key read since the previous
  // set() is the one it comes from (the value is computed from it in the call), for errors on it.
  void set(const std::string& section, const std::string& key, const std::string& toml) {
    sections_[section].push_back(key + " = " + toml);
    from_[section + "." + key] = read_since_set_;
    read_since_set_.clear();
  }
  // The mppnet config must load: a value its checks refuse (num_vcs = 0, a network too large for the
  // host) is an error on the BookSim key it came from.
  void check_translation(const std::string& toml);
  void topology();
  void router(int channel_latency);
  void traffic();
  void run_keys();
  int channel_latency();

  std::string file_;
  std::map<std::string, Setting> settings_;
  std::set<std::string> used_;
  std::vector<std::string> errors_, notes_, ignored_;
  std::map<std::string, std::vector<std::string>> sections_;
  std::map<std::string, std::string> from_;  // mppnet key -> the BookSim key it was computed from
  std::string read_since_set_;
};

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  const auto b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string toml_real(double v) {
  std::string s = fmt::format("{:.12g}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

// "{a,b,c}" -> {"a", "b", "c"}; a plain value -> {value}.
std::vector<std::string> list_items(const std::string& v) {
  if (v.size() < 2 || v.front() != '{' || v.back() != '}') return {v};
  std::vector<std::string> items;
  std::stringstream in(v.substr(1, v.size() - 2));
  for (std::string item; std::getline(in, item, ',');) items.push_back(trim(item));
  return items;
}

void Translation::parse(const std::string& text) {
  // Statements are `name = value;`; a `//` comment runs to the end of its line.
  std::string statement;
  bool blank = true;  // the statement so far is white space (kept as a flag: linear in its length)
  int line = 1, start_line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
    }
    if (i >= text.size()) break;
    const char ch = text[i];
    if (ch == ';') {
      const auto eq = statement.find('=');
      const std::string key = trim(statement.substr(0, eq));
      const bool identifier = std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
      if (eq == std::string::npos || key.empty()) {
        errors_.push_back(
            fmt::format("{}:{}: expected name = value; got \"{}\"", file_, start_line, trim(statement)));
      } else if (!identifier) {  // BookSim's names are identifiers; anything else is no key of it
        errors_.push_back(fmt::format("{}:{}: \"{}\" is not a BookSim key name", file_, start_line, key));
      } else {
        settings_[key] = {trim(statement.substr(eq + 1)), start_line};
      }
      statement.clear();
      blank = true;
      continue;
    }
    if (blank) start_line = line;
    if (ch == '\n') ++line;
    statement += ch;
    blank = blank && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r');
  }
  if (!trim(statement).empty())
    errors_.push_back(fmt::format("{}:{}: \"{}\" lacks its closing ';'", file_, start_line, trim(statement)));
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

int Translation::channel_latency() {
  // BookSim sets link latencies per topology; mppnet has one latency for every channel.
  const std::string& topo = value("topology");
  if (topo == "torus" && integer("use_noc_latency") != 0) {
    reject("use_noc_latency",
           "with it a BookSim torus has 2-cycle router links and 1-cycle node links, and mppnet has one "
           "latency for every channel; set use_noc_latency = 0 (all links 1 cycle) to import");
  }
  value("use_noc_latency");
  return 1;
}

void Translation::topology() {
  const std::string topo = value("topology");
  const std::string routing = value("routing_function");
  require("c", "1", "concentrated networks (several nodes per router) are not modelled");
  for (const char* key : {"x", "y", "xr", "yr"}) value(key);  // cmesh and flatfly only
  require("xr", "1", "several nodes per router are not modelled");
  require("yr", "1", "several nodes per router are not modelled");
  if (topo == "mesh" || topo == "torus") {
    set("topology", "kind", quoted(topo));
    set("topology", "k", std::to_string(integer("k")));
    set("topology", "n", std::to_string(integer("n")));
    const bool dor = topo == "mesh" ? (routing == "dor" || routing == "dim_order") : routing == "dim_order";
    if (!dor)
      reject("routing_function",
             fmt::format("{}_{}: mppnet routes a {} in dimension order only ({})", routing, topo, topo,
                         topo == "mesh" ? "dor, dim_order" : "dim_order"));
    return;
  }
  if (topo == "fattree") {
    set("topology", "kind", quoted("fat_tree"));
    set("topology", "children", std::to_string(integer("k")));
    set("topology", "n", std::to_string(integer("n")));
    // nca: nearest common ancestor, a random parent on the way up; anca: the adaptive one.
    if (routing == "nca") {
      set("topology", "up_routing", quoted("random"));
    } else if (routing == "anca") {
      set("topology", "up_routing", quoted("adaptive"));
    } else {
      reject("routing_function", fmt::format("{}_fattree: expected nca or anca", routing));
    }
    return;
  }
  if (topo == "dragonflynew") {
    reject("topology",
           "BookSim's dragonflynew has 10-cycle channels inside a group and 100-cycle channels between "
           "groups, built in; mppnet has one channel latency (build the dragonfly from mppnet's own keys, "
           "docs/config.md)");
    value("k");
    value("n");
    return;
  }
  reject("topology",
         fmt::format("\"{}\" is not a topology mppnet models (mesh, torus and fattree are)", topo));
  for (const char* key : {"k", "n"}) value(key);
}

// BookSim allocator names: "name" or "name(args)". Returns mppnet's kind for the separable and iSLIP
// allocators (iSLIP's request-grant-accept is output-first), or "" with the reason in `why`.
std::string allocator_kind(const std::string& spec, int* iterations, std::string* why) {
  const auto paren = spec.find('(');
  const std::string name = spec.substr(0, paren);
  *iterations = 1;
  if (paren != std::string::npos &&
      (spec.back() != ')' || spec.find_first_of("()", paren + 1) != spec.size() - 1)) {
    *why = fmt::format("\"{}\" is not name(arguments): its parentheses do not balance", spec);
    return "";
  }
  const std::string args = paren == std::string::npos ? "" : spec.substr(paren + 1, spec.size() - paren - 2);
  if (name == "islip") {
    if (!args.empty()) {
      const auto [end, ec] = std::from_chars(args.data(), args.data() + args.size(), *iterations);
      if (ec != std::errc() || end != args.data() + args.size()) *iterations = 0;
    }
    if (*iterations < 1 || *iterations > 8) {
      *why = "iSLIP iterations must be 1..8 in mppnet";
      return "";
    }
    return "output_first";
  }
  if (name == "separable_input_first" || name == "separable_output_first") {
    if (!args.empty() && args != "round_robin") {
      *why = "mppnet's separable allocators use round-robin arbiters only";
      return "";
    }
    return name == "separable_input_first" ? "input_first" : "output_first";
  }
  if (name == "wavefront") return "wavefront";
  *why =
      "mppnet has separable input-first and output-first allocators, iSLIP-style iterations and a "
      "wavefront VC allocator";
  return "";
}

void Translation::router(int latency) {
  set("router", "vcs", std::to_string(integer("num_vcs")));
  set("router", "buffer_flits", std::to_string(integer("vc_buf_size")));
  set("router", "channel_latency", std::to_string(latency));
  set("router", "routing_delay", std::to_string(integer("routing_delay")));
  set("router", "vc_alloc_delay", std::to_string(integer("vc_alloc_delay")));
  set("router", "sw_alloc_delay", std::to_string(integer("sw_alloc_delay")));
  // BookSim's IQ router refuses allocators without delay ("... cannot have zero delay").
  for (const char* key : {"vc_alloc_delay", "sw_alloc_delay"})
    if (integer(key) < 1) reject(key, "BookSim's IQ router refuses a delay below 1 here");
  set("router", "st_delay", std::to_string(integer("st_prepare_delay") + integer("st_final_delay")));
  set("router", "speculative", integer("speculative") > 0 ? "true" : "false");
  // BookSim applies a credit credit_delay cycles after it crosses its channel (iq_router.cpp).
  set("router", "credit_delay", std::to_string(latency + integer("credit_delay")));
  if (integer("sw_alloc_delay") > 1)
    notes_.push_back(
        "BookSim's switch allocation of sw_alloc_delay > 1 cycles lets a VC send one flit per "
        "sw_alloc_delay cycles; mppnet pipelines it (one flit per cycle)");
  int iterations = 1;
  std::string why;
  const std::string vc = allocator_kind(value("vc_allocator"), &iterations, &why);
  if (vc.empty()) reject("vc_allocator", why);
  if (!vc.empty() && iterations > 1)
    reject("vc_allocator", "mppnet's VC allocators run one pass (the wavefront one finds a maximal match)");
  if (!vc.empty()) set("router", "vc_allocator", quoted(vc));
  const std::string sw = allocator_kind(value("sw_allocator"), &iterations, &why);
  if (sw == "wavefront") {
    reject("sw_allocator", "mppnet has no wavefront switch allocator");
  } else if (sw.empty()) {
    reject("sw_allocator", why);
  } else {
    set("router", "allocator", quoted(sw));
    set("router", "allocator_iterations", std::to_string(iterations));
  }
  const double speedup = real("internal_speedup");
  if (speedup != std::floor(speedup) || speedup < 1 || speedup > 8) {
    reject("internal_speedup", "mppnet's crossbar speedup is a whole number of passes, 1..8");
  } else {
    set("router", "speedup", std::to_string(static_cast<int>(speedup)));
  }
  const char* same = "mppnet models BookSim's default only";
  require("router", "iq", "mppnet's router is the input-queued VC router");
  require("input_speedup", "1", same);
  require("output_speedup", "1", same);
  require("wait_for_tail_credit", "0", "mppnet frees an output VC when the tail leaves (BookSim's 0)");
  require("vc_busy_when_full", "0", same);
  require("vc_prioritize_empty", "0", same);
  require("hold_switch_for_packet", "0", same);
  require("noq", "0", same);
  require("buf_size", "-1", "mppnet's buffers are per VC (vc_buf_size)");
  require("buffer_policy", "private", "mppnet's buffers are private per VC");
  require("output_buffer_size", "-1", same);
  value("arb_type");  // not read by BookSim's IQ router (arbiters go in the allocator's parentheses)
  require("subnets", "1", "mppnet splits VCs into virtual networks instead (router.vnets)");
  require("classes", "1", "traffic classes are not modelled");
  require("priority", "none", same);
  require("use_read_write", "0", "request-reply traffic runs as node programs (mppnet app), not here");
  for (const char* key : {"spec_check_elig", "spec_check_cred", "spec_mask_by_reqs", "spec_sw_allocator"})
    value(key);  // speculation details mppnet does not distinguish
  if (settings_.at("alloc_iters").line > 0)
    notes_.push_back("alloc_iters is not read by BookSim's IQ router (iterations go in parentheses)");
  value("alloc_iters");
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
  if (!(rate > 0 && rate <= 1)) {
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
  if (value("sim_type") != "latency")
    reject("sim_type",
           "mppnet's run modes are latency, throughput (backlogged sources) and fixed "
           "(docs/running.md); none is BookSim's " +
               settings_.at("sim_type").value);
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
  set("run", "min_batches", "3");  // BookSim ends after three converged sample periods
  set("run", "max_batches", std::to_string(std::max<long long>(3, batches)));
  set("run", "max_warmup_cycles", std::to_string(std::max<long long>(warmup_cycles, 20000)));
  set("run", "saturation_latency", toml_real(real("latency_thres")));
  if (value("seed") == "time") {
    reject("seed", "mppnet runs are reproducible: give a number");
  } else {
    set("run", "seed", std::to_string(integer("seed")));
  }
  for (const char* key : {"warmup_thres", "stopping_thres", "acc_warmup_thres", "acc_stopping_thres"})
    if (settings_.at(key).line > 0 && real(key) != 0.05)
      reject(key, "mppnet stops measuring on the batch-means confidence interval (run.target_ci)");
  for (const char* key : {"warmup_thres", "stopping_thres", "acc_warmup_thres", "acc_stopping_thres"})
    value(key);
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
  for (const auto& [key, s] : settings_) {
    if (s.line == 0 || used_.count(key) > 0) continue;
    if (output_only(key)) {
      ignored_.push_back(key);
    } else {
      errors_.push_back(fmt::format("{}:{}: {}: no equivalent in mppnet", file_, s.line, key));
    }
  }
  if (!errors_.empty()) return {"", errors_};
  std::string out = fmt::format(
      "# Translated from {} by `mppnet import booksim` (docs/router.md). BookSim's defaults fill the keys\n"
      "# the file does not set. At zero load BookSim reports one cycle more than mppnet for the same stage\n"
      "# delays (derived from its source, docs/router.md).\n",
      io::printable(file_));  // a comment line: a newline in the file's name must not end it
  for (const std::string& note : notes_) out += "# Note: " + note + ".\n";
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

}  // namespace

BooksimImport import_booksim(const std::string& text, const std::string& file) {
  return Translation(text, file).run();
}

}  // namespace mppnet::app
