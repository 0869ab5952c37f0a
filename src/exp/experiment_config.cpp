// exp/experiment_config.cpp: loading an experiment (preset, file, --set) and checking it across keys.
#include "exp/experiment_config.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/process_usage.hpp"
#include "exp/experiment_keys.hpp"
#include "io/config_loader.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "workload/traffic.hpp"

namespace mppnet::exp {

namespace {

using io::fail_at;

// Of two keys in conflict, the one the user set (the first if both or neither).
std::string blame(const ExperimentConfig& c, const std::string& a, const std::string& b) {
  return c.origin.count(a) > 0 || c.origin.count(b) == 0 ? a : b;
}

// router.pipeline_cycles is a shorthand for sw_alloc_delay + st_delay: after loading, all three say what
// the network will do.
void resolve_router_delays(ExperimentConfig& c) {
  net::RouterParams& r = c.router;
  const bool stages = c.origin.count("router.sw_alloc_delay") > 0 || c.origin.count("router.st_delay") > 0;
  if (c.origin.count("router.pipeline_cycles") > 0) {
    if (stages)
      fail_at(c, "router.pipeline_cycles",
              "is a shorthand for router.sw_alloc_delay + router.st_delay; set the shorthand or the stages, "
              "not both");
    r.sw_alloc_delay = 0;
    r.st_delay = r.pipeline_cycles;
  } else {
    r.pipeline_cycles = r.sw_alloc_delay + r.st_delay;
    if (r.pipeline_cycles > 64)
      fail_at(
          c, blame(c, "router.sw_alloc_delay", "router.st_delay"),
          fmt::format("router.sw_alloc_delay + router.st_delay = {} is above 64 cycles", r.pipeline_cycles));
  }
}

// The wavefront allocator has one priority diagonal, not an arbiter per output VC.
void check_vc_arbiter(const ExperimentConfig& c) {
  if (c.router.vc_arbiter == net::VcArbiter::PerOutputVc &&
      c.router.vc_allocator_kind() == net::VcAllocatorKind::Wavefront)
    fail_at(c, blame(c, "router.vc_arbiter", "router.vc_allocator"),
            "per_output_vc needs a separable VC allocator (input_first or output_first); wavefront "
            "has one priority diagonal");
}

// A network that cannot fit in memory is refused before anything is built (it would otherwise grow for
// minutes and die of bad_alloc): its fixed state is estimated from the topology's port count.
void check_memory(const ExperimentConfig& c) {
  const long long ports = topo::port_count(c.topology);
  const long long nodes = topo::node_count(c.topology);
  const double need = static_cast<double>(net::Network::estimated_bytes(ports, ports, nodes, 1, c.router));
  const bool set = c.run.max_memory_gb > 0;
  if (set) {
    // A limit above what the process could ever have would let a network through that then dies of
    // bad_alloc (or is killed by the kernel) minutes later.
    const core::MemoryBound ceiling = core::memory_ceiling();
    if (ceiling.bytes > 0 && c.run.max_memory_gb * 1e9 > static_cast<double>(ceiling.bytes))
      fail_at(c, "run.max_memory_gb",
              fmt::format("{} GB is more than the {:.1f} GB {}; set at most that, or 0 for the memory "
                          "available now",
                          c.run.max_memory_gb, static_cast<double>(ceiling.bytes) / 1e9, ceiling.source));
  }
  const core::MemoryBound available = core::available_memory();
  const double limit = set ? c.run.max_memory_gb * 1e9 : static_cast<double>(available.bytes);
  if (limit <= 0 || need <= limit) return;
  // Blame a size the user set: the router's buffers first, then the topology's size keys, else its kind.
  std::string key = set ? "run.max_memory_gb" : "topology.kind";
  if (!set) {
    for (const auto& [name, where] : c.origin)
      if (name.rfind("topology.", 0) == 0 && name != "topology.kind" && name != "topology.up_routing" &&
          name != "topology.dragonfly_routing" && name != "topology.dateline")
        key = name;
    for (const char* router_key : {"router.vcs", "router.buffer_flits"})
      if (c.origin.count(router_key) > 0) key = router_key;
  }
  fail_at(c, key,
          fmt::format("this network needs about {:.1f} GB ({} router ports x {} VCs x {} flits, before any "
                      "packet), more than the {:.1f} GB {}",
                      need / 1e9, ports, c.router.vcs, c.router.buffer_flits, limit / 1e9,
                      set ? "of run.max_memory_gb" : available.source + " (run.max_memory_gb sets a limit)"));
}

void check_sweep(const ExperimentConfig& c) {
  const SweepParams& s = c.sweep;
  if (s.to < s.from)
    fail_at(c, blame(c, "sweep.to", "sweep.from"),
            fmt::format("sweep.to ({}) is below sweep.from ({})", s.to, s.from));
  const auto& keys = experiment_keys().keys();
  const auto swept = keys.find(s.key);
  if (!swept) fail_at(c, "sweep.key", fmt::format("\"{}\" is not a declared key", s.key));
  const io::KeySpec& spec = keys.specs()[*swept];
  const bool integral = spec.type != io::KeyType::Double;
  const std::pair<const char*, double> ends[] = {{"sweep.from", s.from}, {"sweep.to", s.to}};
  for (const auto& [key, v] : ends) {
    const std::string shown = fmt::format("{}", v);
    if (integral && v != std::floor(v))
      fail_at(c, key, fmt::format("{} takes whole numbers (got {})", s.key, shown));
    if (auto why = io::range_problem(spec, v, shown); !why.empty())
      fail_at(c, key, fmt::format("not a valid {}: {}", s.key, why));
  }
  if (integral && s.step != std::floor(s.step))
    fail_at(c, "sweep.step", fmt::format("{} takes whole numbers (got {})", s.key, s.step));
}

}  // namespace

ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& sets) {
  return load_experiment(io::open_config_file(path), sets);
}

