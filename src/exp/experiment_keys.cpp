// exp/experiment_keys.cpp: the declared keys of an experiment ([machine] ... [sweep]) and the presets.
#include "exp/experiment_keys.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "registry/registry.hpp"
#include "topo/topology_keys.hpp"
#include "workload/traffic_names.hpp"

namespace mppnet::exp {

namespace {

using io::at_least;
using io::greater_than;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

std::vector<std::string> strings(std::span<const char* const> names) {
  return {names.begin(), names.end()};
}

// Names in enum order: names[i] is the config spelling of static_cast<Enum>(i).
const std::vector<std::string> kSwitchingNames = {"wormhole", "virtual_cut_through", "store_and_forward"};
const std::vector<std::string> kAllocatorNames = {"input_first", "output_first"};
const std::vector<std::string> kRunModeNames = {"latency", "throughput", "fixed"};
const std::vector<std::string> kWarmupRuleNames = {"settle", "fixed"};
const std::vector<std::string> kStopRuleNames = {"ci", "converged"};
const std::vector<std::string> kVcAllocatorNames = {"auto", "input_first", "output_first", "wavefront"};
const std::vector<std::string> kVcChoiceNames = {"lowest_free", "round_robin", "random"};
const std::vector<std::string> kVcArbiterNames = {"per_router", "per_output_vc"};

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& p : machine_presets()) names.push_back(p.name);
  return names;
}

// sweep.key names a declared int or float key outside [sweep].
std::string check_sweep_key(const io::Value& v) {
  const auto& name = std::get<std::string>(v);
  const auto& keys = experiment_keys().keys();
  std::vector<std::string> numeric;
  for (const auto& s : keys.specs())
    if (s.is_numeric() && s.section() != "sweep") numeric.push_back(s.name);
  if (std::find(numeric.begin(), numeric.end(), name) != numeric.end()) return "";
  if (keys.find(name))
    return fmt::format("\"{}\" is not a numeric key; a sweep varies an int or float key", name);
  const auto guess = io::nearest(name, numeric);
  if (!guess.empty()) return fmt::format("\"{}\" is not a numeric key (did you mean {}?)", name, guess);
  return fmt::format("\"{}\" is not a numeric key; see `mppnet list keys`", name);
}

