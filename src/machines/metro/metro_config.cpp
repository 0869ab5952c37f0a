// machines/metro/metro_config.cpp: the declared keys of a METRO study, its loader and cross-key checks.
//
// Reading, parsing, --set and origins are io::load_config's; METRO files have no presets.
#include "machines/metro/metro_config.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/config_loader.hpp"

namespace mppnet::machines::metro {

namespace {

using io::at_least;
using io::fail_at;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

// Key `k` of one topology's params, stored into each listed struct of the [metro] section (every topology
// that reads it) and echoed from the first: all of them hold the value last set.
template <class P, class First, class... Rest>
io::Key<MetroNetworkSection> into(io::Key<P> k, First MetroNetworkSection::*first,
                                  Rest MetroNetworkSection::*... rest) {
  io::Key<MetroNetworkSection> out;
  out.spec = std::move(k.spec);
  out.store = [store = k.store, first, rest...](MetroNetworkSection& s, const io::Value& v) {
    store(s.*first, v);
    (store(s.*rest, v), ...);
  };
  out.load = [load = std::move(k.load), first](const MetroNetworkSection& s) { return load(s.*first); };
  return out;
}

// A key every topology reads (MetroNetworkParams).
io::Key<MetroNetworkSection> into_all(io::Key<MetroNetworkParams> k) {
  return into(std::move(k), &MetroNetworkSection::multibutterfly, &MetroNetworkSection::fat_tree,
              &MetroNetworkSection::hybrid_fat_tree);
}

io::KeyTable<MetroConfig> make_table() {
  return io::KeyTable<MetroConfig>{
      section("machine", &MetroConfig::machine,
              {
                  key("model", &MetroMachineParams::model, one_of({"metro", "mbta"}),
                      "The simulation model this file configures: metro, a METRO multipath multistage "
                      "network; mbta, the same network as a machine whose nodes run programs over MLINK "
                      "(configs/mbta-64.toml, docs/metro.md §10)."),
                  key("nodes", &MetroMachineParams::nodes, in_range(0, 1e9),
                      "Nodes, a power of metro.radix: sets metro.stages = log_radix(nodes) (the MBTA "
                      "series: 16, 64, 256); 0 = from metro.stages."),
              }),
      section(
          "metro", &MetroConfig::metro,
          {
              key("topology", &MetroNetworkSection::topology, one_of(topology_names()),
                  "multibutterfly (flat, §3.5), fat_tree (§3.5.6) or hybrid_fat_tree (multibutterfly "
                  "clusters as leaves, §3.5.7); docs/metro.md §8."),
              into_all(key("radix", &MetroNetworkParams::radix, in_range(2, 64),
                           "r: logically distinct directions per router.")),
              into_all(key("dilation", &MetroNetworkParams::dilation, in_range(1, 16),
                           "d: equivalent outputs per direction before the final stage.")),
              into_all(key("stages", &MetroNetworkParams::stages, in_range(1, 20),
                           "S: routing stages, radix^stages nodes; trees: tree levels L (fat_tree: radix^L "
                           "nodes; hybrid_fat_tree: radix^L clusters).")),
              into_all(key("node_inputs", &MetroNetworkParams::node_inputs, in_range(1, 16),
                           "ni: network inputs per node.")),
              into_all(key("node_outputs", &MetroNetworkParams::node_outputs, in_range(1, 16),
                           "no: network outputs per node (final routers per destination times "
                           "final_dilation).")),
              into(key("extra_stages", &MultibutterflyParams::extra_stages, in_range(0, 8),
                       "E: extra stages of r x d routers in front that route on no digit (§3.3.4); each "
                       "multiplies the paths per pair by radix*dilation."),
                   &MetroNetworkSection::multibutterfly),
              into_all(key("final_dilation", &MetroNetworkParams::final_dilation, in_range(1, 16),
                           "d_S: equivalent outputs per direction in the final stage; 1 = Fig 3.11 (no "
                           "distinct final routers per node), >1 = full-size final routers, final_pairing = "
                           "single.")),
              into(key("up_directions", &MetroTreeParams::up_directions, in_range(1, 63),
                       "Trees: directions of an up router that lead up (the other radix - up_directions "
                       "cross over into successive down levels); 1 = Fig 3.30; more = more capacity to the "
                       "root."),
                   &MetroNetworkSection::fat_tree, &MetroNetworkSection::hybrid_fat_tree),
              into(key("cluster_stages", &HybridFatTreeParams::cluster_stages, in_range(2, 12),
                       "hybrid_fat_tree: routing stages per leaf cluster of "
                       "(radix-1)*radix^(cluster_stages-1) nodes, the first (r-1 directions in, 1 up) "
                       "included."),
                   &MetroNetworkSection::hybrid_fat_tree),
              into(key("wiring", &MultibutterflyParams::wiring, one_of(wiring_names()),
                       "Interstage wiring: deterministic (maximal path expansion), random, or maximal_fanout "
                       "(randomized maximal fanout)."),
                   &MetroNetworkSection::multibutterfly),
              into(key("endpoints", &MultibutterflyParams::endpoints, one_of(endpoint_wiring_names()),
                       "Node-to-stage-1 wiring; auto: block / spread / random for deterministic / random / "
                       "maximal_fanout (docs/metro.md)."),
                   &MetroNetworkSection::multibutterfly),
              into(key("final_pairing", &MultibutterflyParams::final_pairing, one_of(final_pairing_names()),
                       "Which final-stage routers share a package: symmetric, random, or single."),
                   &MetroNetworkSection::multibutterfly),
          }),
      // metro.mrp.*: in the [metro] section, as a [metro.mrp] table or mrp.<key> lines.
      section("metro", &MetroConfig::mrp,
              {
                  key("mrp.width", &mrp::MrpRunParams::width, in_range(1, 32),
                      "w: data bits per router word (RN1, METRO and the MBTA: 8)."),
                  key("mrp.dps", &mrp::MrpRunParams::dps, in_range(1, 16),
                      "Router data latency in cycles; 2 = the MBTA's one cycle per router and one per wire "
                      "(70 ns one way at 100 MHz)."),
                  key("mrp.period_ps", &mrp::MrpRunParams::period_ps, in_range(1, 1e9),
                      "Router clock period in ps (METRO/MBTA at 100 MHz: 10000)."),
                  key("mrp.message_words", &mrp::MrpRunParams::message_words, in_range(1, 1e6),
                      "Words after the ROUTE: source id, sequence number, payload and 2 check words "
                      "(FLAT24: 24)."),
                  key("mrp.outstanding", &mrp::MrpRunParams::outstanding, in_range(1, 63),
                      "Messages a node holds unacknowledged before it stalls (Appendix A: 4)."),
                  key("mrp.max_attempts", &mrp::MrpRunParams::max_attempts, in_range(0, 1e9),
                      "Attempts before a message is reported failed; 0 = retry until delivered."),
                  key("mrp.suppress_duplicates", &mrp::MrpRunParams::suppress_duplicates, io::any_value(),
                      "Destinations accept each (source, sequence number) once; false delivers every "
                      "intact copy (the thesis's idempotent operations)."),
                  key("mrp.fast_reclaim", &mrp::MrpRunParams::fast_reclaim, io::any_value(),
                      "Fast path reclamation (back-drop, §4.9.2) in every router."),
                  key("mrp.load", &mrp::MrpRunParams::load, io::above_up_to(0, 1),
                      "New messages per router cycle per node while it holds fewer than "
                      "metro.mrp.outstanding (FLAT24: 0.04)."),
                  key("mrp.messages", &mrp::MrpRunParams::messages, in_range(1, 1e8),
                      "Messages per node in the run (FLAT24: 400, one barrier phase)."),
                  key("mrp.max_cycles", &mrp::MrpRunParams::max_cycles, in_range(1, 1e12),
                      "The run stops after this many router cycles even with messages left."),
                  key("mrp.phases", &mrp::MrpRunParams::phases, in_range(1, 1e6),
                      "Barrier phases of metro.mrp.messages per node each (FLAT24: a barrier every 400)."),
                  key("mrp.barrier", &mrp::MrpRunParams::barrier, io::any_value(),
                      "Barrier between phases; false sends phases * messages per node with no "
                      "synchronisation (the ablation of Appendix A.3.4)."),
              }),
      // metro.mlink.*: the MBTA's network interface under `mppnet app` (mlink/mlink.hpp).
      section("metro", &MetroConfig::mlink,
              {
                  key("mlink.max_trials", &mlink::MlinkParams::max_trials, in_range(0, 1e9),
                      "mbta: connection trials MLINK makes before it reports an operation failed "
                      "(§11.1); 0 = retry until delivered."),
                  key("mlink.read_access_cycles", &mlink::MlinkParams::read_access_cycles, in_range(0, 1000),
                      "mbta: router cycles from a READ's TURN to its first data byte (one 80 ns bus slot "
                      "at 100 MHz: 8); DATA-IDLE fills the wait (Fig 11.1)."),
              }),
      // The faults of `mppnet run` (Fig 3.27): stored with the run's parameters.
      section("faults", &MetroConfig::mrp,
              {
                  key("packages", &mrp::MrpRunParams::faulty_packages, in_range(0, 1e6),
                      "mppnet run: whole packages faulty and masked, drawn at random (seed run.seed) "
                      "among fault sets that leave the network complete."),
                  key("max_draws", &mrp::MrpRunParams::fault_draws, in_range(1, 1e6),
                      "mppnet run: fault sets drawn at most until one leaves the network complete; "
                      "1 = the first draw, reported and not run when incomplete."),
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

}  // namespace

MetroNetwork MetroNetworkSection::network() const {
  switch (topology) {
    case Topology::Multibutterfly:
      return multibutterfly;
    case Topology::FatTree:
      return fat_tree;
    case Topology::HybridFatTree:
      return hybrid_fat_tree;
  }
  return multibutterfly;
}

const io::KeyTable<MetroConfig>& metro_keys() {
  static const io::KeyTable<MetroConfig> table = make_table();
  return table;
}

std::vector<io::KeyInfo> metro_key_list() {
  return metro_keys().list();
}

namespace {

// machine.nodes chooses the stage count: N = r^S.
void apply_node_count(MetroConfig& c) {
  MetroNetworkParams& p = c.metro.multibutterfly;
  std::int64_t n = 1;
  int stages = 0;
  while (n < c.machine.nodes) {
    n *= p.radix;
    ++stages;
  }
  if (n != c.machine.nodes)
    fail_at(
        c, "machine.nodes",
        fmt::format("{} nodes is not a power of metro.radix = {}: a multibutterfly has radix^stages nodes",
                    c.machine.nodes, p.radix));
  if (c.origin.count("metro.stages") != 0 && p.stages != stages)
    fail_at(c, "machine.nodes",
            fmt::format("{} nodes need {} stages of radix {}, but metro.stages = {}", c.machine.nodes, stages,
                        p.radix, p.stages));
  if (c.metro.topology != Topology::Multibutterfly)
    fail_at(c, "machine.nodes", "sets the stages of a multibutterfly; a tree's size is metro.stages");
  p.stages = stages;
  // A problem with the stages it chose is reported where the node count was set.
  if (c.origin.count("metro.stages") == 0) c.origin["metro.stages"] = c.origin.at("machine.nodes");
}

}  // namespace

MetroConfig load_metro(const std::string& path, const std::vector<std::string>& sets) {
  return load_metro(io::open_config_file(path), sets);
}

MetroConfig load_metro(const io::ConfigFile& file, const std::vector<std::string>& sets,
                       const std::vector<std::string>& foreign_sections) {
  MetroConfig c = io::load_config(metro_keys(), file.doc, file.path, sets, {}, foreign_sections);
  if (c.machine.nodes > 0) apply_node_count(c);
  check_metro(c);
  return c;
}

MetroConfig load_metro_text(const std::string& text, const std::string& name,
                            const std::vector<std::string>& sets) {
  return load_metro(io::config_file_from_text(text, name), sets);
}

void check_metro(const MetroConfig& c) {
  io::check_keys(metro_keys(), c);
  // Extra stages and random wirings are the multibutterfly's: a tree that sets them is an error, not a
  // silent default, since the file would not describe the network that runs.
  if (c.metro.topology != Topology::Multibutterfly) {
    const char* name = c.metro.topology == Topology::HybridFatTree ? "a hybrid fat tree" : "a fat tree";
    const MultibutterflyParams& mb = c.metro.multibutterfly;
    if (mb.extra_stages != 0)
      fail_at(
          c, "metro.extra_stages",
          fmt::format("extra stages are for multibutterflies; {} has none (got {})", name, mb.extra_stages));
    if (mb.wiring != Wiring::Deterministic)
      fail_at(c, "metro.wiring",
              fmt::format("{} is wired deterministically only (got \"{}\")", name,
                          wiring_names()[static_cast<int>(mb.wiring)]));
  }
  const MetroNetwork network = c.metro.network();
  for (const auto& p : check(network)) fail_at(c, p.key, p.reason);
  const long long nodes = network_nodes(network);
  if (nodes > kMaxTrackedNodes)
    fail_at(c, "metro.stages",
            fmt::format("yield and harvest studies track at most {} nodes; this network has {}",
                        kMaxTrackedNodes, nodes));
  if (c.run.instances > c.run.trials)
    fail_at(c, "run.instances",
            fmt::format("{} instances need at least as many trials (run.trials is {})", c.run.instances,
                        c.run.trials));
  if (c.faults.harvest_fractions.empty())
    fail_at(c, "faults.harvest_fractions", "needs at least one fraction of faulty packages");
}

nlohmann::json to_json(const MetroConfig& c) {
  return metro_keys().to_json(c);
}

void check_mrp_run(const MetroConfig& c) {
  if (c.metro.topology != Topology::Multibutterfly)
    fail_at(c, "metro.topology",
            fmt::format("MRP traffic runs on multibutterflies only (got \"{}\"); use mppnet yield",
                        topology_names()[static_cast<int>(c.metro.topology)]));
  for (const auto& p : mrp::check_mrp_run(c.metro.multibutterfly, c.mrp)) fail_at(c, p.key, p.reason);
}

YieldParams yield_params(const MetroConfig& c) {
  YieldParams p;
  p.network = c.metro.network();
  p.unit = c.faults.unit;
  p.trials = c.run.trials;
  p.instances = c.run.instances;
  p.seed = static_cast<std::uint64_t>(c.run.seed);
  return p;
}

HarvestParams harvest_params(const MetroConfig& c) {
  // Chong's algorithm (harvest.hpp) walks the stages of a multibutterfly; the trees have none.
  if (c.metro.topology != Topology::Multibutterfly)
    fail_at(c, "metro.topology",
            fmt::format("harvest runs on multibutterflies only (got \"{}\"); use mppnet yield",
                        topology_names()[static_cast<int>(c.metro.topology)]));
  HarvestParams p;
  p.network = c.metro.multibutterfly;
  p.fault_fractions = c.faults.harvest_fractions;
  p.trials = c.run.harvest_trials;
  // Each harvest trial uses one instance; more instances than trials would leave some unused, so a yield
  // setting of run.instances never makes a harvest config invalid.
  p.instances = static_cast<int>(std::min<long long>(c.run.instances, c.run.harvest_trials));
  p.seed = static_cast<std::uint64_t>(c.run.seed);
  return p;
}

}  // namespace mppnet::machines::metro
