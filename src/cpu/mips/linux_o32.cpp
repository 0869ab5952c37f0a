// cpu/mips/linux_o32.cpp: exit and write, the o32 way.
#include "cpu/mips/linux_o32.hpp"

#include <fmt/format.h>

#include <vector>

namespace mppnet::cpu::mips {
namespace {

constexpr unsigned kV0 = 2, kA0 = 4, kA1 = 5, kA2 = 6, kA3 = 7;
constexpr std::uint32_t kEbadf = 9, kEfault = 14;

void succeed(Cpu& cpu, std::uint32_t result) {
  cpu.set_gpr(kV0, result);
  cpu.set_gpr(kA3, 0);
}

void fail(Cpu& cpu, std::uint32_t error) {
  cpu.set_gpr(kV0, error);
  cpu.set_gpr(kA3, 1);
}

}  // namespace

bool service_syscall(Cpu& cpu, SyscallState& state) {
  const std::uint32_t number = cpu.gpr(kV0);
  switch (number) {
    case kSysExit:
    case kSysExitGroup:
      state.exited = true;
      state.exit_status = static_cast<int>(cpu.gpr(kA0) & 0xFF);
      return false;
    case kSysWrite: {
      const std::uint32_t fd = cpu.gpr(kA0);
      const std::uint32_t buffer = cpu.gpr(kA1);
      const std::uint32_t length = cpu.gpr(kA2);
      if (fd != 1 && fd != 2) {
        fail(cpu, kEbadf);
        return true;
      }
      // The range is checked before anything is allocated for it: the length is the program's to choose.
      if ((buffer & 0x80000000u) != 0 || (length != 0 && !cpu.memory().contains(buffer, length))) {
        fail(cpu, kEfault);
        return true;
      }
      if (state.out.size() + state.err.size() + length > kMaxOutputBytes) {
        state.unsupported = fmt::format("the program wrote more than {} bytes (write at pc 0x{:08x})",
                                        kMaxOutputBytes, cpu.pc());
        return false;
      }
      std::vector<std::uint8_t> bytes(length);
      cpu.memory().read_bytes(buffer, bytes);
      (fd == 1 ? state.out : state.err).append(bytes.begin(), bytes.end());
      succeed(cpu, length);
      return true;
    }
    default:
      state.unsupported = fmt::format(
          "system call {} at pc 0x{:08x} is not provided (the simulator offers exit {} and write {}; "
          "see docs/t1.md)",
          number, cpu.pc(), kSysExit, kSysWrite);
      return false;
  }
}

}  // namespace mppnet::cpu::mips
