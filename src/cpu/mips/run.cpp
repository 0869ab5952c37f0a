// cpu/mips/run.cpp: the loop of steps and system calls, and a one-call runner of an ELF file.
#include "cpu/mips/run.hpp"

#include <fmt/format.h>

#include "cpu/mips/linux_o32.hpp"

namespace mppnet::cpu::mips {

RunResult run_program(Cpu& cpu, std::uint64_t max_instructions) {
  RunResult result;
  SyscallState state;
  const std::uint64_t start = cpu.instructions();
  for (;;) {
    const std::uint64_t done = cpu.instructions() - start;
    if (done >= max_instructions) {
      result.end = RunEnd::Limit;
      result.message =
          fmt::format("stopped after {} instructions without exiting (pc 0x{:08x})", done, cpu.pc());
      break;
    }
    const Exception e = cpu.run(max_instructions - done);
    if (e == Exception::None) continue;
    if (e != Exception::Syscall) {
      result.end = RunEnd::Fault;
      result.fault = cpu.fault();
      result.message = describe(cpu.fault());
      break;
    }
    const bool go_on = service_syscall(cpu, state);
    cpu.skip_faulting_instruction();
    if (!go_on) {
      if (state.exited) {
        result.end = RunEnd::Exited;
        result.exit_status = state.exit_status;
      } else {
        result.end = RunEnd::Unsupported;
        result.message = state.unsupported;
      }
      break;
    }
  }
  result.out = std::move(state.out);
  result.err = std::move(state.err);
  result.cycles = cpu.cycles();
  result.instructions = cpu.instructions();
  return result;
}

RunResult run_elf_file(const std::string& path, std::uint64_t max_instructions, const Timing& timing) {
  Memory memory;
  const LoadedProgram program = load_elf_file(path, memory);
  Cpu cpu(memory, timing);
  cpu.reset(program.entry);
  cpu.set_gpr(29, program.stack_pointer);
  return run_program(cpu, max_instructions);
}

}  // namespace mppnet::cpu::mips