ExperimentConfig load_experiment(const io::ConfigFile& file, const std::vector<std::string>& sets,
                                 const std::vector<std::string>& foreign_sections) {
  // The preset goes first, so that the file's keys and --set override it; the keys it sets get the
  // location of the machine.preset that chose it.
  const io::Presets presets{"machine.preset",
                            [](const std::string& preset) { return machine_preset(preset).sets; }};
  ExperimentConfig c =
      io::load_config(experiment_keys(), file.doc, file.path, sets, presets, foreign_sections);
  resolve_router_delays(c);
  check_experiment(c);
  return c;
}

ExperimentConfig load_experiment_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& sets) {
  return load_experiment(io::config_file_from_text(text, name), sets);
}

nlohmann::json to_json(const ExperimentConfig& c) {
  return experiment_keys().to_json(c);
}

void check_experiment(const ExperimentConfig& c) {
  // Every key on its own first: a config filled in code has not been through the loader's checks.
  io::check_keys(experiment_keys(), c);
  for (const auto& p : topo::check(c.topology, c.router.vcs)) fail_at(c, p.key, p.reason);
  if (c.router.model == net::NetworkModelKind::Packet && topo::may_multicast(c.topology))
    fail_at(c, "network.model",
            "the packet-level model does not model multicast, which this topology's routing may do "
            "(topology.path_multicast); use network.model = \"flit\" or turn the multicast off");
  check_memory(c);
  check_vc_arbiter(c);
  for (const auto& p : workload::check(c.traffic, topo::node_count(c.topology))) fail_at(c, p.key, p.reason);

  // Cut-through and store-and-forward move a head only when the next VC buffer can hold the whole packet.
  if (c.router.switching != net::Switching::Wormhole) {
    const auto& sizes = c.traffic.packet_sizes;
    const bool by_sizes = !sizes.empty();
    const int largest = by_sizes ? *std::max_element(sizes.begin(), sizes.end()) : c.traffic.packet_flits;
    if (c.router.buffer_flits < largest) {
      fail_at(
          c, "router.buffer_flits",
          fmt::format(
              "{} switching needs a VC buffer that holds the largest packet: {} flits is less than {} ({})",
              experiment_keys().get(c, "router.switching").get<std::string>(), c.router.buffer_flits, largest,
              by_sizes ? "the largest of traffic.packet_sizes" : "traffic.packet_flits"));
    }
  }

  const RunParams& r = c.run;
  if (r.mode == RunMode::Fixed && r.cycles <= r.warmup_cycles) {
    fail_at(
        c, blame(c, "run.cycles", "run.warmup_cycles"),
        fmt::format("a fixed run of run.cycles = {} leaves nothing to measure after run.warmup_cycles = {}",
                    r.cycles, r.warmup_cycles));
  }
  if (r.mode != RunMode::Fixed && r.cycles != 0) {
    fail_at(c, "run.cycles", "run.cycles sets the length of a fixed run; set run.mode = \"fixed\" as well");
  }
  // The fixed warm-up never reads max_warmup_cycles.
  if (r.warmup_rule == WarmupRule::Settle && r.max_warmup_cycles < r.warmup_cycles) {
    fail_at(c, blame(c, "run.max_warmup_cycles", "run.warmup_cycles"),
            fmt::format("run.max_warmup_cycles ({}) is below run.warmup_cycles ({})", r.max_warmup_cycles,
                        r.warmup_cycles));
  }
  if (r.max_batches < r.min_batches) {
    fail_at(c, blame(c, "run.max_batches", "run.min_batches"),
            fmt::format("run.max_batches ({}) is below run.min_batches ({})", r.max_batches, r.min_batches));
  }
  // The watchdog must outwait the slowest legal move: a flit on the longest channel plus the router's
  // pipeline, or a node draining one flit at its ejection rate.
  const long long slowest_move = c.router.head_cycles() + c.router.pipeline_cycles +
                                 std::max(c.router.channel_latency, c.router.credit_cycles()) +
                                 static_cast<long long>(std::ceil(1.0 / c.router.eject_flits_per_cycle));
  if (r.watchdog_cycles <= slowest_move) {
    fail_at(c, "run.watchdog_cycles",
            fmt::format("{} cycles cannot tell a deadlock from a flit still moving: a hop takes up to {} "
                        "(the router's head and pipeline delays, the longer of router.channel_latency and "
                        "router.credit_delay, and 1 / router.eject_flits_per_cycle)",
                        r.watchdog_cycles, slowest_move));
  }
  // Saturation is latency above a threshold; a threshold below the idle network's own latency would call
  // every load saturated.
  const int largest = c.traffic.packet_sizes.empty()
                          ? c.traffic.packet_flits
                          : *std::max_element(c.traffic.packet_sizes.begin(), c.traffic.packet_sizes.end());
  const int saf = c.router.switching == net::Switching::StoreAndForward ? largest - 1 : 0;
  const long long routers = topo::max_router_hops(c.topology);
  const long long zero_load =
      c.router.channel_latency + routers * (c.router.hop_cycles() + saf) + largest - 1;
  if (r.saturation_latency <= static_cast<double>(zero_load)) {
    fail_at(
        c, "run.saturation_latency",
        fmt::format("{} cycles is not above the zero-load latency of the longest route ({} cycles over {} "
                    "routers), so every load would count as saturated",
                    r.saturation_latency, zero_load, routers));
  }
  check_sweep(c);
}

}  // namespace mppnet::exp
