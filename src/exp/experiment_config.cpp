// exp/experiment_config.cpp: loading an experiment (preset, file, --set) and checking it across keys.
#include "exp/experiment_config.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exp/experiment_keys.hpp"
#include "topo/build.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

using core::ConfigError;
using core::SourceLocation;

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw ConfigError({path, 0}, "", fmt::format("cannot read file: {}", std::strerror(errno)));
  std::string text;
  char buf[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed) throw ConfigError({path, 0}, "", fmt::format("cannot read file: {}", std::strerror(err)));
  return text;
}

// The key of a "key=value" argument, as read_arg will see it.
std::string arg_key(const std::string& arg) {
  std::string key = arg.substr(0, arg.find('='));
  key.erase(0, key.find_first_not_of(" \t"));
  key.erase(key.find_last_not_of(" \t") + 1);
  return key;
}

ExperimentConfig load_document(const toml::table& doc, const std::string& name,
                               const std::vector<std::string>& sets) {
  const auto& table = experiment_keys();
  const auto& keys = table.keys();
  ExperimentConfig c;
  c.source_file = name;

  // The preset goes first, so that the file's keys and --set override it.
  std::optional<io::KeySet::Assignment> preset;
  if (const toml::node* n = doc.at_path("machine.preset").node()) {
    const SourceLocation where{name, static_cast<int>(n->source().begin.line)};
    const auto key = *keys.find("machine.preset");
    preset = io::KeySet::Assignment{key, keys.read(key, *n, where), where};
  }
  for (const auto& s : sets)
    if (arg_key(s) == "machine.preset") preset = keys.read_arg(s);
  if (preset) {
    table.apply(c, *preset, &c.origin);
    for (const auto& [key, value] : machine_preset(c.machine.preset).sets)
      table.set_text(c, key, value, preset->where, &c.origin);
  }

  table.set_document(c, doc, name, &c.origin);
  for (const auto& s : sets) table.set_arg(c, s, &c.origin);
  check_experiment(c);
  return c;
}

// Where `key` was set ("topology.parents[2]" counts as topology.parents); the file alone for a default.
SourceLocation origin_of(const ExperimentConfig& c, const std::string& key) {
  const auto it = c.origin.find(key.substr(0, key.find('[')));
  return it != c.origin.end() ? it->second : SourceLocation{c.source_file, 0};
}

[[noreturn]] void fail(const ExperimentConfig& c, const std::string& key, const std::string& reason) {
  throw ConfigError(origin_of(c, key), key, reason);
}

// Of two keys in conflict, the one the user set (the first if both or neither).
std::string blame(const ExperimentConfig& c, const std::string& a, const std::string& b) {
  return c.origin.count(a) > 0 || c.origin.count(b) == 0 ? a : b;
}

void check_sweep(const ExperimentConfig& c) {
  const SweepParams& s = c.sweep;
  if (s.to < s.from)
    fail(c, blame(c, "sweep.to", "sweep.from"),
         fmt::format("sweep.to ({}) is below sweep.from ({})", s.to, s.from));
  const auto& keys = experiment_keys().keys();
  const auto swept = keys.find(s.key);
  if (!swept) fail(c, "sweep.key", fmt::format("\"{}\" is not a declared key", s.key));
  const io::KeySpec& spec = keys.specs()[*swept];
  const bool integral = spec.type != io::KeyType::Double;
  const std::pair<const char*, double> ends[] = {{"sweep.from", s.from}, {"sweep.to", s.to}};
  for (const auto& [key, v] : ends) {
    const std::string shown = fmt::format("{}", v);
    if (integral && v != std::floor(v))
      fail(c, key, fmt::format("{} takes whole numbers (got {})", s.key, shown));
    if (auto why = io::range_problem(spec, v, shown); !why.empty())
      fail(c, key, fmt::format("not a valid {}: {}", s.key, why));
  }
  if (integral && s.step != std::floor(s.step))
    fail(c, "sweep.step", fmt::format("{} takes whole numbers (got {})", s.key, s.step));
}

}  // namespace

ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& sets) {
  return load_experiment_text(read_file(path), path, sets);
}

ExperimentConfig load_experiment_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& sets) {
  toml::table doc;
  try {
    doc = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw ConfigError({name, static_cast<int>(e.source().begin.line)}, "", std::string(e.description()));
  }
  return load_document(doc, name, sets);
}

nlohmann::json to_json(const ExperimentConfig& c) {
  return experiment_keys().to_json(c);
}

void check_experiment(const ExperimentConfig& c) {
  // Every key on its own first: a config filled in code has not been through the loader's checks.
  experiment_keys().check(c, [&](const std::string& key) { return origin_of(c, key); });
  for (const auto& p : topo::check(c.topology, c.router.vcs)) fail(c, p.key, p.reason);
  for (const auto& p : workload::check(c.traffic, topo::node_count(c.topology))) fail(c, p.key, p.reason);

  // Cut-through and store-and-forward move a head only when the next VC buffer can hold the whole packet.
  if (c.router.switching != net::Switching::Wormhole) {
    const auto& sizes = c.traffic.packet_sizes;
    const bool by_sizes = !sizes.empty();
    const int largest = by_sizes ? *std::max_element(sizes.begin(), sizes.end()) : c.traffic.packet_flits;
    if (c.router.buffer_flits < largest) {
      fail(c, "router.buffer_flits",
           fmt::format(
               "{} switching needs a VC buffer that holds the largest packet: {} flits is less than {} ({})",
               experiment_keys().get(c, "router.switching").get<std::string>(), c.router.buffer_flits,
               largest, by_sizes ? "the largest of traffic.packet_sizes" : "traffic.packet_flits"));
    }
  }

  const RunParams& r = c.run;
  if (r.max_warmup_cycles < r.warmup_cycles) {
    fail(c, blame(c, "run.max_warmup_cycles", "run.warmup_cycles"),
         fmt::format("run.max_warmup_cycles ({}) is below run.warmup_cycles ({})", r.max_warmup_cycles,
                     r.warmup_cycles));
  }
  if (r.max_batches < r.min_batches) {
    fail(c, blame(c, "run.max_batches", "run.min_batches"),
         fmt::format("run.max_batches ({}) is below run.min_batches ({})", r.max_batches, r.min_batches));
  }
  check_sweep(c);
}

}  // namespace mppnet::exp
