// app/booksim_file.cpp: BookSim configuration files read as BookSim reads them.
#include "app/booksim_file.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace mppnet::app {

std::string booksim_trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  const auto b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

const std::map<std::string, std::string>& booksim_defaults() {
  // Every key booksim_config.cpp declares (booksim2 28f4329), with its default. Keys BookSim declares
  // both as a number and as a string (so that a {a,b} list can be given) carry the number.
  static const std::map<std::string, std::string> defaults = {
      {"channel_file", ""},
      {"subnets", "1"},
      {"topology", "torus"},
      {"k", "8"},
      {"n", "2"},
      {"c", "1"},
      {"routing_function", "none"},
      {"use_noc_latency", "1"},
      {"x", "8"},
      {"y", "8"},
      {"xr", "1"},
      {"yr", "1"},
      {"link_failures", "0"},
      {"fail_seed", "0"},
      {"in_ports", "5"},
      {"out_ports", "5"},
      {"router", "iq"},
      {"output_delay", "0"},
      {"credit_delay", "0"},
      {"internal_speedup", "1.0"},
      {"output_buffer_size", "-1"},
      {"noq", "0"},
      {"speculative", "0"},
      {"spec_check_elig", "1"},
      {"spec_check_cred", "1"},
      {"spec_mask_by_reqs", "0"},
      {"spec_sw_allocator", "prio"},
      {"num_vcs", "16"},
      {"vc_buf_size", "8"},
      {"buf_size", "-1"},
      {"buffer_policy", "private"},
      {"private_bufs", "-1"},
      {"private_buf_size", "1"},
      {"private_buf_start_vc", "-1"},
      {"private_buf_end_vc", "-1"},
      {"max_held_slots", "-1"},
      {"feedback_aging_scale", "1"},
      {"feedback_offset", "0"},
      {"wait_for_tail_credit", "0"},
      {"vc_busy_when_full", "0"},
      {"vc_prioritize_empty", "0"},
      {"vc_priority_donation", "0"},
      {"vc_shuffle_requests", "0"},
      {"hold_switch_for_packet", "0"},
      {"input_speedup", "1"},
      {"output_speedup", "1"},
      {"routing_delay", "1"},
      {"vc_alloc_delay", "1"},
      {"sw_alloc_delay", "1"},
      {"st_prepare_delay", "0"},
      {"st_final_delay", "1"},
      {"vct", "0"},
      {"vc_allocator", "islip"},
      {"sw_allocator", "islip"},
      {"arb_type", "round_robin"},
      {"alloc_iters", "1"},
      {"classes", "1"},
      {"traffic", "uniform"},
      {"class_priority", "0"},
      {"perm_seed", "0"},
      {"injection_rate", "0.1"},
      {"injection_rate_uses_flits", "0"},
      {"packet_size", "1"},
      {"packet_size_rate", "1"},
      {"injection_process", "bernoulli"},
      {"burst_alpha", "0.5"},
      {"burst_beta", "0.5"},
      {"burst_r1", "-1.0"},
      {"priority", "none"},
      {"batch_size", "1000"},
      {"batch_count", "1"},
      {"max_outstanding_requests", "0"},
      {"use_read_write", "0"},
      {"write_fraction", "0.5"},
      {"read_request_begin_vc", "0"},
      {"read_request_end_vc", "5"},
      {"write_request_begin_vc", "2"},
      {"write_request_end_vc", "7"},
      {"read_reply_begin_vc", "8"},
      {"read_reply_end_vc", "13"},
      {"write_reply_begin_vc", "10"},
      {"write_reply_end_vc", "15"},
      {"read_request_subnet", "0"},
      {"read_reply_subnet", "0"},
      {"write_request_subnet", "0"},
      {"write_reply_subnet", "0"},
      {"read_request_size", "1"},
      {"write_request_size", "1"},
      {"read_reply_size", "1"},
      {"write_reply_size", "1"},
      {"sim_type", "latency"},
      {"warmup_periods", "3"},
      {"sample_period", "1000"},
      {"max_samples", "10"},
      {"measure_stats", "1"},
      {"pair_stats", "0"},
      {"latency_thres", "500.0"},
      {"warmup_thres", "0.05"},
      {"acc_warmup_thres", "0.05"},
      {"stopping_thres", "0.05"},
      {"acc_stopping_thres", "0.05"},
      {"sim_count", "1"},
      {"include_queuing", "1"},
      {"seed", "0"},
      {"print_activity", "0"},
      {"print_csv_results", "0"},
      {"deadlock_warn_timeout", "256"},
      {"viewer_trace", "0"},
      {"watch_file", ""},
      {"watch_flits", ""},
      {"watch_packets", ""},
      {"watch_transactions", ""},
      {"watch_out", ""},
      {"stats_out", ""},
      {"injected_flits_out", ""},
      {"received_flits_out", ""},
      {"stored_flits_out", ""},
      {"sent_flits_out", ""},
      {"outstanding_credits_out", ""},
      {"ejected_flits_out", ""},
      {"active_packets_out", ""},
      {"used_credits_out", ""},
      {"free_credits_out", ""},
      {"max_credits_out", ""},
      {"sent_packets_out", ""},
      {"sim_power", "0"},
      {"power_output_file", "pwr_tmp"},
      {"tech_file", ""},
      {"channel_width", "128"},
      {"channel_sweep", "0"},
      {"network_file", ""},
      {"H_INVD2", "0"},
      {"W_INVD2", "0"},
      {"H_DFQD1", "0"},
      {"W_DFQD1", "0"},
      {"H_ND2D1", "0"},
      {"W_ND2D1", "0"},
      {"H_SRAM", "0"},
      {"W_SRAM", "0"},
      {"Vdd", "0"},
      {"R", "0"},
      {"IoffSRAM", "0"},
      {"IoffP", "0"},
      {"IoffN", "0"},
      {"Cg_pwr", "0"},
      {"Cd_pwr", "0"},
      {"Cgdl", "0"},
      {"Cg", "0"},
      {"Cd", "0"},
      {"LAMBDA", "0"},
      {"MetalPitch", "0"},
      {"Rw", "0"},
      {"Cw_gnd", "0"},
      {"Cw_cpl", "0"},
      {"wire_length", "0"},
  };
  return defaults;
}

