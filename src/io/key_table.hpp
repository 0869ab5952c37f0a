// io/key_table.hpp: a table of declared config keys for a struct T: type, check, doc and accessor.
//
// Each key is declared once, next to nothing but its field: the default is the field's initialiser,
// and the table adds the name, the check and the one-line doc (STYLE §2.3). The loader, `--set`,
// `mppnet list keys` and docs/config.md all walk the same table. Reading is split in two:
//   KeySet       (not a template) turns TOML nodes and "key=value" text into checked Values and
//                throws core::ConfigError with file, line, key and reason for every bad input;
//   KeyTable<T>  stores checked Values into a T through accessors built once, at declaration.
// Nothing here runs on a hot path: build code receives the filled params struct, never the table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/value.hpp"

namespace mppnet::io {

enum class KeyType { Int, Int64, Double, Bool, String, Enum, IntList, DoubleList };

// Where each key was last set ("router.vcs" -> file and line), filled by the set_* calls.
using Origins = std::map<std::string, core::SourceLocation>;

// A numeric interval; unset ends are unbounded. For lists it applies to each element.
struct Range {
  std::optional<double> lo;
  std::optional<double> hi;
  bool lo_open = false;
  bool hi_open = false;
};

// What a value must satisfy besides its type.
struct Check {
  Range range;
  std::vector<std::string> choices;  // enum names (index = enum value), or allowed strings
  // A further test: returns "" when the value is fine, else the reason. `text` describes it for listings.
  std::function<std::string(const Value&)> test;
  std::string text;
};

Check any_value();
Check in_range(double lo, double hi);     // lo <= v <= hi
Check at_least(double lo);                // lo <= v
Check greater_than(double lo);            // lo < v
Check above_up_to(double lo, double hi);  // lo < v <= hi
Check one_of(std::vector<std::string> names);
Check satisfies(std::function<std::string(const Value&)> test, std::string text);

// A key's declaration without its accessor.
struct KeySpec {
  std::string name;  // "section.name"
  KeyType type = KeyType::Int;
  Check check;
  std::string doc;  // one line

  std::string_view section() const { return std::string_view(name).substr(0, name.find('.')); }
  bool is_numeric() const {
    return type == KeyType::Int || type == KeyType::Int64 || type == KeyType::Double;
  }
};

// One row of `mppnet list keys` and of docs/config.md.
struct KeyInfo {
  std::string name;
  std::string type;           // "int", "float", "bool", "string", "enum", "int list", "float list"
  std::string default_value;  // as TOML: 4, 0.1, true, "torus", [2, 2, 4]
  std::string range;          // "1..64", "(0, 1]", ">= 0", "mesh, torus", ...
  std::string doc;
};

// The listing row of one key (type name, range text); `default_value` is already rendered as TOML.
KeyInfo key_info(const KeySpec& spec, std::string default_value);

// Markdown: one table per section, every key once (for docs/config.md).
// Plain text: one key per line, "name  type  default  doc Valid: range", sections apart.
std::string render_markdown(const std::vector<KeyInfo>& keys);
std::string render_text(const std::vector<KeyInfo>& keys);

// The candidate nearest to `typed` by edit distance (a swap counts as one edit), or "" if none is close.
std::string nearest(std::string_view typed, const std::vector<std::string>& candidates);

// "" when `v` lies in the numeric range of `spec`, else the reason ("must be between 1 and 64 (got 0)").
std::string range_problem(const KeySpec& spec, double v, std::string_view shown);

// The declared keys of one config struct; turns input into checked Values. Not a template.
class KeySet {
 public:
  // REQUIRES: names are unique and of the form "section.name"; enum keys have choices.
  explicit KeySet(std::vector<KeySpec> specs);

  const std::vector<KeySpec>& specs() const { return specs_; }
  std::optional<std::size_t> find(std::string_view name) const;

  struct Assignment {
    std::size_t key = 0;
    Value value;
    core::SourceLocation where;
  };

