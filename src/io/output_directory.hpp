// io/output_directory.hpp: a command's output folder, held by one run at a time, holding one run's files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mppnet::io {

// The output folder of a command, from before its work starts until its last file is written.
//
// Constructed: refuses an empty path, a path that is not a folder, and a folder that holds a device, FIFO,
// socket or link to a file (every file mppnet writes there is a regular file: such an entry is refused
// before any work, not after it; a link to a folder, as `results -> /scratch/results`, is followed); a
// linked folder is written through its resolved path. Creates the folder if needed, then takes an
// exclusive lock on it (flock on the folder itself, so a SIGKILL releases it): a second mppnet run into
// the same folder refuses at once, naming it, rather than mix its files with the first's (on a file
// system without locks the run goes on unlocked). Removes what a killed run left there: mppnet's own
// temporary files and plot folders (io/output_paths.hpp), never anything else (and only when locked).
//
// Destroyed: records the files this run wrote under the folder (io/output_paths.hpp, written_under) in
// `.mppnet-files.json`. When the run ended normally, every file the earlier run's record lists that this
// run did not write is removed, and the command says so on stderr: a folder never shows this run's
// results beside an earlier run's plots. Files no record lists (the user's own) are never touched. When
// the run ended by an exception nothing is removed, the record keeps both runs' files, and a folder this
// object created and left empty is removed again.
class OutputDirectory {
 public:
  // ReplaceEarlierRun: the folder holds this run's files (run, sweep, app, validate, machine commands).
  // AddToEarlierRun: the command adds to whatever run is there (plot into a run's folder).
  enum class Files { ReplaceEarlierRun, AddToEarlierRun };

  explicit OutputDirectory(std::filesystem::path dir, Files files = Files::ReplaceEarlierRun);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  // The folder's resolved path (links followed).
  const std::filesystem::path& resolved() const { return resolved_; }

 private:
  void finish(bool normal_end);

  std::filesystem::path dir_;
  std::filesystem::path resolved_;
  Files files_;
  bool created_ = false;
  int lock_fd_ = -1;
  int exceptions_at_start_ = 0;
  std::uint64_t writes_at_start_ = 0;       // io/output_paths.hpp, writes_so_far()
  std::vector<std::string> earlier_files_;  // relative to the folder, from the earlier run's record
};

// The record's file name, in every output folder and in each nested one.
inline constexpr const char* kFilesRecordName = ".mppnet-files.json";

}  // namespace mppnet::io
