// machines/cns1/t1_machine.cpp: the mesh, the two clock domains and the nodes, built in dependency order.
#include "machines/cns1/t1_machine.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/error.hpp"
#include "cpu/mips/elf_loader.hpp"
#include "topo/k_ary_n_cube.hpp"

namespace mppnet::machines::cns1 {

topo::TopologyParams t1_topology(const T1Config& c) {
  return topo::topology_of(
      topo::KAryNCubeParams{.k = mesh_side(c), .n = 2, .torus = false, .wrap = {1}, .path_multicast = true});
}

net::RouterParams t1_router(const T1Config& c) {
  net::RouterParams r;
  r.vcs = c.network.vcs;
  r.vnets = 2;  // low and high priority
  r.in_order = true;
  r.buffer_flits = c.network.buffer_flits;
  r.channel_latency = c.network.channel_latency;
  r.st_delay = c.network.pipeline_cycles;
  r.pipeline_cycles = c.network.pipeline_cycles;
  r.cycle_ps = c.network.clock_ps;
  return r;
}

namespace {

const T1Config& checked(const T1Config& c) {
  check_t1(c);
  return c;
}

cpu::mips::Timing timing_of(const T1Config& c) {
  cpu::mips::Timing t;
  t.multiply_cycles = static_cast<std::uint32_t>(c.cpu.multiply_cycles);
  t.divide_cycles = static_cast<std::uint32_t>(c.cpu.divide_cycles);
  return t;
}

}  // namespace

T1Machine::T1Machine(const T1Config& config)
    : config_(checked(config)),
      k_(mesh_side(config_)),
      built_(t1_topology(config_), t1_router(config_), static_cast<std::uint64_t>(config_.run.seed)),
      // The processor's domain first: at a time both clocks share, the processors run before the mesh
      // steps, so a message sent at t enters the network in the cycle at t (core/scheduler.hpp's order).
      cpu_domain_(scheduler_.add_domain("t1 processors", config_.cpu.clock_ps)),
      network_domain_(scheduler_.add_domain("cns1 mesh", config_.network.clock_ps)),
      clocked_(built_.network, scheduler_, network_domain_,
               {.send_queue_packets = config_.ni.out_queue_messages, .sleeps_when_idle = true}),
      ports_(clocked_, k_, config_.network.flit_bytes) {
  const cpu::mips::Timing timing = timing_of(config_);
  nodes_.reserve(static_cast<std::size_t>(config_.machine.nodes));
  for (NodeId v = 0; v < config_.machine.nodes; ++v) {
    nodes_.push_back(std::make_unique<T1Node>(v, timing, ni_config(config_, static_cast<std::uint32_t>(v)),
                                              ports_, tally_));
    node_ids_.push_back(scheduler_.add(cpu_domain_, *nodes_.back(), false));  // active once run
  }
}

void T1Machine::load_program() {
  const std::string path = program_path(config_);
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> image((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  try {
    load(image, path);
  } catch (const cpu::mips::ElfError& e) {
    io::fail_at(config_, "machine.program", e.what());
  }
}

void T1Machine::load(std::span<const std::uint8_t> image, const std::string& name) {
  for (auto& n : nodes_) n->load(image, name, nodes(), k_);
}

MachineResult T1Machine::run() {
  for (NodeId v = 0; v < nodes(); ++v) {
    if (node(v).end() != NodeEnd::Running || scheduler_.is_active(node_ids_[static_cast<std::size_t>(v)]))
      continue;
    ++tally_.running;
    scheduler_.activate(node_ids_[static_cast<std::size_t>(v)]);
  }
  const Picoseconds limit = config_.run.max_cycles * config_.cpu.clock_ps;
  try {
    scheduler_.run({.until_ps = limit,
                    .stop = [this] { return tally_.running == 0 || tally_.failed > 0; },
                    .watchdog = {}});
  } catch (const BadDestination& e) {
    io::fail_at(config_, "machine.program",
                fmt::format("{} at pc 0x{:08x}", e.what(), node(e.source).cpu().pc()));
  }
  MachineResult r;
  r.end = tally_.failed > 0     ? MachineEnd::NodeFailed
          : tally_.running == 0 ? MachineEnd::AllExited
                                : MachineEnd::TimeLimit;
  std::uint64_t cycles = 0;
  for (const auto& n : nodes_) cycles = std::max(cycles, n->cpu().cycles());
  r.time_ps = static_cast<Picoseconds>(cycles) * config_.cpu.clock_ps;
  r.network_cycles = clocked_.cycles_run();
  return r;
}

}  // namespace mppnet::machines::cns1
