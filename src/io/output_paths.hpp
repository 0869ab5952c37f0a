// io/output_paths.hpp: what mppnet may write over, the names of its temporaries, and the record of the
// files a process wrote. Users run simulators as root in containers and on shared clusters: an output
// path must never destroy what is not mppnet's (a device node, a FIFO, a folder, the target of a link).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/temp_files.hpp"

namespace mppnet::io {

// Throws core::ConfigError{{path, 0}, "", reason} when `path` exists and is not a regular file (a device,
// FIFO, socket or folder: "is a character device; mppnet writes only regular files and never replaces
// another kind") or is a symbolic link (results replace their file by rename, which would replace the
// link: mppnet refuses rather than write through a link it did not make). A path that does not exist is
// fine. Commands call it on their output paths before any work, and every write calls it again.
void check_output_target(const std::filesystem::path& path);

// A new, empty temporary file in `dir` for the final name `name`: ".<name>.mppnet-tmp-XXXXXXXX" with
// eight random letters, created with O_CREAT | O_EXCL | O_NOFOLLOW (so a planted file or link at that
// name is never opened, and nobody can guess the name in advance) and mode 0644. Returns the open file
// descriptor and its path; throws core::ConfigError naming `dir` when it cannot. `guard` is set to the
// path before the file exists, so that a signal at any moment leaves no temporary (io/temp_files.hpp).
struct NewTemp {
  int fd = -1;
  std::filesystem::path path;
};
NewTemp create_temp_file(const std::filesystem::path& dir, const std::string& name,
                         std::optional<TempPath>& guard);

// A random suffix of `letters` characters [a-zA-Z0-9] from the kernel's random source, for names that a
// planted file cannot anticipate.
std::string random_suffix(int letters);

// True for the names mppnet gives its temporaries (create_temp_file) and its plot folders (io/plot.cpp):
// leftovers of a killed run that a later run into the same folder removes.
bool is_temp_file_name(const std::string& name);
bool is_plot_folder_name(const std::string& name);
// The plot folder's name for a plot stem, with its random suffix: ".<stem>.mppnet-plot-XXXXXXXX".
std::string plot_folder_name(const std::string& stem);

// The files this process wrote through write_file_atomically or placed by note_written, as absolute paths
// through their folder's resolved path (so a folder reached through a link is still recognised). Writes
// are counted: written_under lists the files under `dir` written after the first `since` writes, so an
// output directory takes those of its own run (writes_so_far() when it started).
void note_written(const std::filesystem::path& path);
std::uint64_t writes_so_far();
std::vector<std::filesystem::path> written_under(const std::filesystem::path& dir, std::uint64_t since = 0);

}  // namespace mppnet::io
