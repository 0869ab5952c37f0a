// io/atomic_file.hpp: write a whole file so that readers see the old content or the new, never a part.
#pragma once

#include <filesystem>
#include <string_view>

namespace mppnet::io {

// Creates the parent directories, refuses a target that is not a regular file or is a link
// (io/output_paths.hpp, check_output_target), writes content to an unguessable temporary created with
// O_EXCL | O_NOFOLLOW in the same directory, flushes and fsyncs it, and renames it over path (rename
// within one file system is atomic on POSIX). A run that is killed midway leaves the previous result
// intact, and concurrent writers do not share a temp name. The path is recorded as written
// (io/output_paths.hpp, note_written).
// On failure the temp file is removed and core::ConfigError{{path, 0}, "", reason} is thrown, the reason
// naming the step and the system's error text: an output location that cannot be written is an input
// problem (exit status 2), not a bug.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Creates `dir` (and its parents) if needed and checks that files can be made in it, so that a bad --out
// is reported before a long run rather than after it. Throws core::ConfigError naming the directory.
void prepare_output_directory(const std::filesystem::path& dir);

}  // namespace mppnet::io
