// io/key_listing.cpp: one listing row per key, rendered as text (`mppnet list keys`) or Markdown
// (docs/config.md).
#include <algorithm>

#include <fmt/format.h>

#include "io/key_table.hpp"
#include "io/key_text.hpp"

namespace mppnet::io {

using detail::bound;
using detail::join;

namespace {

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

}  // namespace

KeyInfo key_info(const KeySpec& spec, std::string default_value) {
  return KeyInfo{spec.name, type_name(spec.type), std::move(default_value), range_text(spec), spec.doc};
}

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
