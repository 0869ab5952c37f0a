// io/key_table.cpp: reading, checking, listing and rendering declared config keys.
#include "io/key_table.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

namespace mppnet::io {

namespace {

using core::ConfigError;
using core::SourceLocation;

// A double as TOML writes it: always with a '.', an exponent, or inf/nan, so it reads back as a float.
std::string toml_double(double d) {
  std::string s = fmt::format("{}", d);
  if (s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
  return s;
}

// A bound of a range: whole numbers without ".0" or exponent (1, 64, 4096), others as written (0.5).
std::string bound(double b) {
  if (b == std::floor(b) && std::fabs(b) < 1e15) return fmt::format("{}", static_cast<long long>(b));
  return fmt::format("{}", b);
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += sep;
    s += items[i];
  }
  return s;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

std::string short_name(std::string_view name) {
  const auto dot = name.find('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

// What the user wrote, for "got ..." in messages.
std::string describe(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::string:
      return fmt::format("a string \"{}\"", n.as_string()->get());
    case toml::node_type::integer:
      return fmt::format("an integer {}", n.as_integer()->get());
    case toml::node_type::floating_point:
      return fmt::format("a floating-point number {}", toml_double(n.as_floating_point()->get()));
    case toml::node_type::boolean:
      return fmt::format("a boolean {}", n.as_boolean()->get());
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
  }
  return "an unknown value";
}

std::string expected(const KeySpec& spec, bool element) {
  switch (element ? (spec.type == KeyType::IntList ? KeyType::Int : KeyType::Double) : spec.type) {
    case KeyType::Int:
    case KeyType::Int64:
      return "expected an integer";
    case KeyType::Double:
      return "expected a number";
    case KeyType::Bool:
      return "expected true or false";
    case KeyType::String:
    case KeyType::Enum:
      if (spec.check.choices.empty()) return "expected a string";
      return fmt::format("expected a string (one of: {})", join(spec.check.choices, ", "));
    case KeyType::IntList:
      return "expected a list of integers";
    case KeyType::DoubleList:
      return "expected a list of numbers";
  }
  return "expected a value";
}

// A list element's own line, when the list came from a file (a multi-line list names the right line).
SourceLocation at(const SourceLocation& where, const toml::node& n, bool element_lines) {
  return element_lines ? SourceLocation{where.file, static_cast<int>(n.source().begin.line)} : where;
}

[[noreturn]] void wrong_type(const KeySpec& spec, const std::string& name, const toml::node& n,
                             const SourceLocation& where, bool element) {
  throw ConfigError(where, name, fmt::format("{}, got {}", expected(spec, element), describe(n)));
}

// An integer or a number (for a double key or list), checked against the key's range.
std::int64_t read_integer(const KeySpec& spec, const std::string& name, const toml::node& n,
                          const SourceLocation& where, bool element) {
  const auto* i = n.as_integer();
  if (!i) wrong_type(spec, name, n, where, element);
  const std::int64_t v = i->get();
  const std::string shown = std::to_string(v);
  if (auto why = range_problem(spec, static_cast<double>(v), shown); !why.empty())
    throw ConfigError(where, name, why);
  const bool is_int32 = spec.type == KeyType::Int || spec.type == KeyType::IntList;
  if (is_int32 && v > INT_MAX)
    throw ConfigError(where, name, fmt::format("must be at most {} (got {})", INT_MAX, v));
  if (is_int32 && v < INT_MIN)
    throw ConfigError(where, name, fmt::format("must be at least {} (got {})", INT_MIN, v));
  return v;
}

double read_number(const KeySpec& spec, const std::string& name, const toml::node& n,
                   const SourceLocation& where, bool element) {
  double v = 0;
  std::string shown;
  if (const auto* i = n.as_integer()) {
    v = static_cast<double>(i->get());
    shown = std::to_string(i->get());
  } else if (const auto* f = n.as_floating_point()) {
    v = f->get();
    shown = toml_double(v);
  } else {
    wrong_type(spec, name, n, where, element);
  }
  if (!std::isfinite(v))
    throw ConfigError(where, name, fmt::format("must be a finite number (got {})", shown));
  if (auto why = range_problem(spec, v, shown); !why.empty()) throw ConfigError(where, name, why);
  return v;
}

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

std::string range_text(const KeySpec& spec) {
  const Check& c = spec.check;
  if (!c.choices.empty()) return join(c.choices, ", ");
  const Range& r = c.range;
  std::string s;
  const bool integral =
      spec.type == KeyType::Int || spec.type == KeyType::Int64 || spec.type == KeyType::IntList;
  if (r.lo && r.hi) {
    if (integral && !r.lo_open && !r.hi_open) {
      s = fmt::format("{}..{}", bound(*r.lo), bound(*r.hi));
    } else {
      s = fmt::format("{}{}, {}{}", r.lo_open ? "(" : "[", bound(*r.lo), bound(*r.hi), r.hi_open ? ")" : "]");
    }
  } else if (r.lo) {
    s = fmt::format("{} {}", r.lo_open ? ">" : ">=", bound(*r.lo));
  } else if (r.hi) {
    s = fmt::format("{} {}", r.hi_open ? "<" : "<=", bound(*r.hi));
  }
  if (!s.empty() && (spec.type == KeyType::IntList || spec.type == KeyType::DoubleList)) s = "each " + s;
  // A check's own words ("a power of two") add to the range rather than replace it.
  if (!c.text.empty()) s = s.empty() ? c.text : s + ", " + c.text;
  return s;
}

const char* type_name(KeyType t) {
  switch (t) {
    case KeyType::Int:
    case KeyType::Int64:
      return "int";
    case KeyType::Double:
      return "float";
    case KeyType::Bool:
      return "bool";
    case KeyType::String:
      return "string";
    case KeyType::Enum:
      return "enum";
    case KeyType::IntList:
      return "int list";
    case KeyType::DoubleList:
      return "float list";
  }
  return "?";
}

// A TOML basic string.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
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
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

KeyInfo key_info(const KeySpec& spec, std::string default_value) {
  return KeyInfo{spec.name, type_name(spec.type), std::move(default_value), range_text(spec), spec.doc};
}

// --- KeySet ---

KeySet::KeySet(std::vector<KeySpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) {
    MPPNET_ASSERT(std::count(s.name.begin(), s.name.end(), '.') == 1, "a key name is \"section.name\"");
    MPPNET_ASSERT(std::find(names_.begin(), names_.end(), s.name) == names_.end(), "a key is declared twice");
    MPPNET_ASSERT(s.type != KeyType::Enum || !s.check.choices.empty(), "an enum key needs one_of(names)");
    names_.push_back(s.name);
    const std::string section(s.section());
    if (std::find(sections_.begin(), sections_.end(), section) == sections_.end())
      sections_.push_back(section);
  }
}

std::optional<std::size_t> KeySet::find(std::string_view name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names_.begin());
}

std::size_t KeySet::find_or_throw(std::string_view name, const SourceLocation& where) const {
  if (auto i = find(name)) return *i;
  if (const auto guess = nearest(name, names_); !guess.empty())
    throw ConfigError(where, std::string(name), fmt::format("unknown key (did you mean {}?)", guess));
  const auto dot = name.find('.');
  const std::string section(name.substr(0, dot));
  if (dot == std::string_view::npos ||
      std::find(sections_.begin(), sections_.end(), section) == sections_.end()) {
    throw ConfigError(
        where, std::string(name),
        fmt::format("unknown key (keys are \"section.name\"; sections: {})", join(sections_, ", ")));
  }
  std::vector<std::string> in_section;
  for (const auto& s : specs_)
    if (s.section() == section) in_section.push_back(short_name(s.name));
  throw ConfigError(where, std::string(name),
                    fmt::format("unknown key (section [{}] has: {})", section, join(in_section, ", ")));
}

Value KeySet::read(std::size_t key, const toml::node& n, const SourceLocation& where) const {
  return read_node(key, n, where, where.line > 0);
}

Value KeySet::read_node(std::size_t key, const toml::node& n, const SourceLocation& where,
                        bool element_lines) const {
  const KeySpec& spec = specs_[key];
  Value v;
  switch (spec.type) {
    case KeyType::Int:
    case KeyType::Int64:
      v = read_integer(spec, spec.name, n, where, false);
      break;
    case KeyType::Double:
      v = read_number(spec, spec.name, n, where, false);
      break;
    case KeyType::Bool: {
      const auto* b = n.as_boolean();
      if (!b) wrong_type(spec, spec.name, n, where, false);
      v = b->get();
      break;
    }
    case KeyType::String:
    case KeyType::Enum: {
      const auto* s = n.as_string();
      if (!s) wrong_type(spec, spec.name, n, where, false);
      const std::string& text = s->get();
      const auto& choices = spec.check.choices;
      const auto it = std::find(choices.begin(), choices.end(), text);
      if (!choices.empty() && it == choices.end()) {
        throw ConfigError(
            where, spec.name,
            fmt::format("unknown value \"{}\"; expected one of: {}", text, join(choices, ", ")));
      }
      if (spec.type == KeyType::Enum) {
        v = static_cast<std::int64_t>(it - choices.begin());
      } else {
        v = text;
      }
      break;
    }
    case KeyType::IntList:
    case KeyType::DoubleList: {
      const auto* a = n.as_array();
      if (!a) wrong_type(spec, spec.name, n, where, false);
      std::vector<std::int64_t> ints;
      std::vector<double> doubles;
      for (std::size_t i = 0; i < a->size(); ++i) {
        const toml::node& e = *a->get(i);
        const std::string name = fmt::format("{}[{}]", spec.name, i);
        if (spec.type == KeyType::IntList) {
          ints.push_back(read_integer(spec, name, e, at(where, e, element_lines), true));
        } else {
          doubles.push_back(read_number(spec, name, e, at(where, e, element_lines), true));
        }
      }
      if (spec.type == KeyType::IntList) {
        v = std::move(ints);
      } else {
        v = std::move(doubles);
      }
      break;
    }
  }
  if (spec.check.test) {
    if (auto why = spec.check.test(v); !why.empty()) throw ConfigError(where, spec.name, why);
  }
  return v;
}

std::vector<KeySet::Assignment> KeySet::read_document(const toml::table& doc, const std::string& file) const {
  // toml::table iterates in key order, so gather everything first and report problems in file order.
  enum class What { Key, UnknownSection, OutsideSection };
  struct Item {
    int line, column;
    What what;
    std::string name;
    const toml::node* node;
  };
  std::vector<Item> items;
  const auto line_of = [](const toml::node& n) { return static_cast<int>(n.source().begin.line); };
  const auto column_of = [](const toml::node& n) { return static_cast<int>(n.source().begin.column); };
  for (const auto& [section, node] : doc) {
    const std::string s(section.str());
    const toml::table* table = node.as_table();
    if (!table) {
      items.push_back({line_of(node), column_of(node), What::OutsideSection, s, &node});
    } else if (std::find(sections_.begin(), sections_.end(), s) == sections_.end()) {
      items.push_back({line_of(node), column_of(node), What::UnknownSection, s, &node});
    } else {
      for (const auto& [name, value] : *table)
        items.push_back(
            {line_of(value), column_of(value), What::Key, s + "." + std::string(name.str()), &value});
    }
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });

