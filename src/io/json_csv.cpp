// io/json_csv.cpp: flattening a result record into one CSV row.
#include "io/json_csv.hpp"

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "io/csv.hpp"

namespace mppnet::io {

namespace {

void flatten(const nlohmann::json& object, const std::string& prefix, const std::set<std::string>& skip,
             std::vector<std::string>& names, std::vector<std::string>& cells) {
  for (const auto& [key, value] : object.items()) {
    if (prefix.empty() && skip.count(key) > 0) continue;
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      flatten(value, name, skip, names, cells);
      continue;
    }
    if (value.is_boolean()) {
      cells.push_back(cell(std::int64_t{value.get<bool>() ? 1 : 0}));
    } else if (value.is_number_integer()) {
      cells.push_back(cell(value.get<std::int64_t>()));
    } else if (value.is_number()) {
      cells.push_back(cell(value.get<double>()));
    } else if (value.is_string()) {
      cells.push_back(cell(value.get<std::string>()));
    } else {
      continue;  // arrays and nulls have no single cell
    }
    names.push_back(name);
  }
}

}  // namespace

std::string scalar_fields_csv(const nlohmann::json& doc, const std::set<std::string>& skip) {
  MPPNET_ASSERT(doc.is_object(), "a result record is a JSON object");
  std::vector<std::string> names, cells;
  flatten(doc, "", skip, names, cells);
  CsvTable table(names);
  table.add_row(cells);
  return table.str();
}

}  // namespace mppnet::io
