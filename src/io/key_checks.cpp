// io/key_checks.cpp: the checks a key can declare, range messages, and did-you-mean suggestions.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "io/key_table.hpp"
#include "io/key_text.hpp"

namespace mppnet::io {

using detail::bound;
using detail::short_name;

namespace {

// Optimal string alignment distance: edits, where swapping two neighbours counts as one ("vsc" -> "vcs").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

Check any_value() {
  return {};
}

Check in_range(double lo, double hi) {
  Check c;
  c.range.lo = lo;
  c.range.hi = hi;
  return c;
}

Check at_least(double lo) {
  Check c;
  c.range.lo = lo;
  return c;
}

Check greater_than(double lo) {
  Check c;
  c.range.lo = lo;
  c.range.lo_open = true;
  return c;
}

Check above_up_to(double lo, double hi) {
  Check c = greater_than(lo);
  c.range.hi = hi;
  return c;
}

Check one_of(std::vector<std::string> names) {
  Check c;
  c.choices = std::move(names);
  return c;
}

Check satisfies(std::function<std::string(const Value&)> test, std::string text) {
  Check c;
  c.test = std::move(test);
  c.text = std::move(text);
  return c;
}

std::string range_problem(const KeySpec& spec, double v, std::string_view shown) {
  const Range& r = spec.check.range;
  const bool lo_ok = !r.lo || (r.lo_open ? v > *r.lo : v >= *r.lo);
  const bool hi_ok = !r.hi || (r.hi_open ? v < *r.hi : v <= *r.hi);
  if (lo_ok && hi_ok) return "";
  const std::string lo =
      r.lo ? fmt::format("{} {}", r.lo_open ? "greater than" : "at least", bound(*r.lo)) : "";
  const std::string hi = r.hi ? fmt::format("{} {}", r.hi_open ? "less than" : "at most", bound(*r.hi)) : "";
  if (r.lo && r.hi && !r.lo_open && !r.hi_open)
    return fmt::format("must be between {} and {} (got {})", bound(*r.lo), bound(*r.hi), shown);
  if (r.lo && r.hi) return fmt::format("must be {} and {} (got {})", lo, hi, shown);
  return fmt::format("must be {} (got {})", r.lo ? lo : hi, shown);
}

std::string nearest(std::string_view typed, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(2, short_name(typed).size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: a far longer name (a 2 MB key pasted by
    // mistake) is no candidate, and is not compared letter by letter.
    const std::size_t gap = typed.size() > c.size() ? typed.size() - c.size() : c.size() - typed.size();
    if (gap >= best_distance) continue;
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace mppnet::io
