// cpu/mips/linux_o32.hpp: the few Linux o32 system calls a freestanding program uses, so that one
// executable runs unchanged under qemu-mips and under the simulator (docs/t1.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cpu/mips/cpu.hpp"

namespace mppnet::cpu::mips {

// o32 numbers (the kernel's arch/mips/kernel/syscalls/syscall_o32.tbl: 4000 + the call's index).
inline constexpr std::uint32_t kSysExit = 4001;
inline constexpr std::uint32_t kSysWrite = 4004;
inline constexpr std::uint32_t kSysExitGroup = 4246;

// What one run may write in all: a program writing in a loop is stopped before it fills the host's memory.
inline constexpr std::size_t kMaxOutputBytes = std::size_t{64} << 20;

// What a program wrote and whether it asked to stop.
struct SyscallState {
  std::string out;  // fd 1
  std::string err;  // fd 2
  bool exited = false;
  int exit_status = 0;
  std::string unsupported;  // set, with the reason, when the program made a call we do not provide
};

// Services the SYSCALL the processor stopped at, as Linux does: number in $v0 ($2), arguments in
// $a0..$a2 ($4..$6); on return $v0 holds the result and $a3 ($7) is 0, or $v0 an errno and $a3 1.
// exit and exit_group end the program (status = $a0 & 0xff, as the kernel reports it); write to fd 1 or 2
// appends to out or err, to any other fd fails with EBADF, and from an unmapped buffer with EFAULT. Any
// other call, or output past kMaxOutputBytes, sets `unsupported`. Returns false when the program must stop
// (exit or unsupported).
bool service_syscall(Cpu& cpu, SyscallState& state);

}  // namespace mppnet::cpu::mips
