// machines/metro/metro_config.cpp: the declared keys of a METRO study and its loader.
//
// The loading steps copy the minimum of exp/experiment_config.cpp (read_file, parse, set_document,
// set_arg, origin lookup): that file keeps them in an anonymous namespace and ties them to
// ExperimentConfig. A generic io::load_config<T>(table, text, name, sets) would serve both.
#include "machines/metro/metro_config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mppnet::machines::metro {

namespace {

using core::ConfigError;
using core::SourceLocation;
using io::at_least;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

io::KeyTable<MetroConfig> make_table() {
  return io::KeyTable<MetroConfig>{
      section("machine", &MetroConfig::machine,
              {
                  key("model", &MetroMachineParams::model, one_of({"metro"}),
                      "The simulation model this file configures: a METRO multipath multistage network."),
              }),
      section("metro", &MetroConfig::metro,
              {
                  key("radix", &MultibutterflyParams::radix, in_range(2, 64),
                      "r: logically distinct directions per router."),
                  key("dilation", &MultibutterflyParams::dilation, in_range(1, 16),
                      "d: equivalent outputs per direction in stages 1..S-1 (the final stage has 1)."),
                  key("stages", &MultibutterflyParams::stages, in_range(2, 20),
                      "S: routing stages; radix^stages nodes."),
                  key("node_inputs", &MultibutterflyParams::node_inputs, in_range(1, 16),
                      "ni: network inputs per node."),
                  key("node_outputs", &MultibutterflyParams::node_outputs, in_range(1, 16),
                      "no: network outputs per node (final routers per destination)."),
                  key("wiring", &MultibutterflyParams::wiring, one_of(wiring_names()),
                      "Interstage wiring: deterministic (maximal path expansion), random, or maximal_fanout "
                      "(randomized maximal fanout)."),
                  key("endpoints", &MultibutterflyParams::endpoints, one_of(endpoint_wiring_names()),
                      "Node-to-stage-1 wiring; auto: block / spread / random for deterministic / random / "
                      "maximal_fanout (docs/metro.md)."),
                  key("final_pairing", &MultibutterflyParams::final_pairing, one_of(final_pairing_names()),
                      "Which final-stage routers share a package: symmetric, random, or single."),
              }),
      section("faults", &MetroConfig::faults,
              {
                  key("unit", &MetroFaultParams::unit, one_of(fault_unit_names()),
                      "Yield fault unit: whole packages (the thesis), routers, or links."),
                  key("harvest_fractions", &MetroFaultParams::harvest_fractions, in_range(0, 1),
                      "Harvest: fractions of the packages that are faulty, one study point each."),
              }),
      section(
          "run", &MetroConfig::run,
          {
              key("seed", &MetroRunParams::seed, at_least(0), "Seed of every random stream."),
              key("trials", &MetroRunParams::trials, in_range(1, 1e7), "Yield trials (each keeps one int)."),
              key("instances", &MetroRunParams::instances, in_range(1, 10000000),
                  "Network instances the trials are spread over (trial t uses instance t mod this)."),
              key("harvest_trials", &MetroRunParams::harvest_trials, in_range(1, 1e6),
                  "Harvest trials per fault level."),
          }),
  };
}

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

SourceLocation origin_of(const MetroConfig& c, const std::string& key) {
  const auto it = c.origin.find(key.substr(0, key.find('[')));
  return it != c.origin.end() ? it->second : SourceLocation{c.source_file, 0};
}

}  // namespace

const io::KeyTable<MetroConfig>& metro_keys() {
  static const io::KeyTable<MetroConfig> table = make_table();
  return table;
}

std::vector<io::KeyInfo> metro_key_list() {
  return metro_keys().list();
}

MetroConfig load_metro(const std::string& path, const std::vector<std::string>& sets) {
  return load_metro_text(read_file(path), path, sets);
}

MetroConfig load_metro_text(const std::string& text, const std::string& name,
                            const std::vector<std::string>& sets) {
  toml::table doc;
  try {
    doc = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw ConfigError({name, static_cast<int>(e.source().begin.line)}, "", std::string(e.description()));
  }
  MetroConfig c;
  c.source_file = name;
  metro_keys().set_document(c, doc, name, &c.origin);
  for (const auto& s : sets) metro_keys().set_arg(c, s, &c.origin);
  check_metro(c);
  return c;
}

void check_metro(const MetroConfig& c) {
  metro_keys().check(c, [&](const std::string& key) { return origin_of(c, key); });
  for (const auto& p : check(c.metro)) throw ConfigError(origin_of(c, p.key), p.key, p.reason);
  long long nodes = 1;
  for (int s = 0; s < c.metro.stages && nodes <= kMaxTrackedNodes; ++s) nodes *= c.metro.radix;
  if (nodes > kMaxTrackedNodes)
    throw ConfigError(
        origin_of(c, "metro.stages"), "metro.stages",
        fmt::format("yield and harvest studies track at most {} nodes; radix^stages = {}^{} is more",
                    kMaxTrackedNodes, c.metro.radix, c.metro.stages));
  if (c.run.instances > c.run.trials)
    throw ConfigError(origin_of(c, "run.instances"), "run.instances",
                      fmt::format("{} instances need at least as many trials (run.trials is {})",
                                  c.run.instances, c.run.trials));
  if (c.run.instances > c.run.harvest_trials)
    throw ConfigError(
        origin_of(c, "run.instances"), "run.instances",
        fmt::format("{} instances need at least as many harvest trials (run.harvest_trials is {})",
                    c.run.instances, c.run.harvest_trials));
}

nlohmann::json to_json(const MetroConfig& c) {
  return metro_keys().to_json(c);
}

YieldParams yield_params(const MetroConfig& c) {
  YieldParams p;
  p.network = c.metro;
  p.unit = c.faults.unit;
  p.trials = c.run.trials;
  p.instances = c.run.instances;
  p.seed = static_cast<std::uint64_t>(c.run.seed);
  return p;
}

HarvestParams harvest_params(const MetroConfig& c) {
  HarvestParams p;
  p.network = c.metro;
  p.fault_fractions = c.faults.harvest_fractions;
  p.trials = c.run.harvest_trials;
  p.instances = c.run.instances;
  p.seed = static_cast<std::uint64_t>(c.run.seed);
  return p;
}

}  // namespace mppnet::machines::metro