bool same_booksim_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  auto number = [](const std::string& s, double* x) {
    std::size_t used = 0;
    try {
      *x = std::stod(s, &used);
    } catch (const std::exception&) {
      return false;
    }
    return used == s.size();
  };
  double x = 0, y = 0;
  return number(a, &x) && number(b, &y) && x == y;
}

std::string booksim_ignores(const std::string& key, const std::map<std::string, BooksimSetting>& settings) {
  auto is = [&](const char* k, const char* v) { return same_booksim_value(settings.at(k).value, v); };
  // Request-reply traffic (trafficmanager.cpp and every routing function's VC ranges).
  static const std::set<std::string> read_write = {
      "read_request_begin_vc", "read_request_end_vc",  "write_request_begin_vc", "write_request_end_vc",
      "read_reply_begin_vc",   "read_reply_end_vc",    "write_reply_begin_vc",   "write_reply_end_vc",
      "read_request_size",     "write_request_size",   "read_reply_size",        "write_reply_size",
      "read_request_subnet",   "write_request_subnet", "read_reply_subnet",      "write_reply_subnet",
      "write_fraction"};
  if (read_write.count(key) > 0 && is("use_read_write", "0"))
    return "it is read only with use_read_write = 1";
  // Batch runs (batchtrafficmanager.cpp).
  if ((key == "max_outstanding_requests" || key == "batch_size" || key == "batch_count") &&
      !is("sim_type", "batch"))
    return "it is read only with sim_type = batch";
  // Concentration and the router grid: only the cmesh and the on-chip flattened butterfly read them.
  const std::string& topology = settings.at("topology").value;
  if ((key == "c" || key == "x" || key == "y" || key == "xr" || key == "yr") && topology != "cmesh" &&
      topology != "flatfly")
    return fmt::format("only cmesh and flatfly read it, not {}", topology);
  if (key == "use_noc_latency" && topology != "torus" && topology != "mesh" && topology != "cmesh" &&
      topology != "flatfly")
    return fmt::format("{} sets its own channel latencies", topology);
  // Allocator parameters outside parentheses (allocator.cpp).
  const std::string& vc = settings.at("vc_allocator").value;
  const std::string& sw = settings.at("sw_allocator").value;
  auto bare = [&](const char* name) { return vc == name || sw == name; };
  if (key == "alloc_iters" && !bare("islip") && !bare("pim") && !bare("select"))
    return "only iSLIP, PIM and select allocators without parentheses read it";
  if (key == "arb_type" && !bare("separable_input_first") && !bare("separable_output_first"))
    return "only separable allocators without parentheses read it";
  if (key.rfind("spec_", 0) == 0 && is("speculative", "0")) return "it is read only with speculative = 1";
  if (key == "perm_seed" && settings.at("traffic").value != "randperm") return "only randperm reads it";
  if (key.rfind("burst_", 0) == 0 && settings.at("injection_process").value != "on_off")
    return "only the on/off injection process reads it";
  return "";
}

BooksimFile read_booksim_file(const std::string& text, const std::string& file) {
  BooksimFile out;
  for (const auto& [key, value] : booksim_defaults()) out.settings[key] = {value, 0, 0};
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
      const std::string key = booksim_trim(statement.substr(0, eq));
      const bool identifier = std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
      if (eq == std::string::npos || key.empty()) {
        out.errors.push_back(fmt::format("{}:{}: expected name = value; got \"{}\"", file, start_line,
                                         booksim_trim(statement)));
      } else if (!identifier) {  // BookSim's names are identifiers; anything else is no key of it
        out.errors.push_back(fmt::format("{}:{}: \"{}\" is not a BookSim key name", file, start_line, key));
      } else {
        BooksimSetting& s = out.settings[key];
        const int earlier = s.line;
        s = {booksim_trim(statement.substr(eq + 1)), start_line, earlier};
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
  if (!booksim_trim(statement).empty())
    out.errors.push_back(
        fmt::format("{}:{}: \"{}\" lacks its closing ';'", file, start_line, booksim_trim(statement)));
  return out;
}

}  // namespace mppnet::app
