// machines/cns1/validation_rig.hpp: the rig of the validation cases that run hand-written T1 code on a
// 3 x 3 T1 machine (validation_handlers.cpp, validation_events.cpp): every node's code and data regions,
// node 0's sender and node 1's receiver loops, and reading back what the handlers stored.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "cpu/mips/linux_o32.hpp"
#include "machines/cns1/mesh_probe.hpp"
#include "machines/cns1/ni_encode.hpp"
#include "machines/cns1/ni_registers.hpp"

namespace mppnet::machines::cns1::rig {

inline constexpr std::uint32_t kCode = 0x1000;     // each node's program
inline constexpr std::uint32_t kHandler = 0x1400;  // and its handlers, 0x100 apart
inline constexpr std::uint32_t kHandler2 = 0x1500;
inline constexpr std::uint32_t kHandler3 = 0x1600;
inline constexpr std::uint32_t kData = 0x4000;  // reachable as an offset from $0
inline constexpr std::uint32_t kFlag = 0x100;   // the receiver's flag, an offset in the data region
constexpr std::int32_t at_data(std::uint32_t offset) {
  return static_cast<std::int32_t>(kData + offset);
}
inline const std::string kDoc = "Callahan, T1 Network Interface Specification, UCB/CSD-94-823 (1994)";
inline constexpr const char* kSetup3 =
    "3 x 3 T1 machine, default [ni] and [network]; hand-written T1 code: node 0 sends to node 1";

// Appends b to a, word by word (vector::insert trips GCC 12's -Wstringop-overflow here).
inline void append(std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  for (const std::uint32_t w : b) a.push_back(w);
}

inline const std::vector<std::uint32_t> kExit = {encode::ori(encode::v0, encode::zero, cpu::mips::kSysExit),
                                                 encode::syscall()};

// Node 1's wait: unmask `masks` (an ORI of the upper half into nistat), spin until the flag is set, exit.
inline std::vector<std::uint32_t> receiver(std::uint32_t masks) {
  using namespace encode;
  return {cfc2(at, kNistat),
          kNop,
          lui(v1, masks >> 16),
          or_(at, at, v1),
          ctc2(at, kNistat),
          lw(v0, at_data(kFlag), zero),
          kNop,
          beq(v0, zero, -3),
          kNop,
          ori(v0, zero, cpu::mips::kSysExit),
          syscall()};
}

// Code that sets the flag (with $10) and returns from the handler.
inline std::vector<std::uint32_t> flag_and_hret() {
  using namespace encode;
  return {ori(10, zero, 1), sw(10, at_data(kFlag), zero), kHret};
}

class Rig {
 public:
  explicit Rig(const T1Config& c = probe_config(9)) : m_(c) {
    for (int v = 0; v < m_.nodes(); ++v) {
      m_.node(v).memory().map(kCode, 0x1000, "code");
      m_.node(v).memory().map(kData, 0x1000, "data");
      code(v, kCode, kExit);
      m_.node(v).cpu().reset(kCode);
    }
  }
  void code(int v, std::uint32_t address, const std::vector<std::uint32_t>& words) {
    for (const std::uint32_t w : words) {
      MPPNET_ASSERT(m_.node(v).memory().store32(address, w) == cpu::mips::Access::Ok,
                    "code outside its region");
      address += 4;
    }
  }
  MachineEnd run() { return m_.run().end; }
  std::uint32_t word(int v, std::uint32_t offset) {
    std::uint32_t w = 0;
    m_.node(v).memory().load32(kData + offset, w);
    return w;
  }
  T1Machine& machine() { return m_; }

 private:
  T1Machine m_;
};

// Node 0: $16 = 1 (the destination), $17 = handler, `setup`, then `send` retried until it succeeds, exit.
inline std::vector<std::uint32_t> sender(std::uint32_t handler, const std::vector<std::uint32_t>& setup,
                                         std::initializer_list<std::uint32_t> sends) {
  using namespace encode;
  std::vector<std::uint32_t> c = {ori(s0, zero, 1), ori(s1, zero, handler)};
  append(c, setup);
  for (const std::uint32_t s : sends) append(c, {s, kNop, bc2f(-3), kNop});
  append(c, kExit);
  return c;
}

}  // namespace mppnet::machines::cns1::rig