  // Checks one value; errors point at `where`, and list elements at their own line when where.line > 0.
  Value read(std::size_t key, const toml::node& node, const core::SourceLocation& where) const;
  // Every key of a parsed document, in file order; each top-level table is a section. Sections named in
  // `foreign_sections` belong to another reader of the same file and are passed over. Throws on the
  // first unknown section, unknown key, wrong type or value out of range.
  std::vector<Assignment> read_document(const toml::table& doc, const std::string& file,
                                        const std::vector<std::string>& foreign_sections = {}) const;
  // A value written as TOML text ("0.3", "[2, 2, 4]", "\"torus\"", or a bare word such as torus).
  Assignment read_text(std::string_view key, std::string_view value, const core::SourceLocation& where) const;
  // A command-line "key=value"; errors point at "--set key=value".
  Assignment read_arg(std::string_view text) const;

  nlohmann::json to_json(std::size_t key, const Value& v) const;
  std::string to_toml(std::size_t key, const Value& v) const;

 private:
  Value read_node(std::size_t key, const toml::node& node, const core::SourceLocation& where,
                  bool element_lines) const;
  std::size_t find_or_throw(std::string_view name, const core::SourceLocation& where) const;
  std::vector<KeySpec> specs_;
  std::vector<std::string> names_;
  std::vector<std::string> sections_;
};

// A key of struct S: its declaration plus how to reach the field.
template <class S>
struct Key {
  KeySpec spec;
  std::function<void(S&, const Value&)> store;  // REQUIRES: the value passed spec's checks
  std::function<Value(const S&)> load;
};

namespace detail {

template <class F>
constexpr KeyType key_type_of() {
  if constexpr (std::is_enum_v<F>)
    return KeyType::Enum;
  else if constexpr (std::is_same_v<F, bool>)
    return KeyType::Bool;
  else if constexpr (std::is_same_v<F, int>)
    return KeyType::Int;
  else if constexpr (std::is_same_v<F, std::int64_t>)
    return KeyType::Int64;
  else if constexpr (std::is_same_v<F, double>)
    return KeyType::Double;
  else if constexpr (std::is_same_v<F, std::string>)
    return KeyType::String;
  else if constexpr (std::is_same_v<F, std::vector<int>>)
    return KeyType::IntList;
  else if constexpr (std::is_same_v<F, std::vector<double>>)
    return KeyType::DoubleList;
  else
    static_assert(sizeof(F) == 0, "unsupported config field type");
}

template <class F>
F from_value(const Value& v) {
  if constexpr (std::is_enum_v<F> || std::is_same_v<F, int>) {
    return static_cast<F>(std::get<std::int64_t>(v));
  } else if constexpr (std::is_same_v<F, std::vector<int>>) {
    const auto& in = std::get<std::vector<std::int64_t>>(v);
    return std::vector<int>(in.begin(), in.end());
  } else {
    return std::get<F>(v);
  }
}

template <class F>
Value to_value(const F& f) {
  if constexpr (std::is_enum_v<F> || std::is_same_v<F, int>) {
    return static_cast<std::int64_t>(f);
  } else if constexpr (std::is_same_v<F, std::vector<int>>) {
    return std::vector<std::int64_t>(f.begin(), f.end());
  } else {
    return f;
  }
}

}  // namespace detail

// Declares key `name` for field `field` of S. For an enum field, `check` is one_of(names) with
// names[i] naming static_cast<E>(i).
template <class S, class F>
Key<S> key(std::string name, F S::*field, Check check, std::string doc) {
  Key<S> k;
  k.spec = KeySpec{std::move(name), detail::key_type_of<F>(), std::move(check), std::move(doc)};
  k.store = [field](S& s, const Value& v) { s.*field = detail::from_value<F>(v); };
  k.load = [field](const S& s) { return detail::to_value<F>(s.*field); };
  return k;
}

// The keys of a sub-struct S reached through `member`, named "section.<key>".
template <class T, class S>
std::vector<Key<T>> section(std::string_view section_name, S T::*member, std::vector<Key<S>> keys) {
  std::vector<Key<T>> out;
  out.reserve(keys.size());
  for (auto& k : keys) {
    Key<T> lifted;
    lifted.spec = std::move(k.spec);
    lifted.spec.name = std::string(section_name) + "." + lifted.spec.name;
    lifted.store = [member, store = std::move(k.store)](T& t, const Value& v) { store(t.*member, v); };
    lifted.load = [member, load = std::move(k.load)](const T& t) { return load(t.*member); };
    out.push_back(std::move(lifted));
  }
  return out;
}

template <class T>
class KeyTable {
 public:
  explicit KeyTable(std::vector<Key<T>> keys) : set_(specs_of(keys)) {
    for (auto& k : keys) {
      store_.push_back(std::move(k.store));
      load_.push_back(std::move(k.load));
    }
  }
  // Sections given as separate lists, e.g. section("router", ...), section("traffic", ...).
  KeyTable(std::initializer_list<std::vector<Key<T>>> parts) : KeyTable(join(parts)) {}

