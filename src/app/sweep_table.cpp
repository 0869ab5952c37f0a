// app/sweep_table.cpp: sweep values, numeric fields of results, means with 95% intervals, and the tables.
#include "app/sweep_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "io/csv.hpp"

namespace mppnet::app {

namespace {

constexpr double kMaxPoints = 10000;

bool is_number_text(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return *end == '\0' && std::isfinite(v);
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> range_values(const std::string& range, const std::string& key,
                                      const core::SourceLocation& where) {
  double parts[3];
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const auto colon = range.find(':', pos);
    const std::string piece = range.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    char* end = nullptr;
    parts[i] = std::strtod(piece.c_str(), &end);
    if (piece.empty() || *end != '\0' || (colon == std::string::npos) != (i == 2) || !std::isfinite(parts[i]))
      throw core::ConfigError(where, key, "expected from:to:step with three finite numbers, or v1,v2,...");
    pos = colon + 1;
  }
  const auto [from, to, step] = parts;
  if (!(step > 0)) throw core::ConfigError(where, key, fmt::format("step must be > 0 (got {:g})", step));
  if (to < from) throw core::ConfigError(where, key, fmt::format("to ({:g}) is below from ({:g})", to, from));
  // Counted as a double first: a step too small for the range must not overflow the integer count.
  const double points = std::floor((to - from) / step + 1e-9) + 1;
  if (!(points <= kMaxPoints))
    throw core::ConfigError(
        where, key, fmt::format("{:g} to {:g} in steps of {:g} is more than 10,000 points", from, to, step));
  std::vector<std::string> values;
  for (long long i = 0; i < static_cast<long long>(points); ++i)
    values.push_back(fmt::format("{}", std::round((from + static_cast<double>(i) * step) * 1e9) / 1e9));
  return values;
}

double number(const nlohmann::json& j) {
  return j.is_boolean() ? (j.get<bool>() ? 1.0 : 0.0) : j.get<double>();
}

std::string joined(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

void flatten(const nlohmann::json& j, const std::string& prefix, NumericFields& out) {
  if (j.is_number() || j.is_boolean()) {
    out.emplace_back(prefix, number(j));
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) flatten(value, joined(prefix, key), out);
  } else if (j.is_array() && !j.empty() &&
             std::all_of(j.begin(), j.end(), [](const nlohmann::json& e) { return e.is_object(); })) {
    // Records (a CM-5 run's rows, an application's phases): named when every one has its own name.
    std::set<std::string> names;
    for (const auto& e : j)
      if (e.contains("name") && e["name"].is_string()) names.insert(e["name"].get<std::string>());
    const bool by_name = names.size() == j.size();
    for (std::size_t i = 0; i < j.size(); ++i)
      flatten(j[i], joined(prefix, by_name ? j[i]["name"].get<std::string>() : std::to_string(i)), out);
  }
}

// A swept number as JSON: an integer stays an integer (a seed such as 2^63 - 1 has no double), any other
// number is a double.
nlohmann::json number_json(const std::string& text) {
  std::int64_t i = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data() + (text.starts_with('+') ? 1 : 0), end, i);
  if (ec == std::errc() && stop == end) return i;
  return std::strtod(text.c_str(), nullptr);
}

std::string number_cell(const std::optional<double>& v) {
  return v ? io::cell(*v) : "";
}

}  // namespace

