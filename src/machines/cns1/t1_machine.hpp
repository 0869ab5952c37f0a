// machines/cns1/t1_machine.hpp: the CNS-1 with T1 nodes: k x k nodes, each a MIPS-II processor with its
// NI, running one program (SPMD) on the mesh, on two clocks (the processor's and the network's).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/scheduler.hpp"
#include "machines/cns1/mesh_ports.hpp"
#include "machines/cns1/t1_config.hpp"
#include "machines/cns1/t1_node.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"

namespace mppnet::machines::cns1 {

// The mesh a config describes: k x k, dimension 1 a ring (the CNS-1's cylinder, L202-L213), path
// multicast, two virtual networks (the priorities) in order per pair (§3.7).
topo::TopologyParams t1_topology(const T1Config& c);
net::RouterParams t1_router(const T1Config& c);

// How a run ended.
enum class MachineEnd : std::uint8_t {
  AllExited,   // every node's program exited
  NodeFailed,  // a node's program faulted or made an unsupported call (the others stop with it)
  TimeLimit,   // run.max_cycles passed with programs still running
};

struct MachineResult {
  MachineEnd end = MachineEnd::TimeLimit;
  Picoseconds time_ps = 0;          // the processor time of the node that ran longest
  std::int64_t network_cycles = 0;  // cycles the mesh was stepped
};

class T1Machine {
 public:
  // Builds the mesh and the nodes; load() gives them their program. Throws core::ConfigError for a
  // config check_t1 refuses.
  explicit T1Machine(const T1Config& config);
  T1Machine(const T1Machine&) = delete;
  T1Machine& operator=(const T1Machine&) = delete;

  // Loads the ELF named by machine.program on every node. Throws core::ConfigError at machine.program
  // for a missing file or one that is not a MIPS-II executable the processor runs.
  void load_program();
  // Loads the bytes of an ELF (`name` in messages) on every node; throws cpu::mips::ElfError.
  void load(std::span<const std::uint8_t> image, const std::string& name);

  // Runs until every program has exited, one has failed, or run.max_cycles. A message to a node that
  // does not exist throws core::ConfigError at machine.program, naming the sender and its pc.
  MachineResult run();

  int nodes() const { return static_cast<int>(nodes_.size()); }
  T1Node& node(int v) { return *nodes_[static_cast<std::size_t>(v)]; }
  const T1Node& node(int v) const { return *nodes_[static_cast<std::size_t>(v)]; }
  const T1Config& config() const { return config_; }
  const MeshPorts& mesh() const { return ports_; }
  MeshPorts& mesh() { return ports_; }
  net::NetworkModel& network() { return built_.network; }
  // For tests that drive the mesh alone (the nodes tick only once run() starts them).
  core::Scheduler& scheduler() { return scheduler_; }

 private:
  T1Config config_;
  int k_;
  net::BuiltNetwork built_;
  core::Scheduler scheduler_;
  core::DomainId cpu_domain_;
  core::DomainId network_domain_;
  net::ClockedNetwork clocked_;
  MeshPorts ports_;
  std::vector<std::unique_ptr<T1Node>> nodes_;
  std::vector<core::ComponentId> node_ids_;
  RunTally tally_;
};

}  // namespace mppnet::machines::cns1
