// fuzz/result_files_fuzz.cpp: the result files `mppnet plot` reads (JSON, then the same bytes as CSV). A file
// that is not a result mppnet plots must be refused with core::ConfigError, never crash, hang or escape as
// another exception; a file it takes must give rows whose numbers are finite or absent.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/plot_inputs.hpp"
#include "core/error.hpp"

namespace {

void check_rows(const mppnet::app::ResultFile& f) {
  for (const auto& row : f.rows)
    for (const auto& [column, value] : row)
      if (std::isnan(value)) {
        std::fprintf(stderr, "a NaN in column %s of an accepted result\n", column.c_str());
        std::abort();
      }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check_rows(mppnet::app::parse_result_json(text, "fuzz/results.json"));
  } catch (const mppnet::core::ConfigError&) {
  }
  try {
    check_rows(mppnet::app::parse_result_csv(text, "fuzz/results.csv"));
  } catch (const mppnet::core::ConfigError&) {
  }
  return 0;
}
