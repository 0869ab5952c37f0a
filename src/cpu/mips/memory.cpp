// cpu/mips/memory.cpp: region lookup and big-endian loads and stores.
#include "cpu/mips/memory.hpp"

#include <cstring>
#include <utility>

namespace mppnet::cpu::mips {

void Memory::map(std::uint32_t base, std::uint32_t size_bytes, std::string name) {
  if (size_bytes == 0) throw MemoryError("memory region '" + name + "' has size 0");
  const std::uint64_t end = std::uint64_t{base} + size_bytes;
  if (end > (std::uint64_t{1} << 32)) {
    throw MemoryError("memory region '" + name + "' at " + std::to_string(base) + " wraps past 2^32");
  }
  for (const Region& r : regions_) {
    if (base < std::uint64_t{r.base} + r.size_bytes && r.base < end) {
      throw MemoryError("memory region '" + name + "' overlaps region '" + r.name + "'");
    }
  }
  regions_.push_back(Region{base, size_bytes, std::move(name), std::vector<std::uint8_t>(size_bytes, 0)});
}

std::uint8_t* Memory::find(std::uint32_t address, std::uint32_t length) const {
  // Offsets are compared, never ends, so a range near 2^32 cannot wrap into a false hit.
  auto holds = [&](const Region& r) {
    const std::uint32_t offset = address - r.base;
    return address >= r.base && offset <= r.size_bytes && length <= r.size_bytes - offset;
  };
  if (last_ < regions_.size() && holds(regions_[last_])) {
    return const_cast<std::uint8_t*>(regions_[last_].bytes.data()) + (address - regions_[last_].base);
  }
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    if (holds(regions_[i])) {
      last_ = i;
      return const_cast<std::uint8_t*>(regions_[i].bytes.data()) + (address - regions_[i].base);
    }
  }
  return nullptr;
}

Access Memory::load8(std::uint32_t address, std::uint8_t& out) const {
  const std::uint8_t* p = find(address, 1);
  if (p == nullptr) return Access::Unmapped;
  out = *p;
  return Access::Ok;
}

Access Memory::load16(std::uint32_t address, std::uint16_t& out) const {
  if ((address & 1) != 0) return Access::Misaligned;
  const std::uint8_t* p = find(address, 2);
  if (p == nullptr) return Access::Unmapped;
  out = static_cast<std::uint16_t>((p[0] << 8) | p[1]);
  return Access::Ok;
}

Access Memory::load32(std::uint32_t address, std::uint32_t& out) const {
  if ((address & 3) != 0) return Access::Misaligned;
  const std::uint8_t* p = find(address, 4);
  if (p == nullptr) return Access::Unmapped;
  out = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  return Access::Ok;
}

Access Memory::store8(std::uint32_t address, std::uint8_t value) {
  std::uint8_t* p = find(address, 1);
  if (p == nullptr) return Access::Unmapped;
  *p = value;
  return Access::Ok;
}

Access Memory::store16(std::uint32_t address, std::uint16_t value) {
  if ((address & 1) != 0) return Access::Misaligned;
  std::uint8_t* p = find(address, 2);
  if (p == nullptr) return Access::Unmapped;
  p[0] = static_cast<std::uint8_t>(value >> 8);
  p[1] = static_cast<std::uint8_t>(value);
  return Access::Ok;
}

Access Memory::store32(std::uint32_t address, std::uint32_t value) {
  if ((address & 3) != 0) return Access::Misaligned;
  std::uint8_t* p = find(address, 4);
  if (p == nullptr) return Access::Unmapped;
  p[0] = static_cast<std::uint8_t>(value >> 24);
  p[1] = static_cast<std::uint8_t>(value >> 16);
  p[2] = static_cast<std::uint8_t>(value >> 8);
  p[3] = static_cast<std::uint8_t>(value);
  return Access::Ok;
}

Access Memory::write_bytes(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return Access::Ok;
  if (bytes.size() > 0xFFFFFFFFu) return Access::Unmapped;
  std::uint8_t* p = find(address, static_cast<std::uint32_t>(bytes.size()));
  if (p == nullptr) return Access::Unmapped;
  std::memcpy(p, bytes.data(), bytes.size());
  return Access::Ok;
}

Access Memory::read_bytes(std::uint32_t address, std::span<std::uint8_t> out) const {
  if (out.empty()) return Access::Ok;
  if (out.size() > 0xFFFFFFFFu) return Access::Unmapped;
  const std::uint8_t* p = find(address, static_cast<std::uint32_t>(out.size()));
  if (p == nullptr) return Access::Unmapped;
  std::memcpy(out.data(), p, out.size());
  return Access::Ok;
}

Memory::Window Memory::window(std::uint32_t address) const {
  for (const Region& r : regions_) {
    if (address >= r.base && address - r.base < r.size_bytes)
      return Window{r.base, r.size_bytes, r.bytes.data()};
  }
  return Window{};
}

std::string Memory::region_name(std::uint32_t address) const {
  for (const Region& r : regions_) {
    if (address >= r.base && address - r.base < r.size_bytes) return r.name;
  }
  return "";
}

}  // namespace mppnet::cpu::mips
