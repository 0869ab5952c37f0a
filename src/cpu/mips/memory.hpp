// cpu/mips/memory.hpp: a simulated processor's memory: a few mapped regions, big-endian, bounds-checked.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace mppnet::cpu::mips {

// How an access went. The processor turns Misaligned into an address error and Unmapped into a bus error,
// so a wild pointer in a simulated program is an exception that program's runner reports, never a crash.
enum class Access : std::uint8_t { Ok, Unmapped, Misaligned };

// A mapping the loader asked for cannot be made (overlap, wrap past 2^32, zero size).
class MemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Flat 32-bit address space with holes: only mapped regions (an executable's segments, its stack) exist.
// Words are stored big-endian, as the mips-linux-gnu target lays them out. An access must lie wholly in
// one region and be naturally aligned (halfwords on even, words on multiple-of-4 addresses).
class Memory {
 public:
  // Maps [base, base + size_bytes) filled with zeros. Throws MemoryError on overlap, wrap or size 0.
  void map(std::uint32_t base, std::uint32_t size_bytes, std::string name);

  Access load8(std::uint32_t address, std::uint8_t& out) const;
  Access load16(std::uint32_t address, std::uint16_t& out) const;
  Access load32(std::uint32_t address, std::uint32_t& out) const;
  Access store8(std::uint32_t address, std::uint8_t value);
  Access store16(std::uint32_t address, std::uint16_t value);
  Access store32(std::uint32_t address, std::uint32_t value);

  // Whole byte ranges (the loader's copies, a write system call's buffer); Unmapped unless the range lies
  // in one region.
  Access write_bytes(std::uint32_t address, std::span<const std::uint8_t> bytes);
  Access read_bytes(std::uint32_t address, std::span<std::uint8_t> out) const;

  // The bytes of the region holding address, for a caller that reads it directly (the processor's
  // instruction fetch). Valid while the Memory lives: regions are never unmapped and their bytes never
  // move. An empty window (size_bytes 0) when nothing is mapped there.
  struct Window {
    std::uint32_t base = 0;
    std::uint32_t size_bytes = 0;
    const std::uint8_t* bytes = nullptr;
  };
  Window window(std::uint32_t address) const;

  // Whether [address, address + length) lies in one region.
  bool contains(std::uint32_t address, std::uint32_t length) const {
    return find(address, length) != nullptr;
  }

  // The name of the region holding address, or "" (for error messages).
  std::string region_name(std::uint32_t address) const;

 private:
  struct Region {
    std::uint32_t base;
    std::uint32_t size_bytes;
    std::string name;
    std::vector<std::uint8_t> bytes;
  };
  // The bytes [address, address + length) if they lie in one region, else nullptr. The region found last
  // is tried first: a program's accesses cluster in its data and stack.
  std::uint8_t* find(std::uint32_t address, std::uint32_t length) const;

  std::vector<Region> regions_;
  mutable std::size_t last_ = 0;
};

}  // namespace mppnet::cpu::mips
