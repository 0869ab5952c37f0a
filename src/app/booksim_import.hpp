// app/booksim_import.hpp: `mppnet import booksim FILE`: a BookSim configuration file as an mppnet config.
//
// BookSim's configuration (`name = value;`, `//` comments, bare strings, `{a,b}` lists) is read with
// BookSim's own defaults for every key the file does not set (app/booksim_file.hpp), then translated key
// by key into the generic network's keys (docs/router.md has the table and the timing differences).
// A key BookSim does not read in that configuration (a read/write VC range without use_read_write) is
// accepted with a one-line note in the generated file, as is a key given twice (the last value wins, as
// in BookSim) and any translation that is not exact; a key at BookSim's default is accepted. A key whose
// value has no meaning in mppnet (an allocator mppnet lacks, a topology it does not model, a timing it
// cannot express) or that BookSim does not declare is an error naming that key and its line; all of them
// are reported, and nothing is written. Keys that only steer BookSim's own output are listed in a comment.
#pragma once

#include <string>
#include <vector>

namespace mppnet::app {

struct BooksimImport {
  std::string toml;                 // the mppnet config; empty when `errors` is not
  std::vector<std::string> errors;  // "FILE:LINE: key: reason", one per key without a meaning in mppnet
};

// Translates BookSim configuration `text`, read from `file` (for messages).
BooksimImport import_booksim(const std::string& text, const std::string& file);

}  // namespace mppnet::app
