// io/atomic_file_test.cpp: content lands whole, replaces the old file, and leaves no temporary behind.
#include "io/atomic_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "io/scratch_dir_for_test.hpp"

namespace mppnet::io::atomic_file_test {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const char* name) {
  return testing::scratch_dir("atomic", name);
}

std::string read(const fs::path& p) {
  return testing::read_text(p);
}

TEST(AtomicFile, CreatesDirectoriesWritesAndOverwrites) {
  const fs::path d = fresh_dir("w");
  write_file_atomically(d / "sub" / "r.json", "first");
  EXPECT_EQ(read(d / "sub" / "r.json"), "first");
  write_file_atomically(d / "sub" / "r.json", "second");
  EXPECT_EQ(read(d / "sub" / "r.json"), "second");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d / "sub")) ++entries;
  EXPECT_EQ(entries, 1);  // no temporary file left behind
  fs::remove_all(d);
}

TEST(AtomicFile, UnwritablePathThrowsNamingThePathAndLeavesNothing) {
  const fs::path d = fresh_dir("u");
  fs::create_directories(d);
  write_file_atomically(d / "plain", "x");  // a regular file used below as if it were a directory
  try {
    write_file_atomically(d / "plain" / "r.json", "y");
    FAIL() << "no error";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find((d / "plain" / "r.json").string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Not a directory"), std::string::npos)
        << e.what();  // strerror(ENOTDIR)
    EXPECT_EQ(e.where().line, 0);
    EXPECT_TRUE(e.key().empty());
  }
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++entries;
  EXPECT_EQ(entries, 1);
  fs::remove_all(d);
}

TEST(AtomicFile, AFolderAsTheTargetIsRefusedAndLeavesNoTemporary) {
  // The target is a non-empty directory: refused before the temporary is written (once, the rename
  // failed with EISDIR after the whole write).
  const fs::path d = fresh_dir("r");
  fs::create_directories(d / "target" / "inside");
  try {
    write_file_atomically(d / "target", "z");
    FAIL() << "no error";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("target: is a folder"), std::string::npos) << e.what();
  }
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++entries;
  EXPECT_EQ(entries, 1);  // only "target": the temporary is gone
  fs::remove_all(d);
}

TEST(AtomicFile, EmptyContentMakesAnEmptyFile) {
  const fs::path d = fresh_dir("e");
  write_file_atomically(d / "empty.txt", "");
  EXPECT_TRUE(fs::exists(d / "empty.txt"));
  EXPECT_EQ(fs::file_size(d / "empty.txt"), 0u);
  fs::remove_all(d);
}

}  // namespace
}  // namespace mppnet::io::atomic_file_test
