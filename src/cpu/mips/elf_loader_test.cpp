// cpu/mips/elf_loader_test.cpp: loading a hand-built ELF image, and the clear errors for files that are
// not static big-endian ELF32 MIPS-II executables.
#include "cpu/mips/elf_loader.hpp"

#include <elf.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpu/mips/run.hpp"

namespace mppnet::cpu::mips::elf_loader_test {
namespace {

void put16(std::vector<std::uint8_t>& f, std::size_t at, std::uint16_t v) {
  f[at] = static_cast<std::uint8_t>(v >> 8);
  f[at + 1] = static_cast<std::uint8_t>(v);
}
void put32(std::vector<std::uint8_t>& f, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) f[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// A minimal executable: one PT_LOAD at 0x400000 with 3 instructions (li $a0,42; li $v0,4001; syscall) and
// 64 bytes of bss, entry at its start.
struct Image {
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(0x100 + 12, 0);
  static constexpr std::size_t kPh = sizeof(Elf32_Ehdr);
  Image() {
    bytes[EI_MAG0] = ELFMAG0;
    bytes[EI_MAG1] = ELFMAG1;
    bytes[EI_MAG2] = ELFMAG2;
    bytes[EI_MAG3] = ELFMAG3;
    bytes[EI_CLASS] = ELFCLASS32;
    bytes[EI_DATA] = ELFDATA2MSB;
    bytes[EI_VERSION] = EV_CURRENT;
    put16(bytes, offsetof(Elf32_Ehdr, e_type), ET_EXEC);
    put16(bytes, offsetof(Elf32_Ehdr, e_machine), EM_MIPS);
    put32(bytes, offsetof(Elf32_Ehdr, e_version), EV_CURRENT);
    put32(bytes, offsetof(Elf32_Ehdr, e_entry), 0x400000);
    put32(bytes, offsetof(Elf32_Ehdr, e_phoff), kPh);
    put32(bytes, offsetof(Elf32_Ehdr, e_flags), EF_MIPS_ARCH_2 | EF_MIPS_NOREORDER);
    put16(bytes, offsetof(Elf32_Ehdr, e_ehsize), sizeof(Elf32_Ehdr));
    put16(bytes, offsetof(Elf32_Ehdr, e_phentsize), sizeof(Elf32_Phdr));
    put16(bytes, offsetof(Elf32_Ehdr, e_phnum), 1);
    put32(bytes, kPh + offsetof(Elf32_Phdr, p_type), PT_LOAD);
    put32(bytes, kPh + offsetof(Elf32_Phdr, p_offset), 0x100);
    put32(bytes, kPh + offsetof(Elf32_Phdr, p_vaddr), 0x400000);
    put32(bytes, kPh + offsetof(Elf32_Phdr, p_filesz), 12);
    put32(bytes, kPh + offsetof(Elf32_Phdr, p_memsz), 12 + 64);
    put32(bytes, 0x100, 0x2404002a);  // li $a0, 42
    put32(bytes, 0x104, 0x24020fa1);  // li $v0, 4001
    put32(bytes, 0x108, 0x0000000c);  // syscall
  }
  void ph32(std::size_t field, std::uint32_t v) { put32(bytes, kPh + field, v); }
};

// The ElfError's message, or "" if the image loaded.
std::string load_error(const Image& image) {
  Memory memory;
  try {
    load_elf(image.bytes, memory, "test.elf");
  } catch (const ElfError& e) {
    return e.what();
  }
  return "";
}

TEST(MipsElfLoader, LoadsTheSegmentZeroFillsBssAndSetsTheStack) {
  Image image;
  Memory memory;
  const LoadedProgram p = load_elf(image.bytes, memory, "test.elf");
  EXPECT_EQ(p.entry, 0x400000u);
  EXPECT_EQ(p.end_of_data, 0x400000u + 76);
  std::uint32_t w = 1;
  ASSERT_EQ(memory.load32(0x400004, w), Access::Ok);
  EXPECT_EQ(w, 0x24020fa1u);
  ASSERT_EQ(memory.load32(0x400048, w), Access::Ok);  // bss
  EXPECT_EQ(w, 0u);
  EXPECT_EQ(p.stack_pointer, LoadOptions{}.stack_top - 16);
  EXPECT_EQ(memory.store32(p.stack_pointer, 0), Access::Ok);
  EXPECT_EQ(p.stack_pointer % 8, 0u);
}

TEST(MipsElfLoader, TheHandBuiltProgramRunsToItsExit) {
  Image image;
  Memory memory;
  const LoadedProgram p = load_elf(image.bytes, memory, "test.elf");
  Cpu cpu(memory);
  cpu.reset(p.entry);
  cpu.set_gpr(29, p.stack_pointer);
  const RunResult r = run_program(cpu, 100);
  EXPECT_EQ(r.end, RunEnd::Exited);
  EXPECT_EQ(r.exit_status, 42);
  EXPECT_EQ(r.instructions, 3u);
}

// Each bad image, the change that makes it bad, and words its error must contain.
struct BadCase {
  const char* what;
  void (*spoil)(Image&);
  const char* expected;
};

const BadCase kBadCases[] = {
    {"too short", [](Image& i) { i.bytes.resize(20); }, "shorter than an ELF header"},
    {"no magic", [](Image& i) { i.bytes[1] = 'X'; }, "not an ELF file"},
    {"ELF64", [](Image& i) { i.bytes[EI_CLASS] = ELFCLASS64; }, "not ELF32"},
    {"little-endian", [](Image& i) { i.bytes[EI_DATA] = ELFDATA2LSB; }, "not big-endian"},
    {"x86-64", [](Image& i) { put16(i.bytes, offsetof(Elf32_Ehdr, e_machine), EM_X86_64); },
     "not a MIPS executable"},
    {"shared object", [](Image& i) { put16(i.bytes, offsetof(Elf32_Ehdr, e_type), ET_DYN); },
     "not a static executable"},
    {"MIPS32r2", [](Image& i) { put32(i.bytes, offsetof(Elf32_Ehdr, e_flags), EF_MIPS_ARCH_32R2); },
     "built for MIPS32r2"},
    {"n32", [](Image& i) { put32(i.bytes, offsetof(Elf32_Ehdr, e_flags), EF_MIPS_ARCH_2 | EF_MIPS_ABI2); },
     "n32"},
    {"program headers past the end", [](Image& i) { put32(i.bytes, offsetof(Elf32_Ehdr, e_phoff), 0xfff0); },
     "truncated"},
    {"no program headers", [](Image& i) { put16(i.bytes, offsetof(Elf32_Ehdr, e_phnum), 0); },
     "no program headers"},
    {"segment past the end",
     [](Image& i) {
       i.ph32(offsetof(Elf32_Phdr, p_filesz), 0x1000);
       i.ph32(offsetof(Elf32_Phdr, p_memsz), 0x1000);
     },
     "truncated"},
    {"segment offset wraps", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_offset), 0xfffffff0); },
     "truncated"},
    {"file size over memory size", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_memsz), 4); },
     "exceeds memory size"},
    {"kernel segment", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_vaddr), 0x80000000); },
     "past user space"},
    {"dynamic", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_type), PT_INTERP); }, "dynamically linked"},
    {"only a note", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_type), PT_NOTE); }, "no loadable segment"},
    {"entry outside", [](Image& i) { put32(i.bytes, offsetof(Elf32_Ehdr, e_entry), 0x500000); },
     "entry point"},
    {"misaligned entry", [](Image& i) { put32(i.bytes, offsetof(Elf32_Ehdr, e_entry), 0x400002); },
     "entry point"},
    {"huge segment", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_memsz), 0x7f000000); },
     "more than the limit"},
    {"segment on the stack", [](Image& i) { i.ph32(offsetof(Elf32_Phdr, p_vaddr), 0x7ffef000); },
     "overlaps the stack"},
};

TEST(MipsElfLoader, BadFilesGiveClearErrorsNamingTheFile) {
  for (const BadCase& c : kBadCases) {
    Image image;
    c.spoil(image);
    const std::string error = load_error(image);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.what << ": got \"" << error << "\"";
    EXPECT_EQ(error.rfind("test.elf: ", 0), 0u) << c.what;
  }
}

TEST(MipsElfLoader, TheHostsOwnExecutableIsRejected) {
  Memory memory;
  EXPECT_THROW(load_elf_file("/proc/self/exe", memory), ElfError);
  EXPECT_THROW(load_elf_file("/nonexistent/program.elf", memory), ElfError);
}

TEST(MipsElfLoader, EveryTruncationOfAValidImageIsAnErrorNotACrash) {
  const Image whole;
  for (std::size_t n = 0; n < whole.bytes.size(); ++n) {
    Image image;
    image.bytes.resize(n);
    EXPECT_NE(load_error(image), "") << "truncated to " << n << " bytes";
  }
}

}  // namespace
}  // namespace mppnet::cpu::mips::elf_loader_test
