// cpu/mips/encode_testing.hpp: for tests, the instruction encodings of encode.hpp and a processor with
// code and data regions to run them on.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

#include "cpu/mips/cpu.hpp"
#include "cpu/mips/encode.hpp"
#include "cpu/mips/memory.hpp"

namespace mppnet::cpu::mips::testing {

using namespace encode;

// Code at kCode, a 4 KiB data region at kData holding zeros, and a processor at kCode.
struct Machine {
  static constexpr std::uint32_t kCode = 0x1000;
  static constexpr std::uint32_t kData = 0x10000;
  Memory memory;
  Cpu cpu{memory};

  explicit Machine(std::initializer_list<std::uint32_t> code) {
    memory.map(kCode, 0x1000, "code");
    memory.map(kData, 0x1000, "data");
    std::uint32_t address = kCode;
    for (std::uint32_t word : code) {
      EXPECT_EQ(memory.store32(address, word), Access::Ok);
      address += 4;
    }
    cpu.reset(kCode);
  }
  // Runs n instructions, expecting no exception.
  void steps(int n) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(cpu.step(), Exception::None) << "at step " << i;
  }
};

}  // namespace mppnet::cpu::mips::testing
