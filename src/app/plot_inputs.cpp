// app/plot_inputs.cpp: reading the result files of run, sweep, yield and harvest into tables for plotting.
#include "app/plot_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/input_file.hpp"

namespace mppnet::app {

namespace {

namespace fs = std::filesystem;

// The files a result directory may hold, in the order they are looked for.
constexpr const char* kResultNames[] = {"results.json", "sweep.json", "yield.json", "harvest.json",
                                        "results.csv",  "yield.csv",  "harvest.csv"};

[[noreturn]] void fail_plot_input(const std::string& path, const std::string& reason) {
  throw core::ConfigError({path, 0}, "", reason);
}

// "section.key" = value for every leaf of the config; arrays stay whole ("[0.1,0.2]"), as a user sets them.
void flatten_config(const nlohmann::json& j, const std::string& prefix,
                    std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      flatten_config(value, prefix.empty() ? key : prefix + "." + key, out);
  } else {
    out[prefix] = j.is_string() ? j.get<std::string>() : j.dump();
  }
}

bool is_number(const nlohmann::json& j) {
  return j.is_number() || j.is_boolean();
}

double plotted_number(const nlohmann::json& j) {
  return j.is_boolean() ? (j.get<bool>() ? 1.0 : 0.0) : j.get<double>();
}

// Rows of an array of objects: every number (and true/false) in them; strings and arrays are not plotted.
void add_rows(ResultFile& f, const nlohmann::json& array) {
  for (const nlohmann::json& point : array) {
    if (!point.is_object()) continue;
    std::map<std::string, double> row;
    for (const auto& [key, value] : point.items()) {
      if (!is_number(value)) continue;
      row[key] = plotted_number(value);
      if (std::find(f.columns.begin(), f.columns.end(), key) == f.columns.end()) f.columns.push_back(key);
    }
    f.rows.push_back(std::move(row));
  }
}

std::string display_name(const std::string& path, const std::string& file_name) {
  const fs::path p(path);
  if (p.filename() == file_name && p.has_parent_path()) return p.parent_path().string();
  return path;
}

// Columns every reader derives: a 95% interval where the file gives a standard error.
void derive(ResultFile& f) {
  if (f.kind == "harvest") {
    for (auto& row : f.rows)
      if (row.count("std_error") != 0) row["harvest_ci95"] = 1.96 * row["std_error"];
    if (std::find(f.columns.begin(), f.columns.end(), "std_error") != f.columns.end())
      f.columns.push_back("harvest_ci95");
  }
  if (f.kind == "yield" && f.scalars.count("ci95_half_width") != 0)
    f.scalars["expected_faults_tolerated_ci95"] = f.scalars["ci95_half_width"];
  // A yield sweep of one seed a point: each point's own interval (with seeds, the interval over them).
  const auto has = [&](const char* c) {
    return std::find(f.columns.begin(), f.columns.end(), c) != f.columns.end();
  };
  if (f.kind == "yield-sweep" && !has("expected_faults_tolerated_ci95") && has("ci95_half_width")) {
    for (auto& row : f.rows)
      if (row.count("ci95_half_width") != 0) row["expected_faults_tolerated_ci95"] = row["ci95_half_width"];
    f.columns.push_back("expected_faults_tolerated_ci95");
  }
}

// The first column ending in `suffix`, or the first column that is not `x`.
std::string column_ending(const ResultFile& f, const std::string& suffix, const std::string& x) {
  for (const std::string& c : f.columns)
    if (c.ends_with(suffix)) return c;
  for (const std::string& c : f.columns)
    if (c != x) return c;
  return "";
}

void set_defaults(ResultFile& f, const std::string& swept_key) {
  if (f.kind == "network") {
    f.x_default = swept_key;
    f.y_default = "latency_avg";
  } else if (f.kind == "yield") {
    f.x_default = "faults";
    f.y_default = "p_complete";
  } else if (f.kind == "harvest") {
    f.x_default = "fault_fraction";
    f.y_default = "harvest";
  } else if (f.kind == "cm5" && !swept_key.empty()) {
    f.x_default = swept_key;
    f.y_default = column_ending(f, "raw_mb_s", swept_key);
  } else if (f.kind == "cm5") {
    f.x_default = "group_nodes";
    f.y_default = "raw_mb_s";
    f.log_x = true;
  } else if (f.kind == "cm1") {
    f.x_default = swept_key;  // empty for a run: the key that differs between runs
    f.y_default = "petit_cycles";
  } else if (f.kind == "app") {
    f.x_default = swept_key;
    f.y_default = "time_us";
  } else if (f.kind == "yield-sweep") {
    f.x_default = swept_key;
    f.y_default = "expected_faults_tolerated";
  } else if (f.kind == "harvest-sweep") {
    f.x_default = swept_key;
    f.y_default = column_ending(f, ".harvest", swept_key);
  } else if (f.columns.size() >= 2) {
    f.x_default = f.columns[0];
    f.y_default = f.columns[1];
  }
}

// One CSV record per line (mppnet's CSV never breaks a line inside a quoted cell).
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

std::string read_text(const std::string& path) {
  return io::read_input_file(path, "result file");
}

}  // namespace

