// workload/traffic_names.hpp: the config names of the traffic patterns and injection processes.
//
// Config parsing maps names to enums through these tables, so each string is written once, here.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "workload/traffic_params.hpp"

namespace mppnet::workload {

// No default: -Wswitch (an error under -Werror) flags an enumerator added without a name.
constexpr const char* name(PatternKind k) {
  switch (k) {
    case PatternKind::Uniform:
      return "uniform";
    case PatternKind::RandomPermutation:
      return "random_permutation";
    case PatternKind::BitComplement:
      return "bit_complement";
    case PatternKind::BitReverse:
      return "bit_reverse";
    case PatternKind::Transpose:
      return "transpose";
    case PatternKind::Shuffle:
      return "shuffle";
    case PatternKind::Tornado:
      return "tornado";
    case PatternKind::Neighbor:
      return "neighbor";
    case PatternKind::HotSpot:
      return "hot_spot";
  }
  return "?";
}

constexpr const char* name(InjectionKind k) {
  switch (k) {
    case InjectionKind::Bernoulli:
      return "bernoulli";
    case InjectionKind::OnOff:
      return "on_off";
  }
  return "?";
}

// Counts of enumerators; they name the last one, so update them with the enums (the names test
// fails otherwise, since the new enumerator would have no slot in the arrays below).
inline constexpr std::size_t kPatternCount = static_cast<std::size_t>(PatternKind::HotSpot) + 1;
inline constexpr std::size_t kInjectionCount = static_cast<std::size_t>(InjectionKind::OnOff) + 1;

// All names in enum order: kPatternNames[static_cast<std::size_t>(k)] == name(k).
inline constexpr std::array<const char*, kPatternCount> kPatternNames = [] {
  std::array<const char*, kPatternCount> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = name(static_cast<PatternKind>(i));
  return a;
}();
inline constexpr std::array<const char*, kInjectionCount> kInjectionNames = [] {
  std::array<const char*, kInjectionCount> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = name(static_cast<InjectionKind>(i));
  return a;
}();

constexpr std::span<const char* const> pattern_names() {
  return kPatternNames;
}
constexpr std::span<const char* const> injection_names() {
  return kInjectionNames;
}

// The enum a config name stands for; nullopt for a name that is not in the table.
constexpr std::optional<PatternKind> pattern_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kPatternNames.size(); ++i) {
    if (s == kPatternNames[i]) return static_cast<PatternKind>(i);
  }
  return std::nullopt;
}
constexpr std::optional<InjectionKind> injection_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kInjectionNames.size(); ++i) {
    if (s == kInjectionNames[i]) return static_cast<InjectionKind>(i);
  }
  return std::nullopt;
}

}  // namespace mppnet::workload
