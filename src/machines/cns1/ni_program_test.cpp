// machines/cns1/ni_program_test.cpp: a T1 program built from C with examples/t1/lib/t1.h runs on a node
// with its NI (loopback network): the header's SEND wrappers, masks and handler stubs, end to end.
#include <gtest/gtest.h>

#include <string>

#include "cpu/mips/elf_loader.hpp"
#include "cpu/mips/linux_o32.hpp"
#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::ni_program_test {
namespace {

using namespace testing;
using cpu::mips::Exception;

// Runs node 0 of c from the program at path until it exits: each instruction, then the network's
// deliveries; system calls as Linux o32 (exit, write).
cpu::mips::SyscallState run_node(Cluster& c, const std::string& path, std::uint64_t max_instructions) {
  const cpu::mips::LoadedProgram program = cpu::mips::load_elf_file(path, c[0].memory);
  c.cpu(0).reset(program.entry);
  c.cpu(0).set_gpr(29, program.stack_pointer);
  cpu::mips::SyscallState state;
  for (std::uint64_t i = 0; i < max_instructions && !state.exited; ++i) {
    const Exception e = c.cpu(0).step();
    if (e == Exception::Syscall) {
      const bool go_on = cpu::mips::service_syscall(c.cpu(0), state);
      c.cpu(0).skip_faulting_instruction();
      if (!go_on) break;
    } else if (e != Exception::None) {
      ADD_FAILURE() << describe(c.cpu(0).fault());
      break;
    }
    c.net.deliver();
  }
  return state;
}

// examples/t1/ni/self_ping.c: ten LP requests to itself, each answered by an HP reply of twice the
// value, which preempts the still-running request handler: 10 replies summing to 2 * 55 = 110.
TEST(T1Program, SelfPingInCRepliesTenTimes) {
  Cluster c(1);
  const auto state = run_node(c, std::string(MPPNET_T1_ELF_DIR) + "/ni_self_ping.elf", 1'000'000);
  ASSERT_TRUE(state.exited) << state.unsupported;
  EXPECT_EQ(state.exit_status, 0);
  EXPECT_EQ(state.out, "replies 10 sum 110\n");
  const auto& taken = c.ni(0).events_taken();
  EXPECT_EQ(taken[static_cast<int>(Event::LowMessage)], 10u);
  EXPECT_EQ(taken[static_cast<int>(Event::HighMessage)], 10u);
}

}  // namespace
}  // namespace mppnet::machines::cns1::ni_program_test
