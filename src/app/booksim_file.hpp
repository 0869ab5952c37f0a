// app/booksim_file.hpp: a BookSim configuration file as BookSim reads it: its keys, their defaults, the
// statements of the file and the line of each.
//
// BookSim's syntax is `name = value;` statements, `//` comments to the end of a line, bare strings and
// `{a,b}` lists. Every key BookSim declares has a default (its booksim_config.cpp); a key it does not
// declare makes BookSim refuse the whole file. A key given twice takes its last value, as in BookSim.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mppnet::app {

struct BooksimSetting {
  std::string value;
  int line = 0;          // 0: BookSim's default
  int earlier_line = 0;  // the line of an earlier assignment the last one overrides (0: none)
};

struct BooksimFile {
  std::map<std::string, BooksimSetting> settings;  // every key BookSim declares, and the file's
  std::vector<std::string> errors;                 // syntax errors, "FILE:LINE: reason"
};

// The text without the blanks (spaces, tabs, line ends) around it.
std::string booksim_trim(const std::string& s);

// BookSim's default of every key it declares (booksim_config.cpp), by name.
const std::map<std::string, std::string>& booksim_defaults();

// Whether two BookSim values are the same: as numbers when both are ("1" and "1.0"), else as text.
bool same_booksim_value(const std::string& a, const std::string& b);

// Why BookSim does not read `key` in the configuration `settings` ("" when it does, or when the reason
// is not known): a read/write VC range without use_read_write, x or yr on a fat tree, ...
std::string booksim_ignores(const std::string& key, const std::map<std::string, BooksimSetting>& settings);

// Reads BookSim configuration `text` (from `file`, for messages) over BookSim's defaults.
BooksimFile read_booksim_file(const std::string& text, const std::string& file);

}  // namespace mppnet::app
