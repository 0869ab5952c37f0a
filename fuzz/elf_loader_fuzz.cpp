// fuzz/elf_loader_fuzz.cpp: the T1's ELF loader on arbitrary files, and whatever loads run for a few
// thousand instructions: every input ends in a clean load, an ElfError, or a run that exits, faults or
// reaches its budget; never a crash (docs/t1.md). Seed: the stripped examples/t1/iss/loop.S executable.
#include <cstddef>
#include <cstdint>
#include <span>

#include "cpu/mips/cpu.hpp"
#include "cpu/mips/elf_loader.hpp"
#include "cpu/mips/run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mppnet::cpu::mips;
  Memory memory;
  LoadOptions options;
  options.max_segment_bytes = 16u << 20;  // keeps each input's memory small
  LoadedProgram program;
  try {
    program = load_elf(std::span<const std::uint8_t>(data, size), memory, "fuzz.elf", options);
  } catch (const ElfError&) {
    return 0;
  }
  Cpu cpu(memory);
  cpu.reset(program.entry);
  cpu.set_gpr(29, program.stack_pointer);
  run_program(cpu, 10'000);
  return 0;
}
