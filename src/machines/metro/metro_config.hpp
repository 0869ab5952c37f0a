// machines/metro/metro_config.hpp: a METRO network study, as read from a TOML file plus --set overrides.
//
// [machine] names the machine, [metro] the network (metro_network.hpp) and, as metro.mrp.* (a [metro.mrp]
// table or mrp.<key> lines in [metro]), the MRP traffic of `mppnet run` (mrp/mrp_run.hpp), [faults] the
// fault unit and the harvest fault levels, [run] the seed and trial counts. Every key is declared once in
// metro_keys(), with its check and doc; defaults are the struct initialisers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/error.hpp"
#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "machines/metro/completeness.hpp"
#include "machines/metro/harvest.hpp"
#include "machines/metro/metro_network.hpp"
#include "machines/metro/mlink/mlink.hpp"
#include "machines/metro/mrp/mrp_run.hpp"
#include "machines/metro/yield.hpp"

namespace mppnet::machines::metro {

struct MetroMachineParams {
  // "metro", or "mbta": the same network as a machine running node programs over MLINK (mlink/);
  // registry::model_of picks the loader by it.
  std::string model = "metro";
  std::int64_t nodes = 0;  // N = radix^stages when set; 0: metro.stages decides
};

struct MetroFaultParams {
  FaultUnit unit = FaultUnit::Package;
  std::vector<double> harvest_fractions = {0.01, 0.02, 0.05, 0.075, 0.10, 0.125, 0.15, 0.175, 0.20, 0.25};
};

struct MetroRunParams {
  std::int64_t seed = 1;
  std::int64_t trials = 1000;         // yield trials
  int instances = 1;                  // network instances the trials are spread over
  std::int64_t harvest_trials = 600;  // per harvest fault level
};

// The [metro] section: the topology, and the parameters of each topology. A key that several topologies
// share (metro.radix, ...) is stored into each of their structs, so the one the file names sees it;
// network() hands that one on.
struct MetroNetworkSection {
  Topology topology = Topology::Multibutterfly;
  MultibutterflyParams multibutterfly;
  MetroFatTreeParams fat_tree;
  HybridFatTreeParams hybrid_fat_tree;

  MetroNetwork network() const;
};

struct MetroConfig {
  MetroMachineParams machine;
  MetroNetworkSection metro;
  mrp::MrpRunParams mrp;     // the keys metro.mrp.*: what `mppnet run` sends over the multibutterfly
  mlink::MlinkParams mlink;  // the keys metro.mlink.*: the MBTA's network interface (mppnet app)
  MetroFaultParams faults;
  MetroRunParams run;

  std::map<std::string, core::SourceLocation> origin;  // where each key was set
  std::string source_file;
};

const io::KeyTable<MetroConfig>& metro_keys();
std::vector<io::KeyInfo> metro_key_list();

// Reads `path`, then applies each "key=value" of `sets` in order, then check_metro(). Throws
// core::ConfigError "file:line: key: reason" for an unreadable file, TOML syntax, an unknown key (with a
// did-you-mean), a wrong type, a value out of range, and parameter sets that cannot be built.
MetroConfig load_metro(const std::string& path, const std::vector<std::string>& sets);
// The same from a file already read and parsed (the one parse of `mppnet yield` and `harvest`), leaving
// the tables of `foreign_sections` to their readers (`mppnet app`'s [am] and [app]).
MetroConfig load_metro(const io::ConfigFile& file, const std::vector<std::string>& sets,
                       const std::vector<std::string>& foreign_sections = {});
MetroConfig load_metro_text(const std::string& text, const std::string& name,
                            const std::vector<std::string>& sets);

// Every key on its own, then that a tree sets no multibutterfly-only key, check() of the network and the
// trial counts; the first problem throws, located at the origin of the key at fault.
void check_metro(const MetroConfig& c);

nlohmann::json to_json(const MetroConfig& c);

// `mppnet run`'s checks: a multibutterfly (the MRP routers are modelled on it only) that the MRP routers
// and endpoints can run; the first problem throws, located at its key.
void check_mrp_run(const MetroConfig& c);

// What `mppnet yield` and `mppnet harvest` run. REQUIRES: check_metro(c) passed.
YieldParams yield_params(const MetroConfig& c);
HarvestParams harvest_params(const MetroConfig& c);

}  // namespace mppnet::machines::metro