  std::vector<Assignment> out;
  for (const auto& item : items) {
    const SourceLocation where{file, item.line};
    switch (item.what) {
      case What::UnknownSection: {
        const auto guess = nearest(item.name, sections_);
        throw ConfigError(
            where, "",
            guess.empty()
                ? fmt::format("unknown section [{}] (sections: {})", item.name, join(sections_, ", "))
                : fmt::format("unknown section [{}] (did you mean [{}]?)", item.name, guess));
      }
      case What::OutsideSection: {
        std::vector<std::string> shorts;
        for (const auto& n : names_) shorts.push_back(short_name(n));
        const auto guess = nearest(item.name, shorts);
        std::string full;
        for (const auto& n : names_)
          if (!guess.empty() && short_name(n) == guess && full.empty()) full = n;
        throw ConfigError(
            where, item.name,
            full.empty()
                ? fmt::format("unknown key outside any section (sections: {})", join(sections_, ", "))
                : fmt::format("unknown key outside any section (did you mean {}?)", full));
      }
      case What::Key: {
        const std::size_t key = find_or_throw(item.name, where);
        out.push_back({key, read(key, *item.node, where), where});
        break;
      }
    }
  }
  return out;
}

KeySet::Assignment KeySet::read_text(std::string_view key_name, std::string_view value,
                                     const SourceLocation& where) const {
  const std::size_t key = find_or_throw(key_name, where);
  const std::string text(trim(value));
  if (text.empty()) throw ConfigError(where, specs_[key].name, "missing value after '='");
  try {
    const toml::table doc = toml::parse("v = " + text);
    if (doc.size() == 1 && doc.contains("v"))
      return {key, read_node(key, *doc.get("v"), where, false), where};
  } catch (const toml::parse_error& e) {
    // A bare word (torus, traffic.rate) stands for a string; anything else is a malformed value.
    const bool bare =
        text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+") ==
        std::string::npos;
    if (bare) return {key, read_node(key, toml::value<std::string>(text), where, false), where};
    throw ConfigError(where, specs_[key].name,
                      fmt::format("cannot read value {}: {}", text, e.description()));
  }
  throw ConfigError(where, specs_[key].name,
                    fmt::format("cannot read value {}: not a single TOML value", text));
}

KeySet::Assignment KeySet::read_arg(std::string_view text) const {
  const SourceLocation where{"--set " + std::string(text), 0};
  const auto eq = text.find('=');
  const std::string key(trim(text.substr(0, eq)));
  if (eq == std::string_view::npos || key.empty()) throw ConfigError(where, "", "expected key=value");
  return read_text(key, text.substr(eq + 1), where);
}

nlohmann::json KeySet::to_json(std::size_t key, const Value& v) const {
  const KeySpec& spec = specs_[key];
  switch (spec.type) {
    case KeyType::Int:
    case KeyType::Int64:
      return std::get<std::int64_t>(v);
    case KeyType::Double:
      return std::get<double>(v);
    case KeyType::Bool:
      return std::get<bool>(v);
    case KeyType::String:
      return std::get<std::string>(v);
    case KeyType::Enum:
      return spec.check.choices.at(static_cast<std::size_t>(std::get<std::int64_t>(v)));
    case KeyType::IntList:
      return std::get<std::vector<std::int64_t>>(v);
    case KeyType::DoubleList:
      return std::get<std::vector<double>>(v);
  }
  return nullptr;
}

std::string KeySet::to_toml(std::size_t key, const Value& v) const {
  const KeySpec& spec = specs_[key];
  switch (spec.type) {
    case KeyType::Int:
    case KeyType::Int64:
      return std::to_string(std::get<std::int64_t>(v));
    case KeyType::Double:
      return toml_double(std::get<double>(v));
    case KeyType::Bool:
      return std::get<bool>(v) ? "true" : "false";
    case KeyType::String:
      return quoted(std::get<std::string>(v));
    case KeyType::Enum:
      return quoted(spec.check.choices.at(static_cast<std::size_t>(std::get<std::int64_t>(v))));
    case KeyType::IntList: {
      std::vector<std::string> items;
      for (auto i : std::get<std::vector<std::int64_t>>(v)) items.push_back(std::to_string(i));
      return "[" + join(items, ", ") + "]";
    }
    case KeyType::DoubleList: {
      std::vector<std::string> items;
      for (auto d : std::get<std::vector<double>>(v)) items.push_back(toml_double(d));
      return "[" + join(items, ", ") + "]";
    }
  }
  return "";
}

// --- Rendering ---

namespace {

std::string md_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string section_of(const std::string& name) {
  return name.substr(0, name.find('.'));
}

}  // namespace

std::string render_markdown(const std::vector<KeyInfo>& keys) {
  std::string out;
  std::string section;
  for (const auto& k : keys) {
    if (section_of(k.name) != section) {
      section = section_of(k.name);
      out +=
          fmt::format("{}## [{}]\n\n| Key | Type | Default | Range | Description |\n|---|---|---|---|---|\n",
                      out.empty() ? "" : "\n", section);
    }
    out += fmt::format("| `{}` | {} | `{}` | {} | {} |\n", k.name, k.type, md_cell(k.default_value),
                       md_cell(k.range), md_cell(k.doc));
  }
  return out;
}

std::string render_text(const std::vector<KeyInfo>& keys) {
  // The range goes after the doc: enum choices can be long, and a column for them would push every doc right.
  std::size_t w_name = 0, w_type = 0, w_default = 0;
  for (const auto& k : keys) {
    w_name = std::max(w_name, k.name.size());
    w_type = std::max(w_type, k.type.size());
    w_default = std::max(w_default, k.default_value.size());
  }
  std::string out;
  std::string section;
  for (const auto& k : keys) {
    if (!out.empty() && section_of(k.name) != section) out += '\n';
    section = section_of(k.name);
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}", k.name, w_name, k.type, w_type, k.default_value,
                       w_default, k.doc);
    if (!k.range.empty()) out += fmt::format(" Valid: {}", k.range);
    out += '\n';
  }
  return out;
}

}  // namespace mppnet::io
