// cpu/mips/elf_loader.cpp: ELF32 header and program-header checks, segment copies, the initial stack.
#include "cpu/mips/elf_loader.hpp"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

namespace mppnet::cpu::mips {
namespace {

constexpr std::uint32_t kPage = 4096;

// The file is big-endian whatever the host is: fields are read byte by byte.
std::uint16_t be16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

struct Segment {
  std::uint32_t offset, vaddr, filesz, memsz;
};

const char* arch_name(std::uint32_t arch) {
  switch (arch) {
    case EF_MIPS_ARCH_1:
      return "MIPS I";
    case EF_MIPS_ARCH_2:
      return "MIPS II";
    case EF_MIPS_ARCH_3:
      return "MIPS III";
    case EF_MIPS_ARCH_4:
      return "MIPS IV";
    case EF_MIPS_ARCH_5:
      return "MIPS V";
    case EF_MIPS_ARCH_32:
      return "MIPS32";
    case EF_MIPS_ARCH_64:
      return "MIPS64";
    case EF_MIPS_ARCH_32R2:
      return "MIPS32r2";
    case EF_MIPS_ARCH_64R2:
      return "MIPS64r2";
    default:
      return "an unknown MIPS architecture";
  }
}

}  // namespace

LoadedProgram load_elf(std::span<const std::uint8_t> image, Memory& memory, const std::string& name,
                       const LoadOptions& options) {
  auto fail = [&](const std::string& why) { return ElfError(name + ": " + why); };
  if (image.size() < sizeof(Elf32_Ehdr)) {
    throw fail(fmt::format("not an ELF executable: {} bytes, shorter than an ELF header", image.size()));
  }
  const std::uint8_t* h = image.data();
  if (h[EI_MAG0] != ELFMAG0 || h[EI_MAG1] != ELFMAG1 || h[EI_MAG2] != ELFMAG2 || h[EI_MAG3] != ELFMAG3) {
    throw fail("not an ELF file (no \\x7fELF magic)");
  }
  if (h[EI_CLASS] != ELFCLASS32) throw fail("not ELF32 (a 64-bit ELF?); the simulator runs 32-bit MIPS");
  if (h[EI_DATA] != ELFDATA2MSB) {
    throw fail("not big-endian (little-endian mipsel?); build with mips-linux-gnu-gcc");
  }
  if (h[EI_VERSION] != EV_CURRENT) throw fail("unknown ELF version");
  const auto* eh = h;
  const std::uint16_t type = be16(eh + offsetof(Elf32_Ehdr, e_type));
  const std::uint16_t machine = be16(eh + offsetof(Elf32_Ehdr, e_machine));
  const std::uint32_t entry = be32(eh + offsetof(Elf32_Ehdr, e_entry));
  const std::uint32_t phoff = be32(eh + offsetof(Elf32_Ehdr, e_phoff));
  const std::uint32_t flags = be32(eh + offsetof(Elf32_Ehdr, e_flags));
  const std::uint16_t phentsize = be16(eh + offsetof(Elf32_Ehdr, e_phentsize));
  const std::uint16_t phnum = be16(eh + offsetof(Elf32_Ehdr, e_phnum));
  if (machine != EM_MIPS) throw fail(fmt::format("not a MIPS executable (e_machine {})", machine));
  if (type != ET_EXEC) {
    throw fail(
        fmt::format("not a static executable (e_type {}; build with -static -fno-pic -mno-abicalls)", type));
  }
  const std::uint32_t arch = flags & EF_MIPS_ARCH;
  if (arch != EF_MIPS_ARCH_1 && arch != EF_MIPS_ARCH_2) {
    throw fail(fmt::format("built for {}, but the simulator runs MIPS I and II code: build with -march=mips2",
                           arch_name(arch)));
  }
  if ((flags & EF_MIPS_ABI2) != 0) throw fail("an n32 executable; the simulator runs o32 code");
  if (phentsize != sizeof(Elf32_Phdr)) {
    throw fail(fmt::format("program header entries of {} bytes, not {}", phentsize, sizeof(Elf32_Phdr)));
  }
  if (phnum == 0) throw fail("no program headers: nothing to load");
  if (std::uint64_t{phoff} + std::uint64_t{phnum} * phentsize > image.size()) {
    throw fail(
        fmt::format("truncated: {} program headers at offset {} run past the end of the file ({} bytes)",
                    phnum, phoff, image.size()));
  }

  std::vector<Segment> segments;
  for (unsigned i = 0; i < phnum; ++i) {
    const std::uint8_t* ph = h + phoff + i * phentsize;
    const std::uint32_t ptype = be32(ph + offsetof(Elf32_Phdr, p_type));
    if (ptype == PT_INTERP || ptype == PT_DYNAMIC) {
      throw fail("dynamically linked; build with -static -nostdlib (see docs/t1.md)");
    }
    if (ptype != PT_LOAD) continue;
    const Segment s{be32(ph + offsetof(Elf32_Phdr, p_offset)), be32(ph + offsetof(Elf32_Phdr, p_vaddr)),
                    be32(ph + offsetof(Elf32_Phdr, p_filesz)), be32(ph + offsetof(Elf32_Phdr, p_memsz))};
    if (s.memsz == 0) continue;
    if (s.filesz > s.memsz)
      throw fail(fmt::format("segment {}: file size {} exceeds memory size {}", i, s.filesz, s.memsz));
    if (std::uint64_t{s.offset} + s.filesz > image.size()) {
      throw fail(fmt::format("truncated: segment {} needs bytes {}..{} but the file has {}", i, s.offset,
                             std::uint64_t{s.offset} + s.filesz, image.size()));
    }
    if (std::uint64_t{s.vaddr} + s.memsz > 0x80000000u) {
      throw fail(fmt::format("segment {} at 0x{:08x} (+{} bytes) reaches past user space (0x80000000)", i,
                             s.vaddr, s.memsz));
    }
    segments.push_back(s);
  }
  if (segments.empty()) throw fail("no loadable segment");

  // Map whole pages; segments sharing a page (text and data of a small program) share a region.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const Segment& s : segments) {
    ranges.emplace_back(s.vaddr / kPage * kPage,
                        (std::uint64_t{s.vaddr} + s.memsz + kPage - 1) / kPage * kPage);
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  std::uint64_t total = 0;
  for (const auto& [begin, end] : merged) total += end - begin;
  if (total > options.max_segment_bytes) {
    throw fail(fmt::format("the segments need {} bytes of memory, more than the limit of {}", total,
                           options.max_segment_bytes));
  }
  const std::uint64_t stack_base = std::uint64_t{options.stack_top} - options.stack_bytes;
  try {
    for (const auto& [begin, end] : merged) {
      if (end > stack_base && begin < options.stack_top) {
        throw fail(fmt::format("segment at 0x{:08x} overlaps the stack", begin));
      }
      memory.map(static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end - begin),
                 fmt::format("{} segment 0x{:08x}", name, begin));
    }
    memory.map(static_cast<std::uint32_t>(stack_base), options.stack_bytes, "stack");
  } catch (const MemoryError& e) {
    throw fail(e.what());
  }
  LoadedProgram program;
  program.entry = entry;
  for (const Segment& s : segments) {
    memory.write_bytes(s.vaddr, image.subspan(s.offset, s.filesz));
    program.end_of_data = std::max(program.end_of_data, s.vaddr + s.memsz);
  }
  if ((entry & 3) != 0 || memory.region_name(entry).empty()) {
    throw fail(fmt::format("entry point 0x{:08x} is not an aligned address in a loaded segment", entry));
  }
  // argc = 0, argv = {NULL}, envp = {NULL}; the stack stays 8-byte aligned as o32 wants.
  program.stack_pointer = options.stack_top - 16;
  return program;
}

LoadedProgram load_elf_file(const std::string& path, Memory& memory, const LoadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ElfError(path + ": cannot open");
  std::vector<std::uint8_t> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ElfError(path + ": read error");
  return load_elf(image, memory, path, options);
}

}  // namespace mppnet::cpu::mips
