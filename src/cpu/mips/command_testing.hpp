// cpu/mips/command_testing.hpp: for tests, running a command (qemu-mips, the cross compiler) and
// collecting its standard output and exit status.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace mppnet::cpu::mips::testing {

struct CommandOutput {
  std::string out;
  int exit_status = -1;  // -1 when the command could not run or died of a signal
};

inline CommandOutput run_command(const std::string& command) {
  CommandOutput r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[65536];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  return r;
}

// qemu-mips (found by CMake) on an executable. QEMU has no MIPS-II model; its 4Kc (MIPS32) runs MIPS-II
// user code unchanged.
inline CommandOutput run_qemu(const std::string& elf_path) {
  return run_command(std::string("'") + MPPNET_QEMU_MIPS + "' -cpu 4Kc '" + elf_path + "'");
}

}  // namespace mppnet::cpu::mips::testing
