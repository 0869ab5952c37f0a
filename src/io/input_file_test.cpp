// io/input_file_test.cpp: an input larger than the limit, an endless device, a FIFO nobody writes to and a
// file whose read fails are each an error naming the file, never a hang or a silently short input.
#include "io/input_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/scratch_dir_for_test.hpp"

namespace mppnet::io::input_file_test {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const char* name) {
  return testing::scratch_dir("input", name, true);
}

// Sets the limits for one test and restores the defaults after it.
struct Limits {
  explicit Limits(InputLimits l) { set_input_limits(l); }
  ~Limits() { set_input_limits(InputLimits{}); }
};

std::string refusal(const fs::path& p) {
  try {
    read_input_file(p, "config file");
  } catch (const core::ConfigError& e) {
    EXPECT_EQ(e.where().file, p.string());
    return e.what();
  }
  return "";
}

TEST(InputFile, ReadsARegularFileWhole) {
  const fs::path d = fresh_dir("plain");
  std::string big(200'000, 'x');
  big += "end";
  write_file_atomically(d / "c.toml", big);
  EXPECT_EQ(read_input_file(d / "c.toml", "config file"), big);
  fs::remove_all(d);
}

TEST(InputFile, AFileLargerThanTheLimitIsRefusedNamingTheLimit) {
  const fs::path d = fresh_dir("large");
  write_file_atomically(d / "c.toml", std::string(2000, 'x'));
  const Limits limits({.max_bytes = 1000, .timeout_ms = 1000});
  EXPECT_NE(refusal(d / "c.toml").find("larger than the input limit of 1000 bytes"), std::string::npos)
      << refusal(d / "c.toml");
  write_file_atomically(d / "ok.toml", std::string(1000, 'x'));
  EXPECT_EQ(read_input_file(d / "ok.toml", "config file").size(), 1000u);
  fs::remove_all(d);
}

TEST(InputFile, AnEndlessDeviceStopsAtTheLimit) {
  const fs::path d = fresh_dir("zero");
  // The device /dev/zero is (1, 5); made here so that the test depends on no real /dev node.
  if (::mknod((d / "zero").c_str(), S_IFCHR | 0444, makedev(1, 5)) != 0)
    GTEST_SKIP() << "mknod: " << std::strerror(errno);
  const Limits limits({.max_bytes = 1 << 20, .timeout_ms = 1000});
  EXPECT_NE(refusal(d / "zero").find("larger than the input limit of 1 MiB"), std::string::npos)
      << refusal(d / "zero");
  fs::remove_all(d);
}

TEST(InputFile, AFifoWithNoWriterTimesOut) {
  const fs::path d = fresh_dir("fifo");
  ASSERT_EQ(::mkfifo((d / "in.toml").c_str(), 0644), 0);
  const Limits limits({.max_bytes = 1 << 20, .timeout_ms = 200});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(refusal(d / "in.toml").find("no data within 0.2 s"), std::string::npos) << refusal(d / "in.toml");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  fs::remove_all(d);
}

TEST(InputFile, AFifoWithAWriterIsReadToItsEnd) {
  const fs::path d = fresh_dir("fifo_writer");
  ASSERT_EQ(::mkfifo((d / "in.toml").c_str(), 0644), 0);
  const Limits limits({.max_bytes = 1 << 20, .timeout_ms = 5000});
  std::thread writer([&] {
    const int fd = ::open((d / "in.toml").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    for (int i = 0; i < 3; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ASSERT_EQ(::write(fd, "abc\n", 4), 4);
    }
    ::close(fd);
  });
  EXPECT_EQ(read_input_file(d / "in.toml", "config file"), "abc\nabc\nabc\n");
  writer.join();
  fs::remove_all(d);
}

TEST(InputFile, AReadErrorIsAnErrorNotAnEndOfFile) {
  // Reading /proc/self/mem at offset 0 fails with EIO: the address is not mapped.
  const std::string said = refusal("/proc/self/mem");
  EXPECT_NE(said.find("cannot read the config file: Input/output error"), std::string::npos) << said;
  const fs::path d = fresh_dir("folder");
  EXPECT_NE(refusal(d).find("it is a folder"), std::string::npos) << refusal(d);
  EXPECT_NE(refusal(d / "absent").find("No such file or directory"), std::string::npos);
  fs::remove_all(d);
}

}  // namespace
}  // namespace mppnet::io::input_file_test
