// machines/cns1/t1_node.cpp: a node's instruction at each processor edge, its system calls and its end.
#include "machines/cns1/t1_node.hpp"

#include <fmt/format.h>

namespace mppnet::machines::cns1 {

using cpu::mips::Exception;

T1Node::T1Node(NodeId id, const cpu::mips::Timing& timing, const NiConfig& ni, MeshPorts& mesh,
               RunTally& tally)
    : id_(id), mesh_(mesh), tally_(tally), cpu_(memory_, timing), ni_(ni, &mesh.port(id)) {
  cpu_.attach_coprocessor2(&ni_);
  mesh.attach(id, ni_);
}

void T1Node::load(std::span<const std::uint8_t> image, const std::string& name, int nodes, int side) {
  cpu::mips::LoadOptions options;
  options.stack_bytes = kNodeStackBytes;
  const cpu::mips::LoadedProgram program = cpu::mips::load_elf(image, memory_, name, options);
  cpu_.reset(program.entry);
  cpu_.set_gpr(29, program.stack_pointer);
  cpu_.set_gpr(4, static_cast<std::uint32_t>(nodes));
  cpu_.set_gpr(5, static_cast<std::uint32_t>(side));
}

bool T1Node::tick(Cycle cycle) {
  if (end_ != NodeEnd::Running) return false;
  if (cpu_.cycles() > static_cast<std::uint64_t>(cycle)) return true;  // the last instruction still runs
  const Exception e = cpu_.step();
  if (e == Exception::Syscall) {
    const bool go_on = cpu::mips::service_syscall(cpu_, syscalls_);
    cpu_.skip_faulting_instruction();
    if (!go_on) {
      end_ = syscalls_.exited ? NodeEnd::Exited : NodeEnd::Unsupported;
      message_ = syscalls_.unsupported;
    }
  } else if (e != Exception::None) {
    end_ = NodeEnd::Fault;
    message_ = describe(cpu_.fault());
    if (e == Exception::CoprocessorException)
      message_ +=
          fmt::format(" (the NI's handler address error: handler 0x{:08x})", ni_.error().handler_address);
  }
  mesh_.service(id_);  // an event may have taken a message out of the NI
  if (end_ == NodeEnd::Running) return true;
  --tally_.running;
  tally_.failed += end_ != NodeEnd::Exited;
  return false;
}

const char* end_name(NodeEnd e) {
  switch (e) {
    case NodeEnd::Running:
      return "running";
    case NodeEnd::Exited:
      return "exited";
    case NodeEnd::Fault:
      return "fault";
    case NodeEnd::Unsupported:
      return "unsupported";
  }
  return "?";
}

}  // namespace mppnet::machines::cns1
