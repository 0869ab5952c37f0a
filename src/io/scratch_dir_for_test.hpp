// io/scratch_dir_for_test.hpp: a scratch folder per test and whole-file reads, for the io/ tests that work
// on real files (writes, journals, output folders, inputs).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace mppnet::io::testing {

// An empty path under the system's temporary folder, unique to this test binary's process and `name`:
// "mppnet_<suite>_<name><pid>". It does not exist yet (any earlier one is removed); `create` makes it.
inline std::filesystem::path scratch_dir(const std::string& suite, const std::string& name,
                                         bool create = false) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("mppnet_" + suite + "_" + name + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  if (create) std::filesystem::create_directories(d);
  return d;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace mppnet::io::testing