io::KeyTable<ExperimentConfig> make_table() {
  using net::RouterParams;
  using workload::TrafficParams;
  return io::KeyTable<ExperimentConfig>{
      section("machine", &ExperimentConfig::machine,
              {
                  key("model", &MachineParams::model, one_of({"network"}),
                      "The simulation model: network (this table); each machine model's files have their own "
                      "keys."),
                  key("preset", &MachineParams::preset, one_of(preset_names()),
                      "Named machine whose keys are applied before the file's own (`mppnet list machines`)."),
              }),
      section("network", &ExperimentConfig::router,
              {
                  key("model", &RouterParams::model, one_of({"flit", "packet"}),
                      "Level of detail: flit (every flit, cycle by cycle) or packet (whole packets, events "
                      "only; docs/validation.md, \"Fidelity\", says how far apart they are)."),
              }),
      // Each topology declares its own keys (topo/topology_keys.hpp); this table only places them.
      section("topology", &ExperimentConfig::topology, topo::topology_config_keys()),
      section(
          "router", &ExperimentConfig::router,
          {
              key("vcs", &RouterParams::vcs, in_range(1, 64), "Virtual channels per port."),
              key("buffer_flits", &RouterParams::buffer_flits, in_range(1, 4096),
                  "Flit slots per VC per input port."),
              key("pipeline_cycles", &RouterParams::pipeline_cycles, in_range(1, 64),
                  "Shorthand for sw_alloc_delay + st_delay (sets st_delay, sw_alloc_delay 0): a flit that "
                  "wins the switch at t reaches the next input at t + this + channel_latency."),
              key("channel_latency", &RouterParams::channel_latency, in_range(1, 1024),
                  "Cycles on every channel, router-router and node-router; also the credit delay unless "
                  "credit_delay is set."),
              key("routing_delay", &RouterParams::routing_delay, in_range(0, 64),
                  "Head flits: cycles from reaching the front of the input VC to a known route."),
              key("vc_alloc_delay", &RouterParams::vc_alloc_delay, in_range(0, 64),
                  "Head flits: cycles from winning an output VC to bidding for the switch."),
              key("sw_alloc_delay", &RouterParams::sw_alloc_delay, in_range(0, 63),
                  "Cycles from winning the switch to starting the traversal."),
              key("st_delay", &RouterParams::st_delay, in_range(1, 64), "Switch traversal cycles."),
              key("credit_delay", &RouterParams::credit_delay, in_range(0, 1024),
                  "Cycles a credit takes back upstream (0: channel_latency)."),
              key("speculative", &RouterParams::speculative, io::any_value(),
                  "VC and switch allocation in one stage: a head bids for the switch max(0, vc_alloc_delay "
                  "- sw_alloc_delay) cycles after winning its VC instead of vc_alloc_delay."),
              key("speedup", &RouterParams::speedup, in_range(1, 8),
                  "Crossbar passes per cycle (flits per input and per output per cycle)."),
              key("switching", &RouterParams::switching, one_of(kSwitchingNames),
                  "When a flit may advance: one free slot (wormhole), room for the packet (cut-through), "
                  "or the whole packet here too (store-and-forward)."),
              key("allocator", &RouterParams::allocator, one_of(kAllocatorNames),
                  "Separable round-robin switch allocator, inputs or outputs picking first; also the VC "
                  "allocator's kind while vc_allocator = auto."),
              key("allocator_iterations", &RouterParams::allocator_iterations, in_range(1, 8),
                  "Switch allocator iterations per crossbar pass; later ones match what the first left "
                  "free (iSLIP)."),
              key("vc_allocator", &RouterParams::vc_allocator, one_of(kVcAllocatorNames),
                  "VC allocator: auto (allocator's kind), separable input_first or output_first, or "
                  "wavefront (Tamir and Chi 1993, a maximal matching)."),
              key("vc_choice", &RouterParams::vc_choice, one_of(kVcChoiceNames),
                  "VC a packet asks for on each port: lowest_free, round_robin (a rotating pointer per "
                  "port) or random (uniform among the usable VCs)."),
              key("vc_arbiter", &RouterParams::vc_arbiter, one_of(kVcArbiterNames),
                  "Round-robin pointer of a separable VC allocator's output stage: one per router "
                  "(moved by every grant in it) or one per output VC (BookSim's; fair to inputs that "
                  "contend for one output)."),
              key("in_order", &RouterParams::in_order, io::any_value(),
                  "Deliver each (source, destination, virtual network)'s packets in the order sent, on a "
                  "routing whose path is fixed by source and destination (dimension order): every route "
                  "takes only the lowest VC of each class it offers, and a node injects on its network's "
                  "first VC."),
              key("cycle_ps", &RouterParams::cycle_ps, io::in_range(1, 1e9),
                  "Router clock period in picoseconds (1000 = 1 GHz; the CM-5 data network: 25000)."),
              // The network counts ejection tokens in 16.16 fixed point: 1/65536 is the smallest rate it
              // can hold (a smaller one was once taken and overflowed the watchdog's cross-check).
              key("eject_flits_per_cycle", &RouterParams::eject_flits_per_cycle, io::in_range(1.0 / 65536, 1),
                  "Rate at which a node drains arriving flits, per link (1/65536 = 1.52588e-05 at least)."),
          }),
      section(
          "traffic", &ExperimentConfig::traffic,
          {
              key("pattern", &TrafficParams::pattern, one_of(strings(workload::pattern_names())),
                  "Destination pattern; bit patterns need 2^m nodes."),
              key("rate", &TrafficParams::rate, io::above_up_to(0, 1),
                  "Offered load, flits per node per cycle."),
              key("self", &TrafficParams::self, io::any_value(),
                  "Whether a random destination may be the source itself: uniform, hot_spot's uniform part "
                  "and random_permutation (any permutation instead of a derangement). The fixed maps (bit "
                  "patterns, tornado, neighbor) keep their own fixed points either way."),
              key("injection", &TrafficParams::injection, one_of(strings(workload::injection_names())),
                  "Arrival process: bernoulli, or on_off bursts with the same mean rate."),
              key("packet_flits", &TrafficParams::packet_flits, in_range(1, 4096),
                  "Packet length in flits, used when packet_sizes is empty."),
              key("packet_sizes", &TrafficParams::packet_sizes, in_range(1, 4096),
                  "Packet lengths in flits of a discrete distribution (empty: packet_flits)."),
              key("packet_weights", &TrafficParams::packet_weights, greater_than(0),
                  "Relative weights of packet_sizes (empty: equal)."),
              key("burst_packets", &TrafficParams::burst_packets, at_least(1),
                  "On/off: mean packets per burst."),
              key("burst_rate", &TrafficParams::burst_rate, greater_than(0),
                  "On/off: flits per cycle offered while on."),
              key("hotspot_fraction", &TrafficParams::hotspot_fraction, in_range(0, 1),
                  "Hot spot: probability that a packet goes to one of hotspot_nodes."),
              key("hotspot_nodes", &TrafficParams::hotspot_nodes, at_least(0), "Hot spot: the hot nodes."),
          }),
      section("run", &ExperimentConfig::run,
              {
                  key("mode", &RunParams::mode, one_of(kRunModeNames),
                      "latency: open loop at traffic.rate, warm-up until latency settles, batches until "
                      "target_ci, drain; throughput: every source always has a packet waiting (offered "
                      "load 1), accepted flits per node and per source after warmup_cycles, batches until "
                      "target_ci; fixed: open loop at traffic.rate for exactly run.cycles cycles, measuring "
                      "after warmup_cycles, no drain."),
                  key("cycles", &RunParams::cycles, in_range(0, 1e12),
                      "Fixed mode: cycles simulated, warm-up included (0: not a fixed run)."),
                  key("seed", &RunParams::seed, at_least(0), "Seed of every random stream."),
                  key("warmup_cycles", &RunParams::warmup_cycles, at_least(0),
                      "Minimum warm-up; extended until batch latencies stop drifting."),
                  key("max_warmup_cycles", &RunParams::max_warmup_cycles, at_least(0),
                      "Warm-up that never stabilises within this means saturation."),
                  key("batch_cycles", &RunParams::batch_cycles, at_least(1),
                      "Length of one batch of the batch-means estimator."),
                  key("min_batches", &RunParams::min_batches, at_least(2),
                      "Batches measured at least (two or more, for a confidence interval)."),
                  key("max_batches", &RunParams::max_batches, at_least(2), "Batches measured at most."),
                  key("target_ci", &RunParams::target_ci, io::above_up_to(0, 1),
                      "Stop measuring once the 95% CI half-width / mean is below this."),
                  key("warmup_rule", &RunParams::warmup_rule, one_of(kWarmupRuleNames),
                      "Latency mode: settle: warm up for warmup_cycles and then until a batch's latency is "
                      "within 5% of the one before (saturated if that takes past max_warmup_cycles); "
                      "fixed: warm up for exactly warmup_cycles, in whole batches (BookSim's rule with "
                      "warmup_periods > 0)."),
                  key("stop_rule", &RunParams::stop_rule, one_of(kStopRuleNames),
                      "Latency mode: ci: measure until the 95% CI half-width / mean is below target_ci; "
                      "converged: until min_batches batches in a row each change the mean latency of the "
                      "packets delivered since measuring began, and the accepted rate, by at most "
                      "converge_change (BookSim's rule); at most max_batches either way."),
                  key("converge_change", &RunParams::converge_change, io::above_up_to(0, 1),
                      "stop_rule = converged: the largest relative change of a converged batch."),
                  key("saturation_latency", &RunParams::saturation_latency, greater_than(0),
                      "Mean packet latency (cycles) above which a run counts as saturated."),
                  key("drain_cycles", &RunParams::drain_cycles, at_least(0),
                      "Limit on draining the measured packets after measurement."),
                  key("max_memory_gb", &RunParams::max_memory_gb, io::in_range(0, 1e6),
                      "Refuse a network whose estimated memory exceeds this many GB (0: the memory the "
                      "host has available)."),
                  key("watchdog_cycles", &RunParams::watchdog_cycles, at_least(1),
                      "Cycles without any flit moving while flits are in flight that count as deadlock."),
              }),
      section("sweep", &ExperimentConfig::sweep,
              {
                  key("key", &SweepParams::key, io::satisfies(check_sweep_key, "a numeric key"),
                      "The numeric key that a load sweep varies."),
                  key("from", &SweepParams::from, io::any_value(), "First value of the swept key."),
                  key("to", &SweepParams::to, io::any_value(), "Last value of the swept key (inclusive)."),
                  key("step", &SweepParams::step, greater_than(0), "Increment of the swept key."),
                  key("stop_after_saturation", &SweepParams::stop_after_saturation, io::any_value(),
                      "Stop the sweep after the first saturated load."),
              }),
  };
}

}  // namespace

const io::KeyTable<ExperimentConfig>& experiment_keys() {
  static const io::KeyTable<ExperimentConfig> table = make_table();
  return table;
}

std::vector<io::KeyInfo> experiment_key_list() {
  return experiment_keys().list();
}

const std::vector<MachinePreset>& machine_presets() {
  // "generic" is this model's own; every other preset comes from a machine folder (the CM-5's, for
  // one), found through the registry so that exp/ names no machine.
  static const std::vector<MachinePreset> presets = [] {
    std::vector<MachinePreset> all = {{"generic", "No changes: every key keeps its default.", {}}};
    for (const registry::Preset* p : registry::machines().presets_for(registry::kNetworkModel))
      all.push_back({p->name, p->doc, p->sets});
    return all;
  }();
  return presets;
}

const MachinePreset& machine_preset(std::string_view name) {
  const auto& presets = machine_presets();
  const auto it =
      std::find_if(presets.begin(), presets.end(), [&](const MachinePreset& p) { return p.name == name; });
  MPPNET_ASSERT(it != presets.end(), "machine.preset names a preset that is not declared");
  return *it;
}

}  // namespace mppnet::exp
