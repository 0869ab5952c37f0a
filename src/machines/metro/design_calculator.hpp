// machines/metro/design_calculator.hpp: what a design calculator is: its options, how it reads and checks
// them, and how it prints a labelled result line.
#pragma once

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "core/error.hpp"

namespace mppnet::machines::metro::design {

struct OptionSpec {
  const char* name;   // without the leading "--"
  const char* value;  // default, as typed; it reproduces the thesis's worked example
  const char* help;
  const char* type = "NUMBER";  // what --help shows: NUMBER or LIST
};

class Args;
struct Calculator {
  const char* name;
  const char* help;
  std::vector<OptionSpec> options;
  std::vector<OptionSpec> flags;  // `value` unused
  void (*run)(const Args&);
};

// One calculator's parsed command line. std::map nodes do not move, so CLI11 can bind to the values.
struct CalculatorState {
  const Calculator* calculator = nullptr;
  CLI::App* command = nullptr;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
  std::string out;  // --out: where design.json and design.csv go
};

// Option text helpers (design_calculator.cpp).
std::string_view trim(std::string_view s);
std::optional<double> parse_real(std::string_view text);
// Digits, or a whole number in scientific notation ("1e6" parts).
std::optional<long long> parse_whole(std::string_view text);
std::vector<std::string_view> split_list(std::string_view s);

// The values of one calculator's options with the checks that turn them into numbers. A bad value
// throws a ConfigError that names the option: "design latency: --stages: must be at least 1 (got 0)".
class Args {
 public:
  explicit Args(const CalculatorState& s) : s_(s) {}

  core::ConfigError error(const std::string& name, const std::string& reason) const {
    return core::ConfigError({fmt::format("design {}", s_.calculator->name), 0}, "--" + name, reason);
  }
  bool flag(const std::string& name) const { return s_.flags.at(name); }
  bool given(const std::string& name) const { return s_.command->get_option("--" + name)->count() > 0; }

  // A number >= min (> min when `strict`).
  double real(const std::string& name, double min, bool strict) const {
    const std::string& text = s_.values.at(name);
    const auto v = parse_real(text);
    if (!v) throw error(name, fmt::format("expected a number, got \"{}\"", text));
    check_min(name, "", text, *v, min, strict);
    return *v;
  }
  double positive(const std::string& name) const { return real(name, 0, true); }
  double at_least(const std::string& name, double min) const { return real(name, min, false); }

  long long whole(const std::string& name, long long min, long long max) const {
    const std::string& text = s_.values.at(name);
    const auto v = parse_whole(text);
    if (!v) throw error(name, fmt::format("expected a whole number, got \"{}\"", text));
    check_whole(name, "", text, *v, min, max);
    return *v;
  }

  // A comma-separated list, "30,90": at least one element, each >= min.
  std::vector<double> reals(const std::string& name, double min) const {
    std::vector<double> out;
    const auto parts = list(name);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const auto v = parse_real(parts[i]);
      if (!v) throw error(name, fmt::format("element {} (\"{}\") is not a number", i + 1, parts[i]));
      check_min(name, fmt::format("element {} ", i + 1), std::string(trim(parts[i])), *v, min, false);
      out.push_back(*v);
    }
    return out;
  }
  std::vector<int> wholes(const std::string& name, int min, int max) const {
    std::vector<int> out;
    const auto parts = list(name);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const auto v = parse_whole(parts[i]);
      if (!v) throw error(name, fmt::format("element {} (\"{}\") is not a whole number", i + 1, parts[i]));
      check_whole(name, fmt::format("element {} ", i + 1), std::string(trim(parts[i])), *v, min, max);
      out.push_back(static_cast<int>(*v));
    }
    return out;
  }

 private:
  std::vector<std::string_view> list(const std::string& name) const {
    const std::string& text = s_.values.at(name);
    if (trim(text).empty()) throw error(name, "expected a comma-separated list, got nothing");
    return split_list(text);
  }
  void check_min(const std::string& name, const std::string& what, const std::string& text, double v,
                 double min, bool strict) const {
    if (!(strict ? v > min : v >= min))
      throw error(name,
                  fmt::format("{}must be {} {:g} (got {})", what, strict ? ">" : "at least", min, text));
    // Products and quotients of a few inputs within these bounds stay far inside a double's range, so no
    // result of a calculator is infinite or rounds to zero.
    if (std::fabs(v) > kLargestInput || (v != 0 && std::fabs(v) < kSmallestInput))
      throw error(name, fmt::format("{}must be 0 or between {:g} and {:g} in size, so that every result is "
                                    "finite and nonzero (got {})",
                                    what, kSmallestInput, kLargestInput, text));
  }
  static constexpr double kLargestInput = 1e30, kSmallestInput = 1e-30;
  void check_whole(const std::string& name, const std::string& what, const std::string& text, long long v,
                   long long min, long long max) const {
    if (v < min) throw error(name, fmt::format("{}must be at least {} (got {})", what, min, text));
    if (v > max) throw error(name, fmt::format("{}must be at most {} (got {})", what, max, text));
  }

  const CalculatorState& s_;
};

// One labelled line of a calculator's output.
void row(const char* label, const std::string& text);

// While one lives, every row() is also kept in `rows` (label, text), so that the command can write the
// result lines as JSON and CSV after the calculator ran; the calculators themselves only print.
class RowCapture {
 public:
  explicit RowCapture(std::vector<std::pair<std::string, std::string>>& rows);
  ~RowCapture();
  RowCapture(const RowCapture&) = delete;
  RowCapture& operator=(const RowCapture&) = delete;
};

// Every calculator of `mppnet design` (design_calculators.cpp).
const std::vector<Calculator>& calculators();

}  // namespace mppnet::machines::metro::design
