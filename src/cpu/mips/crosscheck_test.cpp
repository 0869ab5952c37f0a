// cpu/mips/crosscheck_test.cpp: the shipped MIPS programs (examples/t1/iss/, built by the project's build
// with the cross compiler) run under qemu-mips, an independent implementation, and under our simulator:
// exit status and output must agree byte for byte. And the hand-written loop's instruction and cycle
// counts, derived by hand.
#include <gtest/gtest.h>

#include <string>

#include "cpu/mips/command_testing.hpp"
#include "cpu/mips/run.hpp"

namespace mppnet::cpu::mips::crosscheck_test {
namespace {

using testing::run_qemu;

std::string elf(const std::string& name) {
  return std::string(MPPNET_T1_ELF_DIR) + "/" + name + ".elf";
}

class MipsCrossCheck : public ::testing::TestWithParam<const char*> {};

TEST_P(MipsCrossCheck, SameOutputAndExitStatusAsQemu) {
  const std::string path = elf(GetParam());
  const testing::CommandOutput expected = run_qemu(path);
  ASSERT_GE(expected.exit_status, 0) << "qemu-mips did not run " << path;
  ASSERT_FALSE(expected.out.empty()) << "every cross-check program prints something";
  const RunResult got = run_elf_file(path, 100'000'000);
  ASSERT_EQ(got.end, RunEnd::Exited) << got.message;
  EXPECT_EQ(got.exit_status, expected.exit_status);
  EXPECT_EQ(got.out, expected.out);
  EXPECT_EQ(got.err, "");
  EXPECT_GE(got.cycles, got.instructions);
}

INSTANTIATE_TEST_SUITE_P(Programs, MipsCrossCheck,
                         ::testing::Values("arith", "sort", "checksum", "recursion"));

TEST(MipsCrossCheckLoop, InstructionAndCycleCountsMatchTheHandDerivation) {
  // examples/t1/iss/loop.S: 4 set-up instructions, 100 iterations of 5 (lw, addiu, addu, bne, delay-slot
  // addiu), then 5 (lw, addu, move, li, syscall): 4 + 500 + 5 = 509 instructions. The loop body has no
  // interlock (the loaded $t2 is used two instructions later); the lw/addu after it has one: 510 cycles.
  // Sum: 100 * 3 + 3 = 303, exit status 303 mod 256 = 47.
  const RunResult got = run_elf_file(elf("loop"), 10'000);
  ASSERT_EQ(got.end, RunEnd::Exited) << got.message;
  EXPECT_EQ(got.exit_status, 47);
  EXPECT_EQ(got.instructions, 509u);
  EXPECT_EQ(got.cycles, 510u);
  EXPECT_EQ(run_qemu(elf("loop")).exit_status, 47);
}

TEST(MipsCrossCheckLoop, AnInstructionBudgetStopsARunThatDoesNotExit) {
  const RunResult got = run_elf_file(elf("loop"), 100);
  EXPECT_EQ(got.end, RunEnd::Limit);
  EXPECT_EQ(got.instructions, 100u);
  EXPECT_NE(got.message.find("100 instructions"), std::string::npos) << got.message;
}

}  // namespace
}  // namespace mppnet::cpu::mips::crosscheck_test
