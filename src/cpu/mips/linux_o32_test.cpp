// cpu/mips/linux_o32_test.cpp: the o32 system calls as Linux defines them (arch/mips/kernel/scall32-o32.S:
// result in $v0, $a3 = 0 on success, else $a3 = 1 and $v0 = errno).
#include "cpu/mips/linux_o32.hpp"

#include <gtest/gtest.h>

#include "cpu/mips/encode_testing.hpp"
#include "cpu/mips/run.hpp"

namespace mppnet::cpu::mips::linux_o32_test {
namespace {

using namespace testing;

constexpr unsigned a2 = 6, a3 = 7;

// write(fd, kData, length) then exit(status): the data region starts with "hi!\n".
Machine write_then_exit(std::int32_t fd, std::uint32_t buffer_high, std::int32_t length,
                        std::int32_t status) {
  return Machine({addiu(a0, zero, fd), lui(a1, buffer_high), addiu(a2, zero, length), addiu(v0, zero, 4004),
                  syscall(), or_(s0, v0, zero), or_(t0, a3, zero), addiu(a0, zero, status),
                  addiu(v0, zero, 4001), syscall()});
}

void put_hi(Machine& m) {
  ASSERT_EQ(m.memory.store32(Machine::kData, 0x6869210a), Access::Ok);
}  // "hi!\n"

TEST(MipsLinuxO32, WriteToStdoutAndStderrThenExit) {
  Machine m = write_then_exit(1, 1, 4, 3);
  put_hi(m);
  const RunResult r = run_program(m.cpu, 100);
  ASSERT_EQ(r.end, RunEnd::Exited) << r.message;
  EXPECT_EQ(r.out, "hi!\n");
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(m.cpu.gpr(s0), 4u);  // bytes written
  EXPECT_EQ(m.cpu.gpr(t0), 0u);  // $a3: success
  EXPECT_EQ(r.instructions, 10u);
  Machine e = write_then_exit(2, 1, 3, 0);
  put_hi(e);
  const RunResult re = run_program(e.cpu, 100);
  EXPECT_EQ(re.err, "hi!");
  EXPECT_EQ(re.out, "");
}

TEST(MipsLinuxO32, ExitStatusIsTheLowByte) {
  Machine m = write_then_exit(1, 1, 0, 300);
  EXPECT_EQ(run_program(m.cpu, 100).exit_status, 300 & 0xff);
}

TEST(MipsLinuxO32, BadDescriptorIsEbadf) {
  Machine m = write_then_exit(5, 1, 4, 0);
  const RunResult r = run_program(m.cpu, 100);
  EXPECT_EQ(r.end, RunEnd::Exited);
  EXPECT_EQ(m.cpu.gpr(s0), 9u);  // EBADF
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  EXPECT_EQ(r.out, "");
}

TEST(MipsLinuxO32, UnmappedOrOverlongBufferIsEfault) {
  Machine m = write_then_exit(1, 2, 4, 0);  // 0x20000: unmapped
  run_program(m.cpu, 100);
  EXPECT_EQ(m.cpu.gpr(s0), 14u);  // EFAULT
  EXPECT_EQ(m.cpu.gpr(t0), 1u);
  Machine n = write_then_exit(1, 1, 0x7fff, 0);  // runs past the 4 KiB data region
  run_program(n.cpu, 100);
  EXPECT_EQ(n.cpu.gpr(s0), 14u);
}

TEST(MipsLinuxO32, AnUnprovidedCallStopsTheRunNamingIt) {
  Machine m({addiu(v0, zero, 4045), syscall()});  // brk
  const RunResult r = run_program(m.cpu, 100);
  EXPECT_EQ(r.end, RunEnd::Unsupported);
  EXPECT_NE(r.message.find("system call 4045"), std::string::npos) << r.message;
}

TEST(MipsLinuxO32, AFaultEndsTheRunWithItsDescription) {
  Machine m({0x0000000D});  // break
  const RunResult r = run_program(m.cpu, 100);
  EXPECT_EQ(r.end, RunEnd::Fault);
  EXPECT_EQ(r.fault.kind, Exception::Breakpoint);
  EXPECT_EQ(r.message, "breakpoint at pc 0x00001000 (instruction 0x0000000d)");
}

}  // namespace
}  // namespace mppnet::cpu::mips::linux_o32_test
