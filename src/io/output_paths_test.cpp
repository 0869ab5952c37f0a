// io/output_paths_test.cpp: no write replaces a device, FIFO, socket, folder or link, and temporaries have
// names nobody can plant in advance. Device nodes are made with mknod in a temporary folder, never /dev.
#include "io/output_paths.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/scratch_dir_for_test.hpp"

namespace mppnet::io::output_paths_test {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const char* name) {
  return testing::scratch_dir("paths", name, true);
}

std::string read(const fs::path& p) {
  return testing::read_text(p);
}

mode_t type_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st.st_mode & S_IFMT;
}

// Expects write_file_atomically(target) to throw a ConfigError whose text names the target and `why`.
void expect_refused(const fs::path& target, const std::string& why) {
  try {
    write_file_atomically(target, "results");
    FAIL() << "wrote " << target;
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

int entries(const fs::path& d) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++n;
  return n;
}

TEST(OutputPaths, ACharacterDeviceIsRefusedAndStaysADevice) {
  const fs::path d = fresh_dir("dev");
  const fs::path dev = d / "full";
  // The same device as /dev/full (1, 7); made here, so no real /dev node is ever at risk.
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "mknod: " << std::strerror(errno);
  expect_refused(dev, "is a character device");
  EXPECT_EQ(type_of(dev), static_cast<mode_t>(S_IFCHR));
  EXPECT_EQ(entries(d), 1);  // no temporary left beside it
  fs::remove_all(d);
}

TEST(OutputPaths, AFifoASocketAndAFolderAreRefused) {
  const fs::path d = fresh_dir("kinds");
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0644), 0);
  expect_refused(d / "fifo", "is a FIFO");
  EXPECT_EQ(type_of(d / "fifo"), static_cast<mode_t>(S_IFIFO));

  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string sock = (d / "sock").string();
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  expect_refused(d / "sock", "is a socket");
  EXPECT_EQ(type_of(d / "sock"), static_cast<mode_t>(S_IFSOCK));
  ::close(s);

  fs::create_directories(d / "folder.json" / "inside");
  expect_refused(d / "folder.json", "is a folder");
  EXPECT_TRUE(fs::exists(d / "folder.json" / "inside"));
  fs::remove_all(d);
}

TEST(OutputPaths, ALinkAtTheTargetIsRefusedAndItsTargetUntouched) {
  const fs::path d = fresh_dir("link");
  write_file_atomically(d / "precious", "keep me");
  fs::create_symlink(d / "precious", d / "results.json");
  expect_refused(d / "results.json", "is a symbolic link");
  EXPECT_EQ(read(d / "precious"), "keep me");
  EXPECT_TRUE(fs::is_symlink(d / "results.json"));
  // A dangling link is refused too: following it would create a file wherever it points.
  fs::create_symlink(d / "elsewhere", d / "r2.json");
  expect_refused(d / "r2.json", "is a symbolic link");
  EXPECT_FALSE(fs::exists(d / "elsewhere"));
  fs::remove_all(d);
}

TEST(OutputPaths, TemporariesHaveUnguessableNamesAndNeverOpenAPlantedFile) {
  const fs::path d = fresh_dir("temp");
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) {
    std::optional<TempPath> guard;
    const NewTemp t = create_temp_file(d, "results.json", guard);
    ASSERT_GE(t.fd, 0);
    ::close(t.fd);
    EXPECT_TRUE(is_temp_file_name(t.path.filename().string())) << t.path;
    EXPECT_EQ(t.path.filename().string().find(std::to_string(::getpid())), std::string::npos) << t.path;
    names.insert(t.path.filename().string());
    struct stat st {};
    ASSERT_EQ(::stat(t.path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
    ::unlink(t.path.c_str());
  }
  EXPECT_EQ(names.size(), 20u);  // 62^8 names: twenty draws never repeat
  // A file written through a folder full of planted links still lands as a regular file of its own.
  write_file_atomically(d / "precious", "keep me");
  for (int i = 0; i < 50; ++i)
    fs::create_symlink(d / "precious", d / (".results.json.mppnet-tmp-" + random_suffix(8)));
  write_file_atomically(d / "results.json", "new");
  EXPECT_EQ(read(d / "results.json"), "new");
  EXPECT_EQ(read(d / "precious"), "keep me");
  fs::remove_all(d);
}

TEST(OutputPaths, TempAndPlotNamesAreRecognisedExactly) {
  EXPECT_TRUE(is_temp_file_name(".results.json.mppnet-tmp-AbCd1234"));
  EXPECT_FALSE(is_temp_file_name("results.json.mppnet-tmp-AbCd1234"));  // not hidden: not ours
  EXPECT_FALSE(is_temp_file_name(".results.json.mppnet-tmp-AbCd123"));  // seven letters
  EXPECT_FALSE(is_temp_file_name(".results.json.mppnet-tmp-AbCd12_4"));
  EXPECT_FALSE(is_temp_file_name(".results.json.tmp.123.0"));
  const std::string plot = plot_folder_name("latency");
  EXPECT_TRUE(is_plot_folder_name(plot)) << plot;
  EXPECT_FALSE(is_temp_file_name(plot));
  EXPECT_FALSE(is_plot_folder_name(".latency.plot.abc123"));
}

TEST(OutputPaths, WrittenFilesAreListedUnderTheirFolderEvenThroughALink) {
  const fs::path d = fresh_dir("written");
  fs::create_directories(d / "real");
  fs::create_symlink(d / "real", d / "via");
  write_file_atomically(d / "via" / "a.json", "1");
  write_file_atomically(d / "real" / "sub" / "b.json", "2");
  const std::vector<fs::path> under = written_under(d / "real");
  const std::set<fs::path> got(under.begin(), under.end());
  const fs::path real = fs::canonical(d / "real");
  EXPECT_EQ(got, (std::set<fs::path>{real / "a.json", real / "sub" / "b.json"}));
  fs::remove_all(d);
}

}  // namespace
}  // namespace mppnet::io::output_paths_test
