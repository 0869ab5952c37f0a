// io/output_directory_test.cpp: one run at a time in a folder, one run's files in it, a killed run's
// leftovers cleaned, and nothing that is not mppnet's ever removed.
#include "io/output_directory.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/output_paths.hpp"
#include "io/scratch_dir_for_test.hpp"

namespace mppnet::io::output_directory_test {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const char* name) {
  return testing::scratch_dir("outdir", name);
}

std::string read(const fs::path& p) {
  return testing::read_text(p);
}

std::string refusal(const fs::path& d) {
  try {
    const OutputDirectory out(d);
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(OutputDirectory, ASecondRunIntoTheSameFolderRefusesWhileTheFirstHoldsIt) {
  const fs::path d = fresh_dir("lock");
  std::optional<OutputDirectory> first;
  first.emplace(d);
  EXPECT_NE(refusal(d).find("another mppnet run is writing into this folder"), std::string::npos)
      << refusal(d);
  first.reset();
  EXPECT_EQ(refusal(d), "");  // released with the first
  fs::remove_all(d);
}

TEST(OutputDirectory, RefusesAnEmptyPathAFileAndAFolderHoldingADeviceFifoOrFileLink) {
  EXPECT_NE(refusal("").find("an empty path"), std::string::npos);
  const fs::path d = fresh_dir("refuse");
  fs::create_directories(d);
  write_file_atomically(d / "plain", "x");
  EXPECT_NE(refusal(d / "plain").find("is not a folder"), std::string::npos) << refusal(d / "plain");

  ASSERT_EQ(::mkfifo((d / "results.csv").c_str(), 0644), 0);
  EXPECT_NE(refusal(d).find("results.csv: is a FIFO"), std::string::npos) << refusal(d);
  fs::remove(d / "results.csv");
  fs::create_symlink(d / "plain", d / "results.json");
  EXPECT_NE(refusal(d).find("results.json: is a symbolic link"), std::string::npos) << refusal(d);
  fs::remove(d / "results.json");
  // A link to a folder is the user's own layout (results -> /scratch/results): followed.
  fs::create_directories(d / "elsewhere");
  fs::create_symlink(d / "elsewhere", d / "linked");
  EXPECT_EQ(refusal(d), "");
  // But never as the journal's folder: a .partial link would let a sweep remove what it points to.
  fs::create_symlink(d / "elsewhere", d / ".partial");
  EXPECT_NE(refusal(d).find(".partial: is a symbolic link"), std::string::npos) << refusal(d);
  fs::remove_all(d);
}

TEST(OutputDirectory, ALinkedFolderIsWrittenThroughItsResolvedPath) {
  const fs::path d = fresh_dir("linked");
  fs::create_directories(d / "real");
  fs::create_symlink(d / "real", d / "via");
  {
    const OutputDirectory out(d / "via");
    EXPECT_EQ(out.resolved(), fs::canonical(d / "real"));
    write_file_atomically(d / "via" / "results.json", "1");
  }
  EXPECT_TRUE(fs::is_symlink(d / "via"));
  EXPECT_EQ(read(d / "real" / "results.json"), "1");
  EXPECT_TRUE(fs::exists(d / "real" / kFilesRecordName));
  fs::remove_all(d);
}

TEST(OutputDirectory, RemovesAKilledRunsTemporariesAndPlotFoldersAndNothingElse) {
  const fs::path d = fresh_dir("leftovers");
  fs::create_directories(d / plot_folder_name("latency"));
  write_file_atomically(d / plot_folder_name("plot") / "plot.svg", "<svg>");
  write_file_atomically(d / ".results.json.mppnet-tmp-AbCd1234", "half");
  write_file_atomically(d / ".results.json.tmp.123.0", "not ours by name");
  write_file_atomically(d / "notes.txt", "the user's");
  fs::create_directories(d / ".latency.plot.abc123");
  { const OutputDirectory out(d); }
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(d)) left.insert(e.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{".results.json.tmp.123.0", "notes.txt", ".latency.plot.abc123"}));
  fs::remove_all(d);
}

