// io/csv.cpp: quoting and number formatting for CSV.
#include "io/csv.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::io {

std::string cell(double v) {
  return fmt::format("{}", v);
}
std::string cell(std::int64_t v) {
  return fmt::format("{}", v);
}

std::string cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

CsvTable::CsvTable(const std::vector<std::string>& header) : columns_(header.size()) {
  std::vector<std::string> quoted;
  for (const auto& h : header) quoted.push_back(cell(h));
  add_row(quoted);
}

void CsvTable::add_row(const std::vector<std::string>& cells) {
  MPPNET_ASSERT(cells.size() == columns_, "a CSV row with the wrong number of cells");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) text_ += ',';
    text_ += cells[i];
  }
  text_ += '\n';
}

}  // namespace mppnet::io
