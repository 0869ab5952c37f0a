// machines/metro/design_calculator.cpp: reading calculator options from their text.
#include "machines/metro/design_calculator.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"

namespace mppnet::machines::metro::design {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_real(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Digits, or a whole number in scientific notation ("1e6" parts).
std::optional<long long> parse_whole(std::string_view text) {
  const std::string_view s = trim(text);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (!s.empty() && ec == std::errc{} && ptr == s.data() + s.size()) return v;
  const auto real = parse_real(s);
  if (!real || *real != std::floor(*real) || std::fabs(*real) > 1e15) return std::nullopt;
  return static_cast<long long>(*real);
}

std::vector<std::string_view> split_list(std::string_view s) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto comma = s.find(',');
    parts.push_back(s.substr(0, comma));
    if (comma == std::string_view::npos) return parts;
    s.remove_prefix(comma + 1);
  }
}

namespace {
std::vector<std::pair<std::string, std::string>>* captured_rows = nullptr;  // RowCapture's, while it lives
}  // namespace

void row(const char* label, const std::string& text) {
  // Inputs are bounded (Args::check_min) so that no result overflows; a calculator that still printed one
  // would be our bug, not the user's input.
  for (const char* bad : {"inf", "nan"}) {
    const auto at = text.find(bad);
    const bool word = at != std::string::npos &&
                      (at == 0 || !std::isalpha(static_cast<unsigned char>(text[at - 1]))) &&
                      (at + 3 == text.size() || !std::isalpha(static_cast<unsigned char>(text[at + 3])));
    MPPNET_ASSERT(!word, "a design calculator's result is not finite");
  }
  std::printf("%-20s %s\n", label, text.c_str());
  if (captured_rows != nullptr) captured_rows->emplace_back(label, text);
}

RowCapture::RowCapture(std::vector<std::pair<std::string, std::string>>& rows) {
  captured_rows = &rows;
}
RowCapture::~RowCapture() {
  captured_rows = nullptr;
}

}  // namespace mppnet::machines::metro::design