namespace {

ResultFile classify(nlohmann::json doc, const std::string& path);

}  // namespace

ResultFile parse_result_json(const std::string& text, const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    fail_plot_input(path, fmt::format("not JSON: {}", e.what()));
  }
  if (!doc.is_object()) fail_plot_input(path, "not a result file of mppnet: the JSON is not an object");
  // A field of the wrong type (a figure given as text, a value that is neither a number nor a word) is a
  // malformed file, refused by name: never a raw exception, never a point drawn at 0.
  try {
    return classify(doc, path);
  } catch (const nlohmann::json::exception& e) {
    fail_plot_input(path, fmt::format("a malformed result file: {}", e.what()));
  }
}

namespace {

ResultFile classify(nlohmann::json doc, const std::string& path) {
  ResultFile f;
  f.path = path;
  if (doc.contains("config_file") && doc["config_file"].is_string()) f.config_file = doc["config_file"];
  if (doc.contains("config") && doc["config"].is_object()) flatten_config(doc["config"], "", f.config);
  for (const auto& [key, value] : doc.items())
    if (is_number(value)) f.scalars[key] = plotted_number(value);
  const std::string swept_key = doc.value("swept_key", std::string());
  const std::string model = f.config.count("machine.model") != 0 ? f.config["machine.model"] : "";
  if (doc.contains("expected_faults_tolerated") && doc["p_complete"].is_array()) {
    f.kind = "yield";
    f.columns = {"faults", "p_complete"};
    const auto& p = doc["p_complete"];
    for (std::size_t k = 0; k < p.size(); ++k)
      f.rows.push_back({{"faults", static_cast<double>(k)}, {"p_complete", p[k].get<double>()}});
  } else if (doc.contains("packages") && doc["points"].is_array()) {
    f.kind = "harvest";
    add_rows(f, doc["points"]);
  } else if (doc.contains("locality") && doc["locality"].is_array()) {
    f.kind = "cm5";
    add_rows(f, doc["locality"]);
  } else if (doc.contains("points") && doc["points"].is_array() && !swept_key.empty()) {
    // A sweep of any model: each point's `value` is the swept key's, a number or a word (then its index
    // among the sweep's words, which label the axis).
    const std::string runs_with = doc.value("runs_with", std::string());
    if (runs_with.starts_with("mppnet app")) {
      f.kind = "app";
    } else if (model == "metro") {
      f.kind = runs_with.find("harvest") != std::string::npos ? "harvest-sweep" : "yield-sweep";
    } else {
      f.kind = model.empty() || model == "network" ? "network" : model;
    }
    add_rows(f, doc["points"]);
    std::size_t i = 0;
    for (const nlohmann::json& point : doc["points"]) {
      if (!point.is_object() || i >= f.rows.size()) break;
      auto& row = f.rows[i++];
      const nlohmann::json value = point.value("value", nlohmann::json());
      if (!value.is_string() && !value.is_number())
        fail_plot_input(
            path, fmt::format("a malformed sweep: point {} has {} as its value of {}, not a number or a word",
                              i, value.dump(), swept_key));
      if (value.is_string()) {
        auto& words = f.categories[swept_key];
        const std::string word = value.get<std::string>();
        auto it = std::find(words.begin(), words.end(), word);
        if (it == words.end()) it = words.insert(words.end(), word);
        row[swept_key] = static_cast<double>(it - words.begin());
      } else if (row.count("value") != 0) {
        row[swept_key] = row["value"];
      }
    }
    f.columns.insert(f.columns.begin(), swept_key);
  } else if (doc.contains("petit_cycles")) {
    f.kind = "cm1";  // one run, one point: its numbers are the row
    f.rows.push_back(f.scalars);
    for (const auto& [key, value] : f.scalars) f.columns.push_back(key);
  } else {
    fail_plot_input(
        path,
        "not a result file mppnet plot reads: expected the results.json of run or sweep, a yield.json or a "
        "harvest.json");
  }
  f.display = display_name(path, fs::path(path).filename().string());
  derive(f);
  set_defaults(f, swept_key);
  return f;
}

}  // namespace

