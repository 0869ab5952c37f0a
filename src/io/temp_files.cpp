// io/temp_files.cpp: the table of temporaries and the signal handler that removes them.
#include "io/temp_files.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include "core/error.hpp"

namespace mppnet::io {

namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;  // PATH_MAX on Linux, terminator included

// A slot is Free, being Filled (its path not yet complete, so the handler skips it) or Ready. Lock-free
// atomics are what a signal handler may read.
enum SlotState : int { Free, Filling, Ready };
struct Slot {
  std::atomic<int> state{Free};
  bool directory = false;
  char path[kPathBytes] = {};
};
Slot g_slots[kSlots];
std::atomic<pid_t> g_child{0};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void remove_all(bool directories) {
  for (Slot& s : g_slots) {
    if (s.state.load() != Ready || s.directory != directories) continue;
    if (directories) {
      ::rmdir(s.path);
    } else {
      ::unlink(s.path);
    }
  }
}

extern "C" void on_fatal_signal(int sig) {
  const int saved_errno = errno;
  if (const pid_t child = g_child.load(); child > 0) {
    ::kill(child, SIGKILL);
    while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  remove_all(false);
  remove_all(true);
  // SA_RESETHAND already restored the default action; the raised signal stays blocked until this
  // handler returns, and then ends the process as if nobody had caught it.
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  errno = saved_errno;
}

}  // namespace

void install_temp_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = on_fatal_signal;
      sigemptyset(&action.sa_mask);
      for (int other : kSignals) sigaddset(&action.sa_mask, other);  // one cleanup at a time
      action.sa_flags = static_cast<int>(SA_RESETHAND);              // an unsigned constant in glibc
      ::sigaction(sig, &action, nullptr);
    }
  });
}

TempPath::TempPath(const std::filesystem::path& path, Kind kind) {
  install_temp_cleanup_handlers();
  // An absolute path: the handler must not depend on a working directory someone may change later.
  std::error_code ec;
  const std::string text = std::filesystem::absolute(path, ec).string();
  if (ec || text.size() >= kPathBytes) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = Free;
    if (!g_slots[i].state.compare_exchange_strong(expected, Filling)) continue;
    std::memcpy(g_slots[i].path, text.c_str(), text.size() + 1);
    g_slots[i].directory = kind == Kind::Directory;
    g_slots[i].state.store(Ready);
    slot_ = i;
    return;
  }
}

TempPath::~TempPath() {
  if (slot_ >= 0) g_slots[slot_].state.store(Free);
}

TempChild::TempChild(pid_t pid) {
  const pid_t before = g_child.exchange(pid);
  MPPNET_ASSERT(before == 0, "a second child registered for cleanup");
}

TempChild::~TempChild() {
  g_child.store(0);
}

}  // namespace mppnet::io
