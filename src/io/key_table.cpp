// io/key_table.cpp: reading declared config keys from TOML documents and --set arguments.
#include "io/key_table.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "io/key_text.hpp"

namespace mppnet::io {

using detail::join;
using detail::short_name;

namespace {

using core::ConfigError;
using core::SourceLocation;

// A double as TOML writes it: always with a '.', an exponent, or inf/nan, so it reads back as a float.
std::string toml_double(double d) {
  std::string s = fmt::format("{}", d);
  if (s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
  return s;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
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

// --- KeySet ---

KeySet::KeySet(std::vector<KeySpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) {
    // "section.name", or "section.table.name" for a key of a sub-table ([metro.mrp]).
    MPPNET_ASSERT(
        std::count(s.name.begin(), s.name.end(), '.') >= 1 && s.name.front() != '.' && s.name.back() != '.',
        "a key name is \"section.name\"");
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

std::vector<KeySet::Assignment> KeySet::read_document(
    const toml::table& doc, const std::string& file, const std::vector<std::string>& foreign_sections) const {
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
    const bool foreign =
        std::find(foreign_sections.begin(), foreign_sections.end(), s) != foreign_sections.end();
    if (table && foreign) continue;  // another reader of this file owns the section
    if (!table) {
      items.push_back({line_of(node), column_of(node), What::OutsideSection, s, &node});
    } else if (std::find(sections_.begin(), sections_.end(), s) == sections_.end()) {
      items.push_back({line_of(node), column_of(node), What::UnknownSection, s, &node});
    } else {
      // A sub-table ([metro.mrp], or mrp.width = 8 inside [metro]) holds keys named "metro.mrp.width",
      // unless a key of that very name takes a table as its value.
      const auto add = [&](const auto& self, const toml::table& t, const std::string& prefix) -> void {
        for (const auto& [name, value] : t) {
          const std::string full = prefix + "." + std::string(name.str());
          if (const toml::table* sub = value.as_table(); sub && !find(full)) {
            self(self, *sub, full);
            continue;
          }
          items.push_back({line_of(value), column_of(value), What::Key, full, &value});
        }
      };
      add(add, *table, s);
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
        // Every section some reader of this file reads, its own and the other readers'.
        std::vector<std::string> known = sections_;
        known.insert(known.end(), foreign_sections.begin(), foreign_sections.end());
        const auto guess = nearest(item.name, known);
        throw ConfigError(
            where, "",
            guess.empty() ? fmt::format("unknown section [{}] (sections: {})", item.name, join(known, ", "))
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

}  // namespace mppnet::io
