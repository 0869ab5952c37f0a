// cpu/mips/run.hpp: runs a loaded program to its exit, servicing its system calls.
#pragma once

#include <cstdint>
#include <string>

#include "cpu/mips/cpu.hpp"
#include "cpu/mips/elf_loader.hpp"

namespace mppnet::cpu::mips {

enum class RunEnd : std::uint8_t {
  Exited,       // the program called exit; exit_status holds its status
  Fault,        // an exception other than SYSCALL (fault holds it): a Linux process would get a signal
  Unsupported,  // a system call the simulator does not provide
  Limit,        // max_instructions reached
};

struct RunResult {
  RunEnd end = RunEnd::Limit;
  int exit_status = 0;
  std::string out;  // what the program wrote to fd 1
  std::string err;  // ... and to fd 2
  std::uint64_t cycles = 0;
  std::uint64_t instructions = 0;
  Fault fault;
  std::string message;  // a one-line explanation unless end == Exited
};

// Runs from the processor's current state (reset it to the program's entry and set $sp first).
RunResult run_program(Cpu& cpu, std::uint64_t max_instructions);

// Loads the file into a fresh memory and runs it: the whole simulator in one call.
RunResult run_elf_file(const std::string& path, std::uint64_t max_instructions, const Timing& timing = {});

}  // namespace mppnet::cpu::mips
