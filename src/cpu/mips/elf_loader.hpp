// cpu/mips/elf_loader.hpp: loads a static big-endian ELF32 MIPS executable into a Memory.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "cpu/mips/memory.hpp"

namespace mppnet::cpu::mips {

// The file is not something we can run; what() names the file and what is wrong with it.
class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // The stack occupies [stack_top - stack_bytes, stack_top): just below 0x7fff8000, where the Linux o32
  // kernel's stacks end, far above the executable's segments (0x00400000 and up by default).
  std::uint32_t stack_top = 0x7fff0000;
  std::uint32_t stack_bytes = 1u << 20;
  // The most the segments may occupy, counted in whole pages: a corrupt header asking for gigabytes is an
  // error, not an allocation.
  std::uint64_t max_segment_bytes = std::uint64_t{256} << 20;
};

struct LoadedProgram {
  std::uint32_t entry = 0;
  // The initial $sp: argc = 0 and empty argv and envp vectors, as the o32 start-up convention lays them
  // out (programs built with our crt0 do not read them).
  std::uint32_t stack_pointer = 0;
  std::uint32_t end_of_data = 0;  // first address after the highest segment
};

// Copies every PT_LOAD segment to its virtual address (zero-filling memsz past filesz), maps the stack.
// `name` is used in messages. Throws ElfError for anything but a static ET_EXEC ELF32 big-endian MIPS I or
// MIPS II executable, and for a truncated or inconsistent file.
LoadedProgram load_elf(std::span<const std::uint8_t> image, Memory& memory, const std::string& name,
                       const LoadOptions& options = {});

// Reads the file first; an unreadable file is an ElfError too.
LoadedProgram load_elf_file(const std::string& path, Memory& memory, const LoadOptions& options = {});

}  // namespace mppnet::cpu::mips