  const KeySet& keys() const { return set_; }

  void apply(T& t, const KeySet::Assignment& a, Origins* origin) const {
    store_[a.key](t, a.value);
    if (origin) (*origin)[set_.specs()[a.key].name] = a.where;
  }
  // Every key of a parsed TOML document (see KeySet::read_document); nothing is stored on error.
  void set_document(T& t, const toml::table& doc, const std::string& file, Origins* origin = nullptr,
                    const std::vector<std::string>& foreign_sections = {}) const {
    for (const auto& a : set_.read_document(doc, file, foreign_sections)) apply(t, a, origin);
  }
  // A value written as TOML text, or a bare word for a string or enum.
  void set_text(T& t, std::string_view key, std::string_view value, const core::SourceLocation& where,
                Origins* origin = nullptr) const {
    apply(t, set_.read_text(key, value, where), origin);
  }
  // A command-line "key=value" (--set).
  void set_arg(T& t, std::string_view text, Origins* origin = nullptr) const {
    apply(t, set_.read_arg(text), origin);
  }

  // Re-checks every key's current value, as if it had been written as TOML text (for a T filled in
  // code, e.g. by a sweep); errors point at where_of(key name).
  void check(const T& t, const std::function<core::SourceLocation(const std::string&)>& where_of) const {
    for (std::size_t i = 0; i < load_.size(); ++i) {
      const auto& name = set_.specs()[i].name;
      set_.read_text(name, set_.to_toml(i, load_[i](t)), where_of(name));
    }
  }

  // REQUIRES: `key` is declared.
  nlohmann::json get(const T& t, std::string_view key) const {
    const auto i = set_.find(key);
    MPPNET_ASSERT(i.has_value(), "get() of an undeclared key");
    return set_.to_json(*i, load_[*i](t));
  }
  // Every key, grouped by section: {"router": {"vcs": 4, ...}, ...}.
  nlohmann::json to_json(const T& t) const {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t i = 0; i < load_.size(); ++i) {
      const auto& name = set_.specs()[i].name;
      const auto dot = name.find('.');
      j[name.substr(0, dot)][name.substr(dot + 1)] = set_.to_json(i, load_[i](t));
    }
    return j;
  }
  // Every key with its default, taken from a default-constructed T.
  std::vector<KeyInfo> list() const {
    const T defaults{};
    std::vector<KeyInfo> out;
    for (std::size_t i = 0; i < load_.size(); ++i)
      out.push_back(key_info(set_.specs()[i], set_.to_toml(i, load_[i](defaults))));
    return out;
  }

 private:
  static std::vector<KeySpec> specs_of(const std::vector<Key<T>>& keys) {
    std::vector<KeySpec> specs;
    for (const auto& k : keys) specs.push_back(k.spec);
    return specs;
  }
  static std::vector<Key<T>> join(std::initializer_list<std::vector<Key<T>>> parts) {
    std::vector<Key<T>> all;
    for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
  }

  KeySet set_;
  std::vector<std::function<void(T&, const Value&)>> store_;
  std::vector<std::function<Value(const T&)>> load_;
};

}  // namespace mppnet::io