TEST(OutputDirectory, ARunRemovesTheFilesOfTheRunBeforeItThatItDidNotWriteAndOnlyThose) {
  const fs::path d = fresh_dir("replace");
  {
    const OutputDirectory out(d);
    write_file_atomically(d / "results.json", "sweep");
    write_file_atomically(d / "latency.svg", "plot");
    write_file_atomically(d / "points" / "p1" / "yield.json", "point");
  }
  write_file_atomically(d / "notes.txt", "the user's");
  ::testing::internal::CaptureStderr();
  {
    const OutputDirectory out(d);
    write_file_atomically(d / "results.json", "run");
  }
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("removed 2 file(s)"), std::string::npos) << said;
  EXPECT_NE(said.find("latency.svg"), std::string::npos) << said;
  EXPECT_EQ(read(d / "results.json"), "run");
  EXPECT_FALSE(fs::exists(d / "latency.svg"));
  EXPECT_FALSE(fs::exists(d / "points"));  // emptied by the removal, so removed
  EXPECT_EQ(read(d / "notes.txt"), "the user's");
  fs::remove_all(d);
}

TEST(OutputDirectory, APlotAddsToTheRunAndARunThatFailsRemovesNothing) {
  const fs::path d = fresh_dir("add");
  {
    const OutputDirectory out(d);
    write_file_atomically(d / "results.json", "run");
  }
  {
    const OutputDirectory out(d, OutputDirectory::Files::AddToEarlierRun);
    write_file_atomically(d / "plot.svg", "plot");
  }
  EXPECT_TRUE(fs::exists(d / "results.json"));
  try {
    const OutputDirectory out(d);
    write_file_atomically(d / "app_counter.json", "partial");
    throw std::runtime_error("deadlock");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(fs::exists(d / "results.json"));
  EXPECT_TRUE(fs::exists(d / "plot.svg"));
  {  // the next run that ends normally removes all three earlier files it does not write
    const OutputDirectory out(d);
    write_file_atomically(d / "yield.json", "y");
  }
  EXPECT_FALSE(fs::exists(d / "results.json"));
  EXPECT_FALSE(fs::exists(d / "plot.svg"));
  EXPECT_FALSE(fs::exists(d / "app_counter.json"));
  EXPECT_TRUE(fs::exists(d / "yield.json"));
  fs::remove_all(d);
}

TEST(OutputDirectory, ARecordNamingFilesOutsideTheFolderOrLinksRemovesNone) {
  const fs::path d = fresh_dir("record");
  fs::create_directories(d / "out");
  write_file_atomically(d / "precious", "keep");
  write_file_atomically(d / "out" / kFilesRecordName,
                        R"({"files": ["../precious", "/etc/passwd", ".partial/sweep/x.json"]})");
  {
    const OutputDirectory out(d / "out");
    write_file_atomically(d / "out" / "results.json", "r");
  }
  EXPECT_EQ(read(d / "precious"), "keep");
  // Nor through a link to a folder elsewhere, planted with a record that names a file behind it.
  fs::create_directories(d / "elsewhere");
  write_file_atomically(d / "elsewhere" / "precious.json", "keep");
  fs::create_symlink(d / "elsewhere", d / "out" / "linked");
  write_file_atomically(d / "out" / kFilesRecordName, R"({"files": ["linked/precious.json"]})");
  { const OutputDirectory out(d / "out"); }
  EXPECT_EQ(read(d / "elsewhere" / "precious.json"), "keep");
  // A malformed record lists nothing.
  write_file_atomically(d / "out" / kFilesRecordName, "{not json");
  { const OutputDirectory out(d / "out"); }
  EXPECT_TRUE(fs::exists(d / "out" / "results.json"));
  fs::remove_all(d);
}

TEST(OutputDirectory, AFolderItCreatedAndLeftEmptyIsRemoved) {
  const fs::path d = fresh_dir("empty");
  try {
    const OutputDirectory out(d);
    throw std::runtime_error("bad input");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(fs::exists(d));
}

}  // namespace
}  // namespace mppnet::io::output_directory_test