SweepValues parse_sweep_values(const std::string& text) {
  const core::SourceLocation where{"--sweep " + text, 0};
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    throw core::ConfigError(where, "", "expected KEY=FROM:TO:STEP or KEY=V1,V2,...");
  SweepValues s;
  s.key = trimmed(text.substr(0, eq));
  if (s.key.empty())
    throw core::ConfigError(where, "", "expected KEY=FROM:TO:STEP or KEY=V1,V2,...; the key is missing");
  const std::string rest = text.substr(eq + 1);
  if (rest.find(':') != std::string::npos && rest.find(',') == std::string::npos) {
    s.values = range_values(rest, s.key, where);
  } else {
    std::size_t pos = 0;
    while (true) {
      const auto comma = rest.find(',', pos);
      const std::string v =
          trimmed(rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
      if (v.empty()) throw core::ConfigError(where, s.key, "an empty value in the list");
      if (std::find(s.values.begin(), s.values.end(), v) != s.values.end())
        throw core::ConfigError(where, s.key, fmt::format("the value {} appears twice", v));
      s.values.push_back(v);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    if (static_cast<double>(s.values.size()) > kMaxPoints)
      throw core::ConfigError(where, s.key, "more than 10,000 values");
  }
  s.numeric = std::all_of(s.values.begin(), s.values.end(), is_number_text);
  // Two values that name one directory (a/b and a_b) would overwrite each other's outputs.
  std::set<std::string> dirs;
  for (const std::string& v : s.values)
    if (!dirs.insert(point_directory_name(s.key, v)).second)
      throw core::ConfigError(
          where, s.key,
          fmt::format("two values share the directory name {}", point_directory_name(s.key, v)));
  return s;
}

std::string point_directory_name(const std::string& key, const std::string& value) {
  std::string name = key + "=" + value;
  for (char& c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-' || c == '=';
    if (!plain) c = '_';
  }
  return name;
}

NumericFields numeric_fields(const nlohmann::json& result) {
  NumericFields out;
  if (!result.is_object()) return out;
  for (const auto& [key, value] : result.items())
    if (key != "config" && key != "seed") flatten(value, key, out);
  return out;
}

MeanCi mean_ci95(const std::vector<double>& xs) {
  MeanCi r;
  if (xs.empty()) return r;
  const double n = static_cast<double>(xs.size());
  double sum = 0;
  for (double x : xs) sum += x;
  r.mean = sum / n;
  if (xs.size() < 2) return r;
  // Seeds that agree exactly (a deterministic figure) give exactly 0, not the rounding of the mean.
  if (std::all_of(xs.begin(), xs.end(), [&](double x) { return x == xs.front(); })) {
    r.ci95 = 0.0;
    return r;
  }
  double squares = 0;
  for (double x : xs) squares += (x - *r.mean) * (x - *r.mean);
  // s / sqrt(n) as one square root, sqrt(sum (x - mean)^2 / (n (n - 1))): fewer roundings.
  r.ci95 = core::student_t_975(static_cast<int>(xs.size() - 1)) * std::sqrt(squares / (n * (n - 1)));
  return r;
}

SweepTables tabulate(const SweepValues& sweep, const std::vector<SweepPointRuns>& points, bool intervals) {
  SweepTables t;
  // Every run's fields, by name, and the union of the names in first-seen order.
  std::vector<std::vector<std::map<std::string, double>>> values(points.size());
  for (std::size_t p = 0; p < points.size(); ++p) {
    for (const SweepRun& run : points[p].runs) {
      std::map<std::string, double> row;
      for (const auto& [name, v] : numeric_fields(run.result)) {
        if (row.count(name) == 0 && std::find(t.fields.begin(), t.fields.end(), name) == t.fields.end())
          t.fields.push_back(name);
        row[name] = v;
      }
      values[p].push_back(std::move(row));
    }
  }
  std::vector<std::string> header{sweep.key};
  std::vector<std::string> runs_header{sweep.key, "seed"};
  for (const std::string& f : t.fields) {
    header.push_back(f);
    if (intervals) header.push_back(f + "_ci95");
    runs_header.push_back(f);
  }
  io::CsvTable csv(header), runs_csv(runs_header);
  t.points = nlohmann::json::array();
  for (std::size_t p = 0; p < points.size(); ++p) {
    const std::string& value = points[p].value;
    const std::string value_cell = sweep.numeric ? value : io::cell(value);
    nlohmann::json point = {{"value", sweep.numeric ? number_json(value) : nlohmann::json(value)}};
    std::vector<std::string> row{value_cell};
    for (const std::string& f : t.fields) {
      std::vector<double> xs;
      for (const auto& run : values[p])
        if (const auto it = run.find(f); it != run.end()) xs.push_back(it->second);
      const MeanCi m = mean_ci95(xs);
      row.push_back(number_cell(m.mean));
      if (m.mean) point[f] = *m.mean;
      if (intervals) {
        row.push_back(number_cell(m.ci95));
        if (m.ci95) point[f + "_ci95"] = *m.ci95;
      }
    }
    csv.add_row(row);
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t r = 0; r < points[p].runs.size(); ++r) {
      const SweepRun& run = points[p].runs[r];
      std::vector<std::string> run_row{value_cell, run.seed ? io::cell(*run.seed) : ""};
      for (const std::string& f : t.fields) {
        const auto it = values[p][r].find(f);
        run_row.push_back(it != values[p][r].end() ? io::cell(it->second) : "");
      }
      runs_csv.add_row(run_row);
      nlohmann::json result = run.result;
      if (result.is_object()) result.erase("config");  // sweep.json has it once, less the key and seed
      runs.push_back({{"seed", run.seed ? nlohmann::json(*run.seed) : nlohmann::json()},
                      {"status", run.status},
                      {"dir", run.dir},
                      {"result", result}});
    }
    point["runs"] = runs;
    t.points.push_back(point);
  }
  t.csv = csv.str();
  t.runs_csv = runs_csv.str();
  return t;
}

}  // namespace mppnet::app
