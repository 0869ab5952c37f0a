// io/key_text.hpp: small text helpers shared by the key table's reading, checking and listing.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace mppnet::io::detail {

// A bound of a range: whole numbers without ".0" or exponent (1, 64, 4096), others as written (0.5).
inline std::string bound(double b) {
  if (b == std::floor(b) && std::fabs(b) < 1e15) return fmt::format("{}", static_cast<long long>(b));
  return fmt::format("{}", b);
}

inline std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += sep;
    s += items[i];
  }
  return s;
}

inline std::string short_name(std::string_view name) {
  const auto dot = name.find('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

}  // namespace mppnet::io::detail
