// io/temp_files.hpp: temporary files and directories removed even when the process is killed.
#pragma once

#include <sys/types.h>

#include <filesystem>

namespace mppnet::io {

// While a TempPath lives, its path is in a fixed table that a SIGINT, SIGTERM or SIGHUP handler walks:
// the handler stops the registered child process (kill and wait), unlinks every registered file, removes
// every registered directory (files first, so a directory is empty by then), restores the default
// action and raises the signal again, so the process still dies of it (status 128 + signal in a shell).
// The handler makes only async-signal-safe calls (kill, waitpid, unlink, rmdir, signal, raise). A signal
// that was ignored when the first TempPath was made stays ignored (`nohup`, background jobs).
//
// The destructor only unregisters: normal paths rename or remove their temporaries themselves. The table
// is fixed (a path longer than the table's slots or a full table goes unregistered, and is then only
// cleaned up on the normal paths), so registering never allocates.
class TempPath {
 public:
  enum class Kind { File, Directory };
  explicit TempPath(const std::filesystem::path& path, Kind kind = Kind::File);
  ~TempPath();
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;

 private:
  int slot_ = -1;
};

// The child process the handler stops before it removes anything, so that the child cannot write a file
// into a directory after the handler emptied it. One at a time; REQUIRES: no other child registered.
class TempChild {
 public:
  explicit TempChild(pid_t pid);
  ~TempChild();
  TempChild(const TempChild&) = delete;
  TempChild& operator=(const TempChild&) = delete;
};

// Installs the handlers (once; TempPath does it too). fork() callers block the signals around the fork
// so that no child exists unregistered: see plot.cpp.
void install_temp_cleanup_handlers();

}  // namespace mppnet::io
