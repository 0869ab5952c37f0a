// machines/cns1/t1_node.hpp: one T1 node as a component of the processor's clock domain: its memory, its
// MIPS-II processor, the NI as the processor's coprocessor 2, and the program's system calls.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/scheduler.hpp"
#include "cpu/mips/cpu.hpp"
#include "cpu/mips/elf_loader.hpp"
#include "cpu/mips/linux_o32.hpp"
#include "machines/cns1/mesh_ports.hpp"
#include "machines/cns1/network_interface.hpp"

namespace mppnet::machines::cns1 {

// How a node's program ended, or that it has not.
enum class NodeEnd : std::uint8_t {
  Running,
  Exited,       // called exit: exit_status holds its status
  Fault,        // an exception other than SYSCALL (the NI's handler address error included)
  Unsupported,  // a system call the simulator does not provide, or too much output
};

// What the nodes' programs have done, kept by the nodes as they end, so that whoever runs them need not
// look at every node after every cycle.
struct RunTally {
  int running = 0;  // programs started and not ended
  int failed = 0;   // programs that ended in a fault or an unsupported call
};

// The stack every node's program gets: small programs, many nodes (each node's memory is its own).
inline constexpr std::uint32_t kNodeStackBytes = 256 * 1024;

class T1Node final : public core::Component {
 public:
  // REQUIRES: mesh and tally outlive the node. The node counts itself out of tally.running when its
  // program ends (the caller counts it in when it starts it).
  T1Node(NodeId id, const cpu::mips::Timing& timing, const NiConfig& ni, MeshPorts& mesh, RunTally& tally);
  T1Node(const T1Node&) = delete;
  T1Node& operator=(const T1Node&) = delete;

  // Loads the executable (the bytes of one ELF file, read once for every node) and starts it at its entry
  // with the machine's size in $a0 (nodes) and $a1 (the mesh's side), which crt0 leaves for main(nodes,
  // side). Throws cpu::mips::ElfError naming `name`.
  void load(std::span<const std::uint8_t> image, const std::string& name, int nodes, int side);

  // One instruction at each edge of the processor's clock that its last instruction's cycles have
  // reached (an instruction of c cycles leaves c - 1 edges idle). False once the program has ended.
  bool tick(Cycle cycle) override;

  NodeId id() const { return id_; }
  NodeEnd end() const { return end_; }
  int exit_status() const { return syscalls_.exit_status; }
  const std::string& output() const { return syscalls_.out; }
  const std::string& errors() const { return syscalls_.err; }
  // Why the program stopped, for Fault and Unsupported.
  const std::string& message() const { return message_; }
  const cpu::mips::Cpu& cpu() const { return cpu_; }
  cpu::mips::Cpu& cpu() { return cpu_; }
  const NetworkInterface& ni() const { return ni_; }
  NetworkInterface& ni() { return ni_; }
  cpu::mips::Memory& memory() { return memory_; }

 private:
  NodeId id_;
  MeshPorts& mesh_;
  RunTally& tally_;
  cpu::mips::Memory memory_;
  cpu::mips::Cpu cpu_;
  NetworkInterface ni_;
  cpu::mips::SyscallState syscalls_;
  NodeEnd end_ = NodeEnd::Running;
  std::string message_;
};

const char* end_name(NodeEnd e);

}  // namespace mppnet::machines::cns1
