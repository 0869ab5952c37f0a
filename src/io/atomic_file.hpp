// io/atomic_file.hpp: results are written to a temporary file and renamed, so a reader never sees half.
#pragma once

#include <filesystem>
#include <string_view>

namespace mppnet::io {

// Creates parent directories, writes `content` to a temporary file beside `path`, flushes it to disk and
// renames it over `path`. On failure removes the temporary file and throws core::ConfigError naming the
// path and the system's reason (an unwritable output location is an input problem).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace mppnet::io
