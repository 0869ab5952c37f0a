// io/csv.hpp: a small CSV table writer (RFC 4180 quoting, numbers that round-trip).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mppnet::io {

std::string cell(double v);  // shortest text that reads back as the same double
std::string cell(std::int64_t v);
inline std::string cell(int v) {
  return cell(static_cast<std::int64_t>(v));
}
std::string cell(const std::string& s);  // quoted when it holds a comma, a quote or a line break

class CsvTable {
 public:
  explicit CsvTable(const std::vector<std::string>& header);
  // REQUIRES: cells.size() equals the header's size; each cell already made by cell().
  void add_row(const std::vector<std::string>& cells);
  const std::string& str() const { return text_; }

 private:
  std::size_t columns_;
  std::string text_;
};

}  // namespace mppnet::io