ResultFile parse_result_csv(const std::string& text, const std::string& path) {
  ResultFile f;
  f.path = path;
  f.display = display_name(path, fs::path(path).filename().string());
  std::size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = split_csv_line(line);
    if (f.columns.empty()) {
      f.columns = cells;
      continue;
    }
    if (cells.size() != f.columns.size())
      throw core::ConfigError(
          {path, line_number}, "",
          fmt::format("{} cells where the header has {}", cells.size(), f.columns.size()));
    std::map<std::string, double> row;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      char* rest = nullptr;
      const double v = std::strtod(cells[i].c_str(), &rest);
      if (!cells[i].empty() && *rest == '\0') row[f.columns[i]] = v;  // text cells are not plotted
    }
    f.rows.push_back(std::move(row));
  }
  if (f.columns.empty()) fail_plot_input(path, "empty: no CSV header");
  const std::string name = fs::path(path).filename().string();
  const auto has = [&](const char* c) {
    return std::find(f.columns.begin(), f.columns.end(), c) != f.columns.end();
  };
  if (name == "yield.csv" && has("p_complete")) {
    f.kind = "yield";
  } else if (name == "harvest.csv" && has("harvest")) {
    f.kind = "harvest";
  } else if (name == "bandwidth.csv" && has("raw_mb_s")) {
    f.kind = "cm5";
  } else if (name == "results.csv" && has("latency_avg")) {
    f.kind = "network";
  } else {
    f.kind = "csv";
  }
  derive(f);
  // A sweep's CSV starts with the swept key's column.
  set_defaults(f, f.kind == "network" ? f.columns[0] : "");
  return f;
}

ResultFile read_result(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (fs::is_directory(path, ec)) {
    std::vector<std::string> found;
    for (const char* name : kResultNames)
      if (fs::exists(fs::path(path) / name, ec)) found.push_back(name);
    // The JSON beside a CSV is the same result, with its config: that is the one read.
    if (!found.empty() && found.front().ends_with(".json"))
      std::erase_if(found, [](const std::string& n) { return n.ends_with(".csv"); });
    if (found.empty())
      fail_plot_input(path,
                      "holds no results.json, yield.json or harvest.json: name a result file or directory");
    if (found.size() > 1)
      fail_plot_input(path, fmt::format("holds {} and {}: name the file to plot", found[0], found[1]));
    file = (fs::path(path) / found.front()).string();
  }
  const std::string text = read_text(file);
  if (file.ends_with(".csv")) return parse_result_csv(text, file);
  return parse_result_json(text, file);
}

double value_of(const ResultFile& file, const std::map<std::string, double>& row, const std::string& column) {
  if (const auto it = row.find(column); it != row.end()) return it->second;
  return file.scalars.at(column);
}

}  // namespace mppnet::app
